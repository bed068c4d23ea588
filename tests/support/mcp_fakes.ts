/**
 * Plain fakes of the ports the MCP server uses (device observer, evidence store, lock, audit log), each
 * recording what it was asked, for contract tests that assert whole envelopes. No disk, no adb.
 */
import { createPendingEvidence } from "../../src/mcp/pending_evidence.ts";
import type { EvidenceRef } from "../../src/ports/evidence.ts";
import type { AppiumSessionNote, AuditRecord, DeviceLock, EvidenceStore } from "../../src/ports/evidence.ts";
import type { DeviceObserver, DeviceStatus, TreeCapture, WaitOptions } from "../../src/ports/device.ts";
import { HarnessError } from "../../src/errors.ts";
import type { UiSessions } from "../../src/ports/ui_sessions.ts";
import type { ScreenRecordings } from "../../src/ports/screen_recording.ts";
import type { AppPackages } from "../../src/ports/app_packages.ts";
import type { OperationDeps } from "../../src/mcp/run_operation.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import type { Clock } from "../../src/ports/clock.ts";
import { silentLogger } from "./silent_logger.ts";

export const FAKE_UDID = "emulator-5554";

export const FAKE_STATUS: DeviceStatus = {
  udid: FAKE_UDID,
  online: true,
  model: "sdk_gphone64_x86_64",
  api_level: 34,
  screen: { width: 1080, height: 2400, density: 420 },
  foreground_package: "com.android.settings",
  keyboard_open: false,
};

export const FAKE_XML = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
  `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">` +
  `<node index="0" text="Network &amp; internet" resource-id="" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,300][1080,500]" />` +
  `<node index="1" text="" resource-id="com.android.settings:id/search" class="android.widget.EditText" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,100][1080,250]" />` +
  `</node></hierarchy>`;

/** A 4×2 RGB PNG, red row over blue row (encoded once with upng-js, palette forbidden). */
export const FAKE_PNG = Uint8Array.from(Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAAXNSR0IB2cksfwAAABFJREFUeJxj+M/AAEcMSOz/AGeyB/kmOOOPAAAAAElFTkSuQmCC",
  "base64",
));

export interface FakeObserver extends DeviceObserver {
  adbServer: string;
  calls: string[];
  /** Replace to make the next calls fail or hang. */
  behaviour: {
    resolve?: () => Promise<string>;
    status?: () => Promise<DeviceStatus>;
    tree?: () => Promise<TreeCapture>;
    screenshot?: (wait: WaitOptions) => Promise<Uint8Array>;
    packages?: () => Promise<string[]>;
  };
  lastWait?: WaitOptions;
}

export function fakeObserver(): FakeObserver {
  const observer: FakeObserver = {
    udid: FAKE_UDID,
    adbServer: "tcp:127.0.0.1:5037",
    calls: [],
    behaviour: {},
    /** The fake has one device: bound or not, it is the same recording observer. */
    bind() {
      return observer;
    },
    async resolveDevice() {
      observer.calls.push("resolveDevice");
      return { udid: observer.behaviour.resolve ? await observer.behaviour.resolve() : FAKE_UDID, devices: null };
    },
    async devices() {
      observer.calls.push("devices");
      return { online: [{ udid: FAKE_UDID, model: FAKE_STATUS.model }], default: FAKE_UDID };
    },
    async status(wait) {
      observer.calls.push("status");
      observer.lastWait = wait;
      return observer.behaviour.status ? observer.behaviour.status() : { ...FAKE_STATUS, screen: { ...FAKE_STATUS.screen } };
    },
    async captureTree(wait) {
      observer.calls.push("captureTree");
      observer.lastWait = wait;
      if (observer.behaviour.tree) return observer.behaviour.tree();
      return {
        xml: FAKE_XML,
        screen: { width: 1080, height: 2400, density: 420 },
        keyboard: { open: false },
        foregroundPackage: "com.android.settings",
      };
    },
    async screenContext(wait) {
      observer.calls.push("screenContext");
      observer.lastWait = wait;
      const { xml: _xml, ...context } = observer.behaviour.tree ? await observer.behaviour.tree() : {
        xml: FAKE_XML,
        screen: { width: 1080, height: 2400, density: 420 },
        keyboard: { open: false },
        foregroundPackage: "com.android.settings",
      };
      return context;
    },
    async screenshot(wait) {
      observer.calls.push("screenshot");
      observer.lastWait = wait;
      return observer.behaviour.screenshot ? observer.behaviour.screenshot(wait) : FAKE_PNG;
    },
    async listPackages(query, wait) {
      observer.calls.push(`listPackages ${JSON.stringify(query)}`);
      observer.lastWait = wait;
      if (observer.behaviour.packages) return observer.behaviour.packages();
      const all = ["com.example.notes", "com.android.settings", "com.example.login"];
      return all.filter((p) => (query.includeSystem || p.startsWith("com.example")) && (!query.filter || p.includes(query.filter))).sort();
    },
  };
  return observer;
}

export interface FakeEvidence extends EvidenceStore {
  /** Every PNG stored, in order of its id (a reserved one holds no bytes until it is filled). */
  saved: { tool: string; bytes: Uint8Array | undefined; kind?: "mp4" }[];
  failNext?: HarnessError;
}

export function fakeEvidence(directory = "/artifacts"): FakeEvidence {
  const nameAt = (i: number) =>
    `20261129-231622-${String(282674 + i).padStart(6, "0")}-${store.saved[i]!.tool.replaceAll("_", "-")}.${store.saved[i]!.kind ?? "png"}`;
  const failure = () => {
    const error = store.failNext;
    delete store.failNext;
    return error;
  };
  const store: FakeEvidence = {
    directory,
    saved: [],
    async savePng(tool, png) {
      const error = failure();
      if (error) throw error;
      store.saved.push({ tool, bytes: png });
      return refFor(directory, nameAt(store.saved.length - 1));
    },
    async saveVideo(tool, mp4) {
      const error = failure();
      if (error) throw error;
      store.saved.push({ tool, bytes: mp4, kind: "mp4" });
      return refFor(directory, nameAt(store.saved.length - 1));
    },
    async reservePng(tool) {
      store.saved.push({ tool, bytes: undefined });
      return refFor(directory, nameAt(store.saved.length - 1));
    },
    async savePngAs(ref, capture) {
      const png = await capture;
      const index = store.saved.findIndex((_, i) => nameAt(i) === ref.artifact_id);
      const error = failure();
      if (error || index === -1) throw error ?? new HarnessError("EVIDENCE_WRITE_FAILED", `${ref.artifact_id} was not reserved`);
      store.saved[index]!.bytes = png;
    },
    async resolve(id) {
      const index = store.saved.findIndex((_, i) => nameAt(i) === id);
      const bytes = store.saved[index]?.bytes;
      const mimeType = id.endsWith(".mp4") ? "video/mp4" as const : "image/png" as const;
      return bytes === undefined ? null : { path: `${directory}/${id}`, bytes, mimeType };
    },
    async listRecent(limit) {
      return store.saved.flatMap((slot, i) => slot.bytes === undefined ? [] : [refFor(directory, nameAt(i))]).reverse().slice(0, limit);
    },
  };
  return store;
}

function refFor(directory: string, id: string): EvidenceRef {
  return { artifact_id: id, path: `${directory}/${id}`, uri: `artifact://${id}` };
}

export interface FakeLock extends DeviceLock {
  /** Held devices as `adbServer udid`. */
  held: Set<string>;
  acquisitions: number;
  releases: number;
  /** What the holders wrote into the lock (a UI session's expiry and the session a takeover would end). */
  notes: { expiresAt: string; appium?: AppiumSessionNote }[];
}

export function fakeLock(): FakeLock {
  const lock: FakeLock = {
    held: new Set(),
    acquisitions: 0,
    releases: 0,
    notes: [],
    async acquire(device, owner) {
      const { udid } = device;
      const key = `${device.adbServer} ${udid}`;
      if (lock.held.has(key)) {
        throw new HarnessError("EMULATOR_BUSY", `Device ${udid} is busy with another operation; retry when it finishes.`, { udid });
      }
      lock.held.add(key);
      lock.acquisitions++;
      void owner;
      return {
        release: async () => {
          lock.held.delete(key);
          lock.releases++;
        },
        noteSessionExpiry: async (expiresAt, appium) => void lock.notes.push({ expiresAt, ...(appium === undefined ? {} : { appium }) }),
      };
    },
  };
  return lock;
}

export interface FakeWorld {
  deps: OperationDeps;
  observer: FakeObserver;
  evidence: FakeEvidence;
  lock: FakeLock;
  audit: AuditRecord[];
}

/** Operation ids are deterministic: 00000000-0000-4000-8000-00000000000N. `clock`: the system clock unless given. */
export function fakeWorld(options: { actionTimeoutMs?: number; clock?: Clock } = {}): FakeWorld {
  const clock = options.clock ?? createSystemClock();
  const observer = fakeObserver();
  const evidence = fakeEvidence();
  const lock = fakeLock();
  const audit: AuditRecord[] = [];
  let next = 0;
  const deps: OperationDeps = {
    // Observe tools never open a UI session: hands that refuse prove it.
    ports: { observer, evidence, ui: noHands, clock, apps: noApps, recordings: noRecordings },
    lock,
    audit: { append: async (record) => void audit.push(record) },
    clock,
    logger: silentLogger,
    actionTimeoutMs: options.actionTimeoutMs ?? 5_000,
    newOperationId: () => operationId(++next),
    pending: createPendingEvidence({ clock, logger: silentLogger }),
  };
  return { deps, observer, evidence, lock, audit };
}

/** An AppPackages port for observe-only worlds: any use is a test failure. */
export const noApps: AppPackages = {
  prepare: () => Promise.reject(new Error("an observe tool asked to prepare an APK")),
  install: () => Promise.reject(new Error("an observe tool asked to install an APK")),
  uninstall: () => Promise.reject(new Error("an observe tool asked to uninstall a package")),
};

/** Screen recordings for worlds that record nothing: any use is a test failure. */
export const noRecordings: ScreenRecordings = {
  start: () => Promise.reject(new Error("a tool asked to start a screen recording")),
  stop: () => Promise.reject(new Error("a tool asked to stop a screen recording")),
  running: () => [],
};

/** A UiSessions port for observe-only worlds: holds no session, and any use is a test failure. */
export const noHands: UiSessions = {
  handle: (udid, sessionId) => ({
    udid,
    sessionId,
    withDriver: () => Promise.reject(new Error("an observe tool asked for a UI session")),
    heldDriver: () => null,
    open: () => Promise.reject(new Error("an observe tool asked for a UI session")),
  }),
  udidOf: () => null,
  describe: () => null,
  close: () => Promise.reject(new Error("an observe tool asked for a UI session")),
};

export function operationId(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
}
