/**
 * What running one shell/exec command on the simulated device produces, for the adb server to send:
 * a finished command (stdout, stderr, exit code), a hang (never answers), a streamed install that
 * first consumes N bytes of input, or a blocking command (`am instrument -w`) that ends later (`started` once it
 * runs: the adb server calls it after the latency profile's instrumentation start; `hangUp` when the client closes the
 * connection first: adbd hangs up the command, SIGHUP, which `screenrecord` catches to finish its file).
 */
export type ShellOutcome =
  | { kind: "exit"; stdout: Uint8Array; stderr: string; code: number }
  | { kind: "hang" }
  | { kind: "install"; bytes: number }
  | { kind: "block"; stdout: string; ended: Promise<string>; started?: () => void; hangUp?: () => void };

const encoder = new TextEncoder();

export function exit(stdout: string | Uint8Array = "", stderr = "", code = 0): ShellOutcome {
  return { kind: "exit", stdout: typeof stdout === "string" ? encoder.encode(stdout) : stdout, stderr, code };
}

/** `/system/bin/sh: NAME: inaccessible or not found` with exit 127, as the device's mksh prints it. */
export function notFound(name: string): ShellOutcome {
  return exit("", `/system/bin/sh: ${name}: inaccessible or not found\n`, 127);
}
