/**
 * Finds a program the way a shell would — the first executable `name` in the directories of the
 * environment's PATH (with PATHEXT's extensions on Windows) — through the FileProbe port, so `doctor`
 * can say which file answers and tests can hand it a temporary PATH. Null when none is found.
 */
import { join } from "node:path";
import type { DoctorInputs } from "./types.ts";

export async function findOnPath(name: string, inputs: Pick<DoctorInputs, "env" | "platform" | "files">): Promise<string | null> {
  const windows = inputs.platform === "win32";
  const path = inputs.env["PATH"] ?? (windows ? inputs.env["Path"] : undefined) ?? "";
  const extensions = windows ? (inputs.env["PATHEXT"] ?? ".EXE;.CMD;.BAT").split(";").filter((e) => e !== "") : [""];
  for (const dir of path.split(windows ? ";" : ":")) {
    if (dir === "") continue;
    for (const extension of extensions) {
      const candidate = join(dir, name + extension.toLowerCase());
      if (await inputs.files.isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

/** The executable's file name on this platform (`java` → `java.exe` on Windows). */
export function executableName(name: string, platform: string): string {
  return platform === "win32" ? `${name}.exe` : name;
}
