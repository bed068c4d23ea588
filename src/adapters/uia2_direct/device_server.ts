/**
 * The on-device UiAutomator2 server of the direct backend, per device, as the Appium driver runs it
 * (`appium-uiautomator2-driver` 8.7, `uiautomator2-server/core.js`) but with the harness's own fixed adb commands:
 * the installed versions checked once per device (install_state.ts; the APKs installed when missing or older,
 * both uninstalled first for a half or foreign pair, a package whose signature differs uninstalled and installed
 * again), a free local port forwarded to the device's 6790, leftovers of a dead owner ended (its sessions deleted,
 * both packages force-stopped), `am instrument -w -e disableAnalytics true …` started as a long-lived adb child
 * (ended through its AbortSignal: the process runner kills it by process group), and `/status` polled until it
 * answers (at most `launchTimeoutMs`; at once a failure when the instrumentation exits first). The server quits
 * when its session is deleted, so `start` starts it again whenever the instrumentation is no longer running.
 * `stop` ends every instrumentation, force-stops both packages and removes the forwards. Progress goes to `report`
 * (the factory's listener: MCP progress or stderr); the first install on a device says what was installed and
 * how to remove it. Failures are HarnessError APPIUM_UNAVAILABLE (install, start) or the adb client's own.
 */
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import { ADB_COMMANDS } from "../adb/adb_commands.ts";
import type { AdbClient } from "../adb/adb_client.ts";
import { streamInstall } from "../adb/install_apk.ts";
import { installPlan, parseDumpsysPackage, parsePackageNames, serverState } from "./install_state.ts";
import {
  INSTRUMENTATION,
  SERVER_DEVICE_PORT,
  SERVER_PACKAGE,
  SERVER_VERSION,
  type ServerApks,
  TEST_PACKAGE,
  uninstallCommand,
} from "./server_package.ts";

/** What the server is doing while a first act waits for it. */
export type StartProgress =
  | { step: "checking" | "forwarding" | "starting" | "waiting"; message: string }
  | { step: "installing"; message: string; bytes: number }
  | { step: "installed"; message: string };

export interface DeviceServerOptions {
  adb: AdbClient;
  clock: Clock;
  /** The two APK files (for the single executable: extracted from the binary on first use). */
  apks: () => Promise<ServerApks & { bytes: { server: number; test: number } }>;
  /** How long `/status` may take to answer after the instrumentation starts (the driver's default: 30 s). */
  launchTimeoutMs?: number;
  /** A GET with a deadline, for `/status` and `/sessions` (never throws: null when nothing answered). */
  get: (url: string, timeoutMs: number, signal?: AbortSignal) => Promise<{ status: number; body: string } | null>;
  /** Deletes one session of a dead owner (bounded; failures ignored). */
  deleteSession: (url: string) => Promise<void>;
}

export interface StartOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  report?: (progress: StartProgress) => void;
}

export interface DeviceServers {
  /** The server's base URL on this machine (`http://127.0.0.1:PORT`), started (and installed) when needed. */
  start(serial: string, options: StartOptions): Promise<string>;
  /** Marks the device's instrumentation as gone (its server no longer answers): the next `start` starts it again. */
  forget(serial: string): void;
  /** Ends every instrumentation the harness started, force-stops both packages, removes the forwards. */
  stop(): Promise<void>;
}

interface Running {
  baseUrl: string;
  localPort: number;
  /** Aborting it kills the `adb shell am instrument` child. */
  instrumentation: AbortController;
  exited: boolean;
  ended: Promise<void>;
}

const LAUNCH_TIMEOUT_MS = 30_000;
const STATUS_POLL_MS = 500;
/** The instrumentation runs until stopped: its adb child has no deadline of its own. */
const INSTRUMENTATION_LIMIT_MS = 2_147_483_647; // the largest timer Node accepts (24.8 days)

export function createDeviceServers(options: DeviceServerOptions): DeviceServers {
  const checked = new Set<string>();
  const forwards = new Map<string, number>();
  const running = new Map<string, Running>();
  const starting = new Map<string, Promise<string>>();
  const launchTimeoutMs = options.launchTimeoutMs ?? LAUNCH_TIMEOUT_MS;
  const adb = options.adb;

  const text = async (serial: string, command: Parameters<AdbClient["text"]>[0], start: StartOptions) =>
    await adb.text(command, { serial, timeoutMs: start.timeoutMs, ...(start.signal === undefined ? {} : { signal: start.signal }) });

  async function ensureInstalled(serial: string, start: StartOptions): Promise<void> {
    if (checked.has(serial)) return;
    start.report?.({ step: "checking", message: `checking the UiAutomator2 server on ${serial}` });
    const [listed, dumped] = await Promise.all([
      text(serial, ADB_COMMANDS.listPackagesMatching(SERVER_PACKAGE), start),
      text(serial, ADB_COMMANDS.dumpsysPackage(SERVER_PACKAGE), start),
    ]);
    const plan = installPlan(
      serverState(parseDumpsysPackage(dumped, SERVER_PACKAGE), SERVER_VERSION),
      parsePackageNames(listed).has(TEST_PACKAGE),
    );
    if (plan.uninstallFirst) {
      for (const pkg of [TEST_PACKAGE, SERVER_PACKAGE]) await uninstall(serial, pkg, start);
    }
    if (plan.install) {
      const apks = await options.apks();
      await installOne(serial, SERVER_PACKAGE, apks.server, apks.bytes.server, start);
      await installOne(serial, TEST_PACKAGE, apks.test, apks.bytes.test, start);
      start.report?.({
        step: "installed",
        message: `installed the UiAutomator2 server ${SERVER_VERSION.name} (${SERVER_PACKAGE}, ${TEST_PACKAGE}) on ${serial}; ` +
          `remove it with: ${uninstallCommand(serial)}`,
      });
    }
    checked.add(serial);
  }

  async function uninstall(serial: string, pkg: string, start: StartOptions): Promise<void> {
    await adb.run(ADB_COMMANDS.uninstall(pkg), { serial, timeoutMs: start.timeoutMs, ...(start.signal ? { signal: start.signal } : {}) });
  }

  async function installOne(serial: string, pkg: string, path: string, bytes: number, start: StartOptions): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      start.report?.({ step: "installing", message: `installing ${pkg} on ${serial} (${megabytes(bytes)})`, bytes });
      const said = await streamInstall(adb, serial, path, start);
      if (said === null) return;
      // Another build of the package, signed with another key: only a fresh install replaces it (its data goes).
      if (attempt === 0 && /INSTALL_FAILED_UPDATE_INCOMPATIBLE|signatures do not match/i.test(said)) {
        await uninstall(serial, pkg, start);
        continue;
      }
      throw new HarnessError(
        "APPIUM_UNAVAILABLE",
        `Installing ${pkg} on ${serial} failed: ${firstLine(said)}. Free some space on the device or install it by hand ` +
          `(adb -s ${serial} install -r ${path}), then retry.`,
        { package: pkg, apk: path },
      );
    }
  }

  async function forwardPort(serial: string, start: StartOptions): Promise<number> {
    const known = forwards.get(serial);
    if (known !== undefined) return known;
    start.report?.({ step: "forwarding", message: `forwarding a local port to ${serial}'s tcp:${SERVER_DEVICE_PORT}` });
    const said = (await text(serial, ADB_COMMANDS.forwardFreePort(SERVER_DEVICE_PORT), start)).trim();
    const port = /^\d{1,5}$/.test(said) ? Number(said) : NaN;
    if (!(port >= 1 && port <= 65535)) {
      throw new HarnessError(
        "APPIUM_UNAVAILABLE",
        `adb did not forward a port to ${serial} (it said "${firstLine(said)}"); check 'adb forward --list'.`,
      );
    }
    forwards.set(serial, port);
    return port;
  }

  /** Sessions and a server a dead owner left: ended as the driver's cleanupAutomationLeftovers does. */
  async function endLeftovers(serial: string, baseUrl: string, start: StartOptions): Promise<void> {
    const answer = await options.get(`${baseUrl}/sessions`, 500, start.signal);
    if (answer !== null && answer.status === 200) {
      const ids = sessionIds(answer.body);
      await Promise.all(ids.map((id) => options.deleteSession(`${baseUrl}/session/${encodeURIComponent(id)}`)));
    }
    for (const pkg of [SERVER_PACKAGE, TEST_PACKAGE]) await text(serial, ADB_COMMANDS.forceStop(pkg), start);
  }

  async function launch(serial: string, start: StartOptions): Promise<string> {
    await ensureInstalled(serial, start);
    const localPort = await forwardPort(serial, start);
    const baseUrl = `http://127.0.0.1:${localPort}`;
    await endLeftovers(serial, baseUrl, start);
    start.report?.({ step: "starting", message: `starting the UiAutomator2 server on ${serial} (am instrument)` });
    const instrumentation = new AbortController();
    const entry: Running = { baseUrl, localPort, instrumentation, exited: false, ended: Promise.resolve() };
    entry.ended = adb.run(ADB_COMMANDS.instrument(INSTRUMENTATION), {
      serial,
      timeoutMs: INSTRUMENTATION_LIMIT_MS,
      signal: instrumentation.signal,
    }).then(() => {}, () => {}).finally(() => {
      entry.exited = true;
    });
    running.set(serial, entry);
    try {
      await waitForStatus(serial, entry, start);
    } catch (error) {
      instrumentation.abort();
      running.delete(serial);
      throw error;
    }
    return baseUrl;
  }

  async function waitForStatus(serial: string, entry: Running, start: StartOptions): Promise<void> {
    start.report?.({ step: "waiting", message: `waiting for the UiAutomator2 server on ${serial} to answer` });
    const began = options.clock.now();
    const limit = Math.min(launchTimeoutMs, start.timeoutMs);
    for (;;) {
      if (entry.exited) {
        throw new HarnessError(
          "APPIUM_UNAVAILABLE",
          `The UiAutomator2 server's instrumentation on ${serial} ended before it answered. Check 'adb -s ${serial} logcat' ` +
            `for io.appium.uiautomator2, or reinstall it (${uninstallCommand(serial)}), then retry.`,
        );
      }
      const answer = await options.get(`${entry.baseUrl}/status`, 1000, start.signal);
      if (answer !== null && answer.status === 200) return;
      if (options.clock.now() - began >= limit) {
        throw new HarnessError(
          "APPIUM_UNAVAILABLE",
          `The UiAutomator2 server on ${serial} did not answer within ${Math.round(limit / 1000)} s of its start. ` +
            `Check that the device is unlocked and responsive, then retry.`,
        );
      }
      await options.clock.sleep(STATUS_POLL_MS, start.signal);
    }
  }

  return {
    start: async (serial, start) => {
      const alive = running.get(serial);
      if (alive !== undefined && !alive.exited) return alive.baseUrl;
      const pending = starting.get(serial);
      if (pending !== undefined) return await pending;
      const started = launch(serial, start).finally(() => starting.delete(serial));
      starting.set(serial, started);
      return await started;
    },
    forget: (serial) => {
      const entry = running.get(serial);
      if (entry === undefined) return;
      entry.instrumentation.abort();
      running.delete(serial);
    },
    stop: async () => {
      const ends = [...running.entries()].map(async ([serial, entry]) => {
        entry.instrumentation.abort();
        await entry.ended;
        for (const pkg of [SERVER_PACKAGE, TEST_PACKAGE]) {
          await adb.run(ADB_COMMANDS.forceStop(pkg), { serial, timeoutMs: 5000 }).catch(() => {});
        }
      });
      running.clear();
      await Promise.all(ends);
      const removals = [...forwards.entries()].map(([serial, port]) =>
        adb.run(ADB_COMMANDS.forwardRemove(port), { serial, timeoutMs: 5000 }).catch(() => {})
      );
      forwards.clear();
      await Promise.all(removals);
    },
  };
}

function sessionIds(body: string): string[] {
  try {
    const value = (JSON.parse(body) as { value?: unknown }).value;
    return Array.isArray(value) ? value.map((s) => (s as { id?: unknown })?.id).filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function firstLine(text: string): string {
  return text.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "no output";
}
