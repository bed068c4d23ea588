/**
 * Runs the REAL adb client against a fake adb server: `ADB_SERVER_SOCKET=tcp:127.0.0.1:PORT adb …`
 * (never `-P`, which would spawn a real daemon), spawned with an argument array and a timeout that
 * kills it. Tests skip visibly when no adb binary exists.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

export interface AdbRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export function findAdb(): string | null {
  const fromEnv = process.env["ADB"];
  if (fromEnv !== undefined && existsSync(fromEnv)) return fromEnv;
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir !== "" && existsSync(join(dir, "adb"))) return join(dir, "adb");
  }
  return null;
}

export const ADB = findAdb();
export const NO_ADB: string | false = ADB === null ? "no adb client installed (apt-get install -y adb)" : false;

export function adb(serverSocket: string, args: string[], options: { timeoutMs?: number; input?: Buffer } = {}): Promise<AdbRun> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ADB_SERVER_SOCKET: serverSocket };
    delete env["ANDROID_SERIAL"];
    delete env["ANDROID_ADB_SERVER_PORT"];
    const child = spawn(ADB!, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 10_000);
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
    child.stdin.end(options.input);
  });
}

export const text = (r: AdbRun) => r.stdout.toString("utf8");
