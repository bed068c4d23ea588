/**
 * Check 2 (Java ≥ 17) through the real process runner on fake `java` programs: Java 8's banner on
 * stderr is a miss that says Java 8, Java 17's is ok, JAVA_HOME wins over PATH, a JAVA_HOME without
 * bin/java, no java at all, an unreadable banner and a java that hangs are misses with remedies.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { javaCheck, parseJavaVersion } from "../../src/doctor/check_java.ts";
import { HANGING, printing, programDir, writeProgram } from "../support/fake_programs.ts";
import { doctorInputs, runCheck } from "./doctor_inputs.ts";

const JAVA_8 =
  'java version "1.8.0_392"\nJava(TM) SE Runtime Environment (build 1.8.0_392-b08)\nJava HotSpot(TM) 64-Bit Server VM (build 25.392-b08, mixed mode)\n';
const JAVA_17 =
  'openjdk version "17.0.9" 2023-10-17\nOpenJDK Runtime Environment (build 17.0.9+9-Debian-1deb12u1)\nOpenJDK 64-Bit Server VM (build 17.0.9+9-Debian-1deb12u1, mixed mode, sharing)\n';

test("parseJavaVersion: 1.8.0_x is Java 8; 17.0.9, 21 and 25 are themselves; JAVA_TOOL_OPTIONS noise first is skipped", () => {
  assert.deepEqual(parseJavaVersion(JAVA_8), { version: "1.8.0_392", major: 8 });
  assert.deepEqual(parseJavaVersion(JAVA_17), { version: "17.0.9", major: 17 });
  assert.deepEqual(parseJavaVersion('openjdk version "21" 2023-09-19\n'), { version: "21", major: 21 });
  assert.deepEqual(parseJavaVersion('Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version "25" 2025-09-16 LTS\n'), {
    version: "25",
    major: 25,
  });
  assert.deepEqual(parseJavaVersion('java version "11.0.2" 2019-01-15 LTS\n'), { version: "11.0.2", major: 11 });
  assert.equal(parseJavaVersion("bash: java: command not found\n"), null);
});

test("a java on PATH printing Java 8's banner on stderr is a miss that says Java 8 and how to install 17", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "java", printing({ stderr: JAVA_8 }));
  const result = await runCheck(javaCheck, doctorInputs(t, { PATH: bin }));
  assert.equal(result.ok, false);
  assert.match(result.detail, /java 1\.8\.0_392 is Java 8 \(.*\/java, from PATH\); a real campaign needs Java 17 or newer/);
  assert.match(result.remedy ?? "", /apt-get install -y openjdk-17-jdk-headless && export JAVA_HOME=/);
  assert.equal(result.facts["major"], 8);
});

test("a java printing Java 17's banner is ok, with its version and where it came from", async (t) => {
  const bin = programDir(t);
  const java = writeProgram(bin, "java", printing({ stderr: JAVA_17 }));
  const result = await runCheck(javaCheck, doctorInputs(t, { PATH: bin }));
  assert.equal(result.ok, true, result.detail);
  assert.equal(result.detail, `Java 17 (17.0.9, ${java}, from PATH)`);
  assert.equal(result.remedy, null);
});

test("JAVA_HOME wins over PATH: its Java 17 is ok although PATH has Java 8, and its Java 8 is a miss although PATH has 17", async (t) => {
  const path8 = programDir(t);
  writeProgram(path8, "java", printing({ stderr: JAVA_8 }));
  const home17 = programDir(t);
  writeProgram(home17, "bin/java", printing({ stderr: JAVA_17 }));
  const ok = await runCheck(javaCheck, doctorInputs(t, { PATH: path8, JAVA_HOME: home17 }));
  assert.equal(ok.ok, true, ok.detail);
  assert.match(ok.detail, /from JAVA_HOME/);

  const path17 = programDir(t);
  writeProgram(path17, "java", printing({ stderr: JAVA_17 }));
  const home8 = programDir(t);
  writeProgram(home8, "bin/java", printing({ stderr: JAVA_8 }));
  const miss = await runCheck(javaCheck, doctorInputs(t, { PATH: path17, JAVA_HOME: home8 }));
  assert.equal(miss.ok, false);
  assert.match(miss.detail, /Java 8 .*from JAVA_HOME/);
});

test("JAVA_HOME without bin/java is a miss naming the folder to fix", async (t) => {
  const empty = programDir(t);
  const result = await runCheck(javaCheck, doctorInputs(t, { PATH: "", JAVA_HOME: empty }));
  assert.equal(result.ok, false);
  assert.equal(result.detail, `JAVA_HOME is ${empty}, but ${join(empty, "bin", "java")} does not exist or cannot be run`);
  assert.match(result.remedy ?? "", /Point JAVA_HOME at a Java 17\+ installation/);
});

test("no JAVA_HOME and no java on PATH is a miss; macOS gets brew, Windows winget", async (t) => {
  const empty = programDir(t);
  const linux = await runCheck(javaCheck, doctorInputs(t, { PATH: empty }));
  assert.equal(linux.ok, false);
  assert.equal(linux.detail, "no java: JAVA_HOME is not set and no java is on PATH");
  const mac = await runCheck(javaCheck, doctorInputs(t, { PATH: empty }, { platform: "darwin" }));
  // Homebrew's openjdk@17 is keg-only and not linked into /Library/Java/JavaVirtualMachines, so
  // `/usr/libexec/java_home -v 17` does not find it: JAVA_HOME must name the keg's own home.
  assert.match(
    mac.remedy ?? "",
    /brew install openjdk@17 && export JAVA_HOME="\$\(brew --prefix openjdk@17\)\/libexec\/openjdk\.jdk\/Contents\/Home"/,
  );
  assert.doesNotMatch(mac.remedy ?? "", /java_home -v/);
  const windows = await runCheck(javaCheck, doctorInputs(t, { PATH: empty }, { platform: "win32" }));
  assert.match(windows.remedy ?? "", /winget install Microsoft\.OpenJDK\.17/);
});

test("a java that prints no version is a miss quoting what it said", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "java", printing({ stderr: "Error: could not open `/opt/jre/lib/amd64/jvm.cfg'\n", code: 1 }));
  const result = await runCheck(javaCheck, doctorInputs(t, { PATH: bin }));
  assert.equal(result.ok, false);
  assert.match(result.detail, /printed no Java version \(Error: could not open/);
});

test("a java that hangs is a miss within the check's timeout, and is stopped", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "java", HANGING);
  const result = await runCheck(javaCheck, doctorInputs(t, { PATH: bin }), 1000);
  assert.equal(result.ok, false);
  assert.match(result.detail, /-version` did not answer within 1 s and was stopped/);
  assertEndedByDeadline(result.tookMs, 1000, "the java check");
});

const REAL_JAVA = "/usr/bin/java";
test(
  "the machine's real java (Java 17 in CI) reads as Java 17 or newer",
  { skip: existsSync(REAL_JAVA) ? false : `no ${REAL_JAVA}` },
  async (t) => {
    const result = await runCheck(javaCheck, doctorInputs(t, { PATH: "/usr/bin" }));
    assert.equal(result.ok, true, result.detail);
    assert.ok(Number(result.facts["major"]) >= 17);
  },
);
