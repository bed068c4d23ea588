/**
 * Headless Debian Chromium for report tests: renders a local page to a PNG screenshot, or dumps its DOM
 * after loading. Each call gets a private profile directory (removed afterwards), runs in its own process
 * group and is killed by that group after 60 s. `chromiumSkipReason()` says why a test cannot run it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const CHROMIUM = process.env["CHROMIUM"] ?? "/usr/bin/chromium";

export function chromiumSkipReason(): string | false {
  return existsSync(CHROMIUM) ? false : `headless Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`;
}

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
  "--force-device-scale-factor=1",
];

/** The page at `htmlPath` as a PNG of exactly width × height pixels. */
export async function screenshotPage(htmlPath: string, size: { width: number; height: number }): Promise<Uint8Array> {
  const profile = mkdtempSync(join(tmpdir(), "amh-chromium-"));
  const out = join(profile, "page.png");
  try {
    await runChromium([
      ...FLAGS,
      `--user-data-dir=${profile}`,
      `--window-size=${size.width},${size.height}`,
      `--screenshot=${out}`,
      pathToFileURL(htmlPath).href,
    ]);
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The DOM of the page at `htmlPath` after it loaded, as Chromium serializes it. */
export async function dumpDom(htmlPath: string): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "amh-chromium-"));
  try {
    return await runChromium([...FLAGS, `--user-data-dir=${profile}`, "--dump-dom", pathToFileURL(htmlPath).href]);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The page's DOM after its scripts ran for `budgetMs` of virtual time (a video's events, timers). */
export async function dumpDomAfter(htmlPath: string, budgetMs: number): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), "amh-chromium-"));
  try {
    return await runChromium([
      ...FLAGS,
      `--user-data-dir=${profile}`,
      `--virtual-time-budget=${budgetMs}`,
      "--dump-dom",
      pathToFileURL(htmlPath).href,
    ]);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

function runChromium(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(CHROMIUM, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => killGroup(child.pid), 60_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid); // helpers it left behind
      if (code === 0) resolve(stdout);
      else {reject(
          new Error(
            `chromium exited ${code ?? signal}: ${stderr.split("\n").filter((l) => !/dbus|bus\.cc|object_proxy/.test(l)).join("\n")}`,
          ),
        );}
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}
