/**
 * Starts the REAL Appium 3 server from the project's node_modules (with the UiAutomator2 driver as a
 * devDependency, no `appium driver install`) on 127.0.0.1 and a free port, with
 * ANDROID_HOME=/usr/lib/android-sdk and session discovery enabled, waits until GET /status answers,
 * and stops it by its PID (SIGTERM, then SIGKILL). Its output is kept for failure messages.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./outcomes.ts";
import { REPO_ROOT } from "./paths.ts";

export { freePort };

export const APPIUM_BIN = join(REPO_ROOT, "node_modules", ".bin", "appium");
export const ANDROID_HOME = "/usr/lib/android-sdk";

export interface RunningAppium {
  url: string;
  port: number;
  pid: number;
  /** Everything Appium printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/** Fails loudly (never skips) when Appium or adb is missing: CI has both, so a miss is a broken setup. */
function checkPrerequisites(): void {
  if (!existsSync(APPIUM_BIN)) throw new Error(`Appium is not installed at ${APPIUM_BIN}; run npm ci.`);
  if (!existsSync(join(ANDROID_HOME, "platform-tools", "adb"))) {
    throw new Error(`adb is not installed under ${ANDROID_HOME}; run apt-get install -y adb.`);
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

function killByPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

export async function startAppium(options: { timeoutMs?: number } = {}): Promise<RunningAppium> {
  checkPrerequisites();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ANDROID_HOME };
  delete env["APPIUM_HOME"];
  const child = spawn(APPIUM_BIN, [
    "--address",
    "127.0.0.1",
    "--port",
    String(port),
    "--allow-insecure=*:session_discovery",
    "--log-no-colors",
  ], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => void (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => void (output += d.toString()));
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${APPIUM_BIN}`);
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    killByPid(pid, "SIGTERM");
    const timer = setTimeout(() => killByPid(pid, "SIGKILL"), 5000);
    await exited(child);
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Appium exited with code ${child.exitCode}:\n${output}`);
      const ready = await fetch(`${url}/status`).then((r) => r.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`Appium did not answer GET /status within ${options.timeoutMs ?? 30_000} ms:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, pid, output: () => output, stop };
}
