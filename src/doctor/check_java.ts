/**
 * Check 2, Java ≥ 17 (the UiAutomator2 driver signs and inspects APKs with it): `$JAVA_HOME/bin/java`
 * when JAVA_HOME is set, else the first `java` on PATH, RUN as `java -version` and its banner read from
 * stderr (`java version "1.8.0_392"` is Java 8, `openjdk version "17.0.9"` is 17). Missing, too old,
 * hanging or unreadable is a miss whose remedy installs Java 17 and sets JAVA_HOME for this platform.
 */
import { join } from "node:path";
import { executableName, findOnPath } from "./find_program.ts";
import type { CheckOutcome, DoctorCheck, DoctorInputs } from "./types.ts";
import { formatSeconds } from "./units.ts";

export const MINIMUM_JAVA = 17;

export interface JavaVersion {
  /** As printed: "1.8.0_392", "17.0.9", "21". */
  version: string;
  major: number;
}

/** The version in a `java -version` banner (stderr; `java --version` prints a similar line on stdout). */
export function parseJavaVersion(banner: string): JavaVersion | null {
  const quoted = /\b(?:java|openjdk) version "([^"]+)"/.exec(banner);
  const bare = quoted ?? /^(?:java|openjdk) (\d+(?:\.[\w.-]+)?)\b/m.exec(banner);
  if (bare === null) return null;
  const version = bare[1]!;
  const parts = /^(\d+)(?:\.(\d+))?/.exec(version);
  if (parts === null) return null;
  const first = Number(parts[1]);
  const major = first === 1 && parts[2] !== undefined ? Number(parts[2]) : first; // 1.8.0_x is Java 8
  return { version, major };
}

export function installJavaRemedy(platform: string): string {
  // Homebrew's openjdk@17 is keg-only: /usr/libexec/java_home does not see it unless symlinked by hand.
  if (platform === "darwin") {
    return 'brew install openjdk@17 && export JAVA_HOME="$(brew --prefix openjdk@17)/libexec/openjdk.jdk/Contents/Home"';
  }
  if (platform === "win32") {
    return 'winget install Microsoft.OpenJDK.17, then set JAVA_HOME to its folder (setx JAVA_HOME "C:\\Program Files\\Microsoft\\jdk-17…")';
  }
  return "sudo apt-get install -y openjdk-17-jdk-headless && export JAVA_HOME=$(ls -d /usr/lib/jvm/java-17-openjdk-* | head -1)";
}

interface LocatedJava {
  program: string;
  from: string;
}

async function locateJava(inputs: DoctorInputs): Promise<LocatedJava | CheckOutcome> {
  const javaHome = inputs.env["JAVA_HOME"]?.trim();
  const name = executableName("java", inputs.platform);
  if (javaHome !== undefined && javaHome !== "") {
    const program = join(javaHome, "bin", name);
    if (await inputs.files.isExecutable(program)) return { program, from: "JAVA_HOME" };
    return {
      ok: false,
      detail: `JAVA_HOME is ${javaHome}, but ${program} does not exist or cannot be run`,
      remedy: `Point JAVA_HOME at a Java ${MINIMUM_JAVA}+ installation (the folder holding bin/${name}), or install one: ${
        installJavaRemedy(inputs.platform)
      }`,
      facts: { java_home: javaHome, program },
    };
  }
  const program = await findOnPath("java", inputs);
  if (program !== null) return { program, from: "PATH" };
  return {
    ok: false,
    detail: "no java: JAVA_HOME is not set and no java is on PATH",
    remedy: `Install Java ${MINIMUM_JAVA} or newer: ${installJavaRemedy(inputs.platform)}`,
    facts: { java_home: null, program: null },
  };
}

export const javaCheck: DoctorCheck = {
  id: "java",
  name: "Java",
  direct: "not_needed",
  neededBySimulatedDevice: false,
  run: async (inputs, budget) => {
    const located = await locateJava(inputs);
    if (!("program" in located)) return located;
    const { program, from } = located;
    const result = await inputs.runner.run(program, ["-version"], {
      timeoutMs: budget.timeoutMs,
      signal: budget.signal,
      env: { ...inputs.env },
    });
    const facts = { program, source: from };
    if (result.timedOut || result.aborted) return hung(inputs, program, budget.timeoutMs);
    if (result.spawnError !== undefined) {
      return {
        ok: false,
        detail: `cannot run ${program} (${result.spawnError})`,
        remedy: `Install Java ${MINIMUM_JAVA} or newer: ${installJavaRemedy(inputs.platform)}`,
        facts,
      };
    }
    const banner = `${result.stderr}\n${result.stdout.toString("utf8")}`;
    const parsed = parseJavaVersion(banner);
    if (parsed === null) {
      const said = banner.trim().split("\n")[0]?.slice(0, 120) || `exit code ${result.exitCode}, no output`;
      return {
        ok: false,
        detail: `\`${program} -version\` printed no Java version (${said})`,
        remedy: `Check that ${program} is a working Java (run \`${program} -version\`), or install Java ${MINIMUM_JAVA}+: ${
          installJavaRemedy(inputs.platform)
        }`,
        facts,
      };
    }
    const found = { ...facts, version: parsed.version, major: parsed.major };
    const where = `${program}, from ${from}`;
    if (parsed.major < MINIMUM_JAVA) {
      return {
        ok: false,
        detail: `java ${parsed.version} is Java ${parsed.major} (${where}); a real campaign needs Java ${MINIMUM_JAVA} or newer`,
        remedy: `Install Java ${MINIMUM_JAVA}+ and use it: ${installJavaRemedy(inputs.platform)}`,
        facts: found,
      };
    }
    return { ok: true, detail: `Java ${parsed.major} (${parsed.version}, ${where})`, facts: found };
  },
  timedOut: (inputs, timeoutMs) => hung(inputs, "java", timeoutMs),
};

function hung(inputs: DoctorInputs, program: string, timeoutMs: number): CheckOutcome {
  return {
    ok: false,
    detail: `\`${program} -version\` did not answer within ${formatSeconds(timeoutMs)} and was stopped`,
    remedy: `Run \`${program} -version\` yourself; if it hangs, reinstall Java ${MINIMUM_JAVA}+ and point JAVA_HOME at it: ${
      installJavaRemedy(inputs.platform)
    }`,
    facts: { program },
  };
}
