/**
 * One campaign lane: a simulated device started here (so its command log can be read and its faults
 * switched), one compiled `serve` process on it over real stdio (ADB_SERVER_SOCKET, ANDROID_UDID and
 * APPIUM_URL pointing at the device's own adb and UiAutomator2 servers) with a private artifacts home, and
 * the MCP SDK client. `call` sends one tools/call as given and checks its answer and the device commands it
 * caused; the checks of the lane's end (audit lines, evidence files, sessions, lock) count what they find.
 * A lane's server keeps the warm device (the default: one UiAutomator2 session held between calls, its id in the
 * lock's note) unless the lane is `perAct` (ANDROID_MCP_WARM_IDLE_TIMEOUT=0: a session per act, nothing between calls).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir, platform } from "node:os";
import { join } from "node:path";
import * as z from "zod";
import { PACKAGE_NAME_PATTERN } from "../../contracts/tool_inputs.ts";
import { adbServerAddress } from "../../src/adapters/adb/adb_server_address.ts";
import { thisMachineHosts } from "../../src/adapters/adb/local_hosts.ts";
import { currentUserFacts, lockDirectory, lockFileName } from "../../src/adapters/evidence/mod.ts";
import { isCompleteMp4 } from "../../src/adapters/evidence/evidence_store.ts";
import { decodePng } from "../../src/png/mod.ts";
import { type RunningSim, type SimDeviceOptions, startSimDevice } from "../../src/sim/mod.ts";
import { type SpawnedServer, spawnServe } from "../../tests/support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../../tests/support/mcp_e2e.ts";
import {
  type Answer,
  classifyAnswer,
  commandsOutsideSlots,
  type Leftover,
  leftoversBetweenCalls,
  type LockNote,
  protocolErrorOverreach,
  type RawOutcome,
  refusalOverreach,
  type ToolCallParams,
} from "./invariants.ts";
import type { Tally } from "./tally.ts";

const LooseResult = z.looseObject({});

export interface LaneOptions {
  name: string;
  sim?: SimDeviceOptions;
  /** An already running device to share (load); default: a new one this lane stops. */
  shared?: RunningSim;
  actionTimeoutS?: number;
  idleTimeoutS?: number;
  /** One UiAutomator2 session per act (ANDROID_MCP_WARM_IDLE_TIMEOUT=0) instead of the warm device. */
  perAct?: boolean;
  /** After every call on the lane's own server, check what the device holds between calls (leftoversBetweenCalls, warm). */
  checkBetweenCalls?: boolean;
  env?: Record<string, string>;
}

type ServerOptions = Pick<LaneOptions, "actionTimeoutS" | "idleTimeoutS" | "perAct" | "env">;

export class Lane {
  readonly name: string;
  readonly sim: RunningSim;
  readonly home: ServeHome;
  server: SpawnedServer;
  readonly actionTimeoutMs: number;
  /** Operation ids of every envelope this lane's server answered (each must have one audit line). */
  readonly operations = new Set<string>();
  /** Evidence paths the envelopes named. */
  readonly evidence = new Set<string>();
  /** Whether the lane's server keeps the warm device between calls (not `perAct`). */
  readonly warm: boolean;
  /** The sessions the device listed when the lane opened (a shared device's, before any of its lanes called). */
  readonly sessionsBefore: ReadonlySet<string>;
  readonly #ownsSim: boolean;
  readonly #options: LaneOptions;

  private constructor(sim: RunningSim, home: ServeHome, server: SpawnedServer, before: ReadonlySet<string>, options: LaneOptions) {
    this.name = options.name;
    this.sim = sim;
    this.home = home;
    this.server = server;
    this.actionTimeoutMs = (options.actionTimeoutS ?? 20) * 1000;
    this.warm = options.perAct !== true;
    this.sessionsBefore = before;
    this.#ownsSim = options.shared === undefined;
    this.#options = options;
  }

  static async open(options: LaneOptions): Promise<Lane> {
    const sim = options.shared ?? await startSimDevice(options.sim ?? {});
    const home = makeServeHome();
    try {
      const before = new Set(await listSessions(sim));
      const server = await spawnServe([], laneEnv(sim, home, options));
      return new Lane(sim, home, server, before, options);
    } catch (error) {
      if (options.shared === undefined) await sim.stop();
      home.remove();
      throw error;
    }
  }

  /** Another `serve` process on the same device and home (a second process racing this one), the lane's own settings by default. */
  async spawnSibling(options: Omit<LaneOptions, "name" | "sim" | "shared"> = {}): Promise<SpawnedServer> {
    const { actionTimeoutS, idleTimeoutS, perAct, env } = this.#options;
    return spawnServe(
      [],
      laneEnv(this.sim, this.home, { actionTimeoutS, idleTimeoutS, perAct, ...options, env: { ...env, ...options.env } }),
    );
  }

  /**
   * Stops the lane's server normally (stdin closed) and checks it left no session and no lock (`label` says when),
   * then starts another on the same device and home.
   */
  async restart(tally: Tally, label: string): Promise<void> {
    await this.settleEvidence(tally);
    await this.server.close();
    await this.checkLeftovers(tally, `${label}: after a normal stop`, { warm: false });
    this.server = await this.spawnSibling();
  }

  /**
   * One cheap call on the device (device_status), which the gate lets through only once the last act's PNG, taken
   * behind its answer, is stored (or said failed): a stop right after never kills a capture under way on a loaded
   * machine, and the next fault is never injected into the previous call's capture.
   */
  async settleEvidence(tally: Tally): Promise<void> {
    await this.call({ name: "device_status", arguments: {} }, tally);
  }

  /** Sends one tools/call as given; checks the answer and every device command it caused; `violations` is how many this call found. */
  async call(params: ToolCallParams, tally: Tally, server: SpawnedServer = this.server): Promise<Answer & { violations: number }> {
    let violations = 0;
    const flag = (kind: Parameters<Tally["violation"]>[0], detail: string) => {
      violations++;
      tally.violation(kind, detail);
    };
    const frameBytes = frameSize(params);
    const from = this.sim.device.log.length;
    let outcome: RawOutcome;
    try {
      outcome = {
        result: await server.client.request({ method: "tools/call", params: params as { name: string } }, LooseResult, {
          timeout: this.actionTimeoutMs + 20_000,
        }),
      };
    } catch (error) {
      const e = error as { code?: unknown; message?: string };
      outcome = { error: { code: typeof e.code === "number" ? e.code : 0, message: e.message ?? String(error) } };
    }
    tally.callsMade++;
    const answer = classifyAnswer(params, outcome, frameBytes);
    if ("error" in outcome && !alive(server.pid)) {
      flag("crashes", `${this.name}: the server process exited (${outcome.error.message.slice(0, 200)})\n${server.stderr().slice(-600)}`);
      throw new Error(`${this.name}: the server is gone`);
    }
    const label = `${this.name} ${describeCall(params)}`;
    if (answer.kind === "timeout") flag("hangs", `${label}: no answer within ${this.actionTimeoutMs + 20_000} ms`);
    if (answer.kind === "bad") flag(/stack trace/.test(answer.why) ? "stack traces" : "untyped answers", `${label}: ${answer.why}`);
    const entries = this.sim.device.log.slice(from);
    const args = (typeof params.arguments === "object" && params.arguments !== null ? params.arguments : {}) as Record<string, unknown>;
    const pkg = args["package"];
    const slots = {
      packages: typeof pkg === "string" && PACKAGE_NAME_PATTERN.test(pkg) ? [pkg] : [],
      ...(params.name === "ui_type_text" && typeof args["text"] === "string" ? { typedText: args["text"] } : {}),
      ...(params.name === "app_open_url" && typeof args["url"] === "string" ? { url: args["url"] } : {}),
    };
    for (const wrong of commandsOutsideSlots(entries, slots)) flag("text outside its slot", `${label} → ${wrong}`);
    if (this.#options.checkBetweenCalls === true && server === this.server) {
      // The warm rule in both modes: a lease (ui_session_open) holds a session and the lock between calls per act too.
      const left = await this.leftovers({ warm: true });
      if (left !== null) flag(left.kind, `${label}: between calls: ${left.detail}`);
    }
    if (answer.kind === "envelope") {
      this.operations.add(answer.envelope.operation_id);
      if (answer.envelope.evidence !== null) this.evidence.add(answer.envelope.evidence.path);
      // An act's PNG is taken behind its answer: one that failed is said in the next answer on the device, and is
      // then no longer promised (its placeholder is removed).
      const failed = (answer.envelope as { previous_evidence_error?: { artifact_id?: string } }).previous_evidence_error;
      if (failed?.artifact_id !== undefined) {
        for (const path of this.evidence) if (path.endsWith(`/${failed.artifact_id}`)) this.evidence.delete(path);
      }
      const overreach = answer.envelope.error === null ? null : refusalOverreach(answer.envelope.error.code, entries);
      if (overreach !== null) {
        flag(
          "text outside its slot",
          `${label}: refused with ${answer.envelope.error!.code} yet the device received ${overreach.slice(0, 120)}`,
        );
      }
    }
    const protocolOverreach = answer.kind === "protocol error" ? protocolErrorOverreach(entries) : null;
    if (protocolOverreach !== null) {
      flag("text outside its slot", `${label}: a protocol error yet the device received ${protocolOverreach.slice(0, 120)}`);
    }
    return { ...answer, violations };
  }

  /** One audit line per envelope, each whole, bounded, and naming an operation this lane saw. */
  checkAudit(tally: Tally, expectMissing = new Set<string>()): void {
    const path = join(this.home.artifacts, "audit.jsonl");
    const lines = existsSync(path) ? readFileSync(path, "utf8").split("\n").filter((l) => l !== "") : [];
    const seen = new Set<string>();
    for (const line of lines) {
      if (Buffer.byteLength(line) > 8192) {
        tally.violation("audit lines missing or extra", `${this.name}: a ${Buffer.byteLength(line)}-byte audit line`);
      }
      try {
        const id = (JSON.parse(line) as { operation_id: string }).operation_id;
        if (seen.has(id)) tally.violation("audit lines missing or extra", `${this.name}: two lines for ${id}`);
        seen.add(id);
        if (!this.operations.has(id)) {
          tally.violation("audit lines missing or extra", `${this.name}: a line for ${id}, which no answer named`);
        }
      } catch {
        tally.violation("audit lines missing or extra", `${this.name}: an audit line that is not JSON: ${line.slice(0, 100)}`);
      }
    }
    for (const id of this.operations) {
      if (!seen.has(id) && !expectMissing.has(id)) tally.violation("audit lines missing or extra", `${this.name}: no audit line for ${id}`);
    }
  }

  /** Every named evidence file is a whole PNG (a screen recording a whole MP4); no draft is left; returns how many PNGs no
   * envelope named. */
  checkEvidence(tally: Tally): number {
    for (const path of this.evidence) {
      try {
        const bytes = new Uint8Array(readFileSync(path));
        if (path.endsWith(".mp4")) {
          if (!isCompleteMp4(bytes)) throw new Error(`not a complete MP4 (${bytes.length} bytes)`);
        } else decodePng(bytes);
      } catch (error) {
        tally.violation("lost evidence", `${this.name}: ${path}: ${(error as Error).message}`);
      }
    }
    if (!existsSync(this.home.artifacts) || !statSync(this.home.artifacts).isDirectory()) return 0;
    const names = readdirSync(this.home.artifacts);
    for (const name of names.filter((n) => n.endsWith(".draft"))) tally.violation("lost evidence", `${this.name}: a half-written ${name}`);
    return names.filter((n) => n.endsWith(".png") && !this.evidence.has(join(this.home.artifacts, n))).length;
  }

  /** Sessions the device's UiAutomator2 server lists (live or dead, not deleted). */
  async sessions(): Promise<number> {
    return (await listSessions(this.sim)).length;
  }

  /** Whether a lock file for this device is in the user's lock directory. */
  lockHeld(): boolean {
    return existsSync(lockPathOf(this.sim));
  }

  /** The device's lock file as its holder wrote it (null: none, or gone while read). */
  lockNote(): LockNote | null {
    try {
      return JSON.parse(readFileSync(lockPathOf(this.sim), "utf8")) as LockNote;
    } catch {
      return null;
    }
  }

  /**
   * What the device holds beyond what it may between calls (invariants.ts leftoversBetweenCalls; `warm`: the lane's
   * mode unless said), looked at again every 100 ms for up to `settleMs` while it is wrong (a deletion or a note in
   * flight when the answer went out: an idle expiry ends the session, then releases the lock). Null when all is well.
   */
  async leftovers(options: { warm?: boolean; settleMs?: number } = {}): Promise<Leftover | null> {
    const deadline = Date.now() + (options.settleMs ?? 1000);
    for (;;) {
      const left = leftoversBetweenCalls(await listSessions(this.sim), this.sessionsBefore, this.lockNote(), options.warm ?? this.warm);
      if (left === null || Date.now() >= deadline) return left;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Counts what `leftovers` finds (settling up to 3 s). */
  async checkLeftovers(tally: Tally, label: string, options: { warm?: boolean } = {}): Promise<void> {
    const left = await this.leftovers({ ...options, settleMs: 3000 });
    if (left !== null) tally.violation(left.kind, `${this.name} ${label}: ${left.detail}`);
  }

  /**
   * Stops the server gracefully (stdin closed: it deletes its sessions, the warm one too), then checks what it left:
   * audit lines, evidence, sessions on the device beyond those before the lane opened, its lock. Returns the PNGs no
   * envelope named. Then cleans up. `othersStopped`: the device's other lanes have stopped too (a shared device's
   * sessions and lock are judged by its last lane).
   */
  async finish(tally: Tally, options: { expectMissingAudit?: Set<string>; othersStopped?: boolean } = {}): Promise<number> {
    try {
      await this.settleEvidence(tally);
      await this.server.close();
      this.checkAudit(tally, options.expectMissingAudit);
      const unnamed = this.checkEvidence(tally);
      if (this.#ownsSim || options.othersStopped === true) await this.checkLeftovers(tally, "after the server stopped", { warm: false });
      return unnamed;
    } finally {
      await this.dispose();
    }
  }

  /** Stops the server (if running) and the device this lane started; removes the home. No checks. */
  async dispose(): Promise<void> {
    await this.server.close().catch(() => {});
    if (this.#ownsSim) await this.sim.stop().catch(() => {});
    this.home.remove();
  }
}

export function lockPathOf(sim: RunningSim): string {
  const directory = lockDirectory(currentUserFacts(platform(), homedir())).path;
  return join(directory, lockFileName({ adbServer: adbServerAddress(sim.adbServerSocket, thisMachineHosts()), udid: sim.device.serial }));
}

/** Sessions the device's UiAutomator2 server lists (live or dead, not deleted), by id. */
async function listSessions(sim: RunningSim): Promise<string[]> {
  const answer = await fetch(`${sim.appiumUrl}/appium/sessions`).then((r) => r.json()) as { value: { id: string }[] };
  return answer.value.map((s) => s.id);
}

function laneEnv(sim: RunningSim, home: ServeHome, options: ServerOptions): Record<string, string> {
  return {
    ...home.env,
    ADB_SERVER_SOCKET: sim.adbServerSocket,
    ANDROID_UDID: sim.device.serial,
    APPIUM_URL: sim.appiumUrl,
    ANDROID_MCP_ACTION_TIMEOUT: String(options.actionTimeoutS ?? 20),
    ANDROID_MCP_FLOW_IDLE_TIMEOUT: String(options.idleTimeoutS ?? 5),
    // The warm device is the default (serve's own, 300 s); a per-act lane keeps the other mode covered.
    ...(options.perAct === true ? { ANDROID_MCP_WARM_IDLE_TIMEOUT: "0" } : {}),
    ...options.env,
  };
}

function alive(pid: number | null): boolean {
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function frameSize(params: ToolCallParams): number {
  try {
    return Buffer.byteLength(JSON.stringify({ method: "tools/call", params, jsonrpc: "2.0", id: 0 }));
  } catch {
    return 0;
  }
}

/** A call for messages: the tool name and the start of the arguments. */
export function describeCall(params: ToolCallParams): string {
  let args: string;
  try {
    args = JSON.stringify(params.arguments) ?? "undefined";
  } catch {
    args = "(unserialisable)";
  }
  let name: string;
  try {
    name = typeof params.name === "string" ? params.name : JSON.stringify(params.name) ?? typeof params.name;
  } catch {
    name = "(unprintable name)"; // a generated name like {toString: …} that String() cannot convert
  }
  return `${name.slice(0, 40)}(${args.slice(0, 160)}${args.length > 160 ? `… ${args.length} chars` : ""})`;
}
