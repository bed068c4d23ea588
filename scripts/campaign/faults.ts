/**
 * The faults section: each fault switched on through the simulated device (src/sim/sim_device.ts SimFaults)
 * or the environment, for observe and act tools: adb hangs, the device dropping mid-output and mid-action,
 * unauthorized, offline, dump failures, a one-colour screenshot, UiAutomator2 answering 500, the session dying
 * mid-flow, Appium down, the artifacts folder unwritable. Each must give its typed code (an act whose evidence
 * alone failed: ok with data.evidence_error, since the act took place), leave the device holding only what it may
 * between calls (the warm session and the lock naming it, or nothing), and the very next call must succeed once the
 * fault is cleared; no evidence may be half-written. The server keeps the warm device; before a call sent on another
 * server (Appium down) it is stopped normally (it must leave no session and no lock) and started again, since
 * another process meets a warm device's lock as EMULATOR_BUSY; so too before a dump fault (while warm, ui_get_tree
 * reads the session's page source, no dump). (A full disk is a write error like an unwritable
 * folder; ENOSPC itself is unit-tested.)
 */
import { renameSync, rmSync, writeFileSync } from "node:fs";
import type { ErrorCode } from "../../contracts/error_codes.ts";
import type { SimFaults } from "../../src/sim/mod.ts";
import { freePort } from "../../tests/support/outcomes.ts";
import type { SpawnedServer } from "../../tests/support/mcp_client.ts";
import type { ToolCallParams } from "./invariants.ts";
import { Lane } from "./lane.ts";
import type { Tally } from "./tally.ts";

interface FaultCase {
  name: string;
  call: ToolCallParams;
  /** "ok": the act took place and only its evidence failed (issue 18): answered ok with `data.evidence_error` of this code. */
  expect: readonly (ErrorCode | "ok")[];
  evidenceError?: ErrorCode;
  /**
   * The act's PNG, taken behind its answer, fails (of this code; "any" for a hang's): the answer is ok and names it,
   * and the next call on the device (device_status, sent while the fault is still on) says it in
   * `previous_evidence_error`.
   */
  evidenceBehindError?: ErrorCode | "any";
  /** Switches the fault on; returns what switches it off. */
  inject(lane: Lane, context: FaultContext): Promise<() => Promise<void> | void> | (() => Promise<void> | void);
  /** The fault stops the audit log too (its folder is unwritable): the call's line cannot exist. */
  auditLost?: boolean;
  /** Sent on another server process (e.g. one told a dead APPIUM_URL). */
  via?: (context: FaultContext) => SpawnedServer;
  /** Needs a device without the warm session: ui_get_tree reads the warm session's page source, not a dump. */
  cold?: boolean;
}

interface FaultContext {
  appiumDown: SpawnedServer;
}

const simFault = (faults: SimFaults) => (lane: Lane) => {
  lane.sim.device.setFaults(faults);
  return () => {
    lane.sim.device.setFaults({
      state: "device",
      hangCommands: [],
      blankScreencap: false,
      uia2Error500: false,
      dumpError: { kind: "null root node", count: 0 },
    });
    delete lane.sim.device.faults.offlineAfterOutputBytes;
    delete lane.sim.device.faults.offlineAfterRequests;
    delete lane.sim.device.faults.uia2SessionDiesAfter;
  };
};

const artifactsUnwritable = (lane: Lane) => {
  const aside = `${lane.home.artifacts}.aside`;
  renameSync(lane.home.artifacts, aside);
  writeFileSync(lane.home.artifacts, "a file where the artifacts folder was"); // root may write anywhere; a file in the way stops anyone
  return () => {
    rmSync(lane.home.artifacts, { force: true });
    renameSync(aside, lane.home.artifacts);
  };
};

const tap = { name: "ui_tap", arguments: { selector: { text: "Network & internet" } } };
const back = { name: "device_back", arguments: {} };

export const FAULT_CASES: readonly FaultCase[] = [
  {
    name: "adb hangs (screencap) · ui_screenshot",
    call: { name: "ui_screenshot", arguments: {} },
    expect: ["OPERATION_TIMEOUT"],
    inject: simFault({ hangCommands: ["screencap"] }),
  },
  {
    name: "adb hangs (uiautomator) · ui_get_tree",
    call: { name: "ui_get_tree", arguments: {} },
    expect: ["OPERATION_TIMEOUT"],
    inject: simFault({ hangCommands: ["uiautomator"] }),
    cold: true,
  },
  {
    name: "adb hangs (dumpsys) · device_status",
    call: { name: "device_status", arguments: {} },
    expect: ["OPERATION_TIMEOUT"],
    inject: simFault({ hangCommands: ["dumpsys"] }),
  },
  {
    name: "adb hangs (evidence screencap) · device_back",
    call: back,
    expect: ["ok"], // the back was done and answered before its PNG: the capture's hang is said in the next answer
    evidenceBehindError: "any",
    inject: simFault({ hangCommands: ["screencap"] }),
  },
  {
    name: "offline mid-output · app_list",
    call: { name: "app_list", arguments: { include_system: true } },
    expect: ["EMULATOR_UNAVAILABLE"],
    inject: simFault({ offlineAfterOutputBytes: 30 }),
  },
  {
    name: "offline mid-output · device_status",
    call: { name: "device_status", arguments: {} },
    expect: ["EMULATOR_UNAVAILABLE"],
    inject: simFault({ offlineAfterOutputBytes: 5 }),
  },
  {
    name: "offline mid-output · ui_screenshot",
    call: { name: "ui_screenshot", arguments: {} },
    expect: ["EMULATOR_UNAVAILABLE"],
    inject: simFault({ offlineAfterOutputBytes: 100 }),
  },
  {
    name: "offline mid-output (evidence) · ui_tap",
    call: tap,
    expect: ["EMULATOR_UNAVAILABLE"],
    inject: simFault({ offlineAfterOutputBytes: 60 }),
  },
  {
    name: "offline mid-action · ui_scroll",
    call: { name: "ui_scroll", arguments: { direction: "down" } },
    expect: ["EMULATOR_UNAVAILABLE"],
    inject: simFault({ offlineAfterRequests: 1 }),
  },
  {
    name: "unauthorized · device_status",
    call: { name: "device_status", arguments: {} },
    expect: ["EMULATOR_UNAVAILABLE"],
    inject: simFault({ state: "unauthorized" }),
  },
  { name: "unauthorized · ui_tap", call: tap, expect: ["EMULATOR_UNAVAILABLE"], inject: simFault({ state: "unauthorized" }) },
  {
    name: "offline · settings_open",
    call: { name: "settings_open", arguments: {} },
    expect: ["EMULATOR_UNAVAILABLE"],
    inject: simFault({ state: "offline" }),
  },
  {
    name: "dump fails (null root node) · ui_get_tree",
    call: { name: "ui_get_tree", arguments: {} },
    expect: ["UI_TREE_UNAVAILABLE"],
    inject: simFault({ dumpError: { kind: "null root node", count: 5 } }),
    cold: true,
  },
  {
    name: "one-colour screenshot · ui_screenshot",
    call: { name: "ui_screenshot", arguments: {} },
    expect: ["EVIDENCE_WRITE_FAILED"],
    inject: simFault({ blankScreencap: true }),
  },
  {
    name: "one-colour screenshot (evidence) · ui_scroll",
    call: { name: "ui_scroll", arguments: { direction: "up" } },
    expect: ["ok"],
    evidenceBehindError: "EVIDENCE_WRITE_FAILED",
    inject: simFault({ blankScreencap: true }),
  },
  { name: "UiAutomator2 answers 500 · ui_tap", call: tap, expect: ["APPIUM_UNAVAILABLE"], inject: simFault({ uia2Error500: true }) },
  {
    name: "UiAutomator2 answers 500 · app_launch",
    call: { name: "app_launch", arguments: { package: "com.example.notes" } },
    expect: ["APPIUM_UNAVAILABLE"],
    inject: simFault({ uia2Error500: true }),
  },
  {
    name: "session dies mid-flow · ui_tap",
    call: tap,
    expect: ["APPIUM_UNAVAILABLE", "SESSION_NOT_FOUND"],
    inject: simFault({ uia2SessionDiesAfter: 2 }),
  },
  {
    name: "session dies mid-flow · ui_scroll",
    call: { name: "ui_scroll", arguments: { direction: "down" } },
    expect: ["APPIUM_UNAVAILABLE", "SESSION_NOT_FOUND"],
    inject: simFault({ uia2SessionDiesAfter: 1 }),
  },
  { name: "Appium down · ui_tap", call: tap, expect: ["APPIUM_UNAVAILABLE"], inject: () => () => {}, via: (c) => c.appiumDown },
  {
    name: "Appium down · ui_session_open",
    call: { name: "ui_session_open", arguments: {} },
    expect: ["APPIUM_UNAVAILABLE"],
    inject: () => () => {},
    via: (c) => c.appiumDown,
  },
  {
    name: "artifacts unwritable · ui_screenshot",
    call: { name: "ui_screenshot", arguments: {} },
    expect: ["EVIDENCE_WRITE_FAILED"],
    inject: artifactsUnwritable,
    auditLost: true,
  },
  {
    name: "artifacts unwritable (evidence) · device_back",
    call: back,
    expect: ["ok"],
    evidenceError: "EVIDENCE_WRITE_FAILED",
    inject: artifactsUnwritable,
    auditLost: true,
  },
];

export async function runFaults(options: { rounds: number }, tally: Tally): Promise<void> {
  const started = performance.now();
  const before = { calls: tally.callsMade, inputs: tally.inputsTried };
  const lane = await Lane.open({ name: "faults", actionTimeoutS: 5, idleTimeoutS: 30 });
  const appiumDown = await lane.spawnSibling({ env: { APPIUM_URL: `http://127.0.0.1:${await freePort()}` } });
  const auditLost = new Set<string>();
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const fault of FAULT_CASES) {
        resetScreen(lane);
        tally.inputsTried++;
        tally.faultsInjected++;
        if ((fault.via !== undefined || fault.cold === true) && lane.lockHeld()) await lane.restart(tally, `before ${fault.name}`);
        const server = fault.via?.({ appiumDown }) ?? lane.server;
        const clear = await fault.inject(lane, { appiumDown });
        let answer;
        let said;
        try {
          answer = await lane.call(fault.call, tally, server);
          if (fault.evidenceBehindError !== undefined) said = await lane.call({ name: "device_status", arguments: {} }, tally, server);
        } finally {
          await clear();
        }
        if (fault.evidenceBehindError !== undefined && answer.kind === "envelope" && answer.envelope.ok) {
          const named = answer.envelope.evidence?.artifact_id;
          const next = said?.kind === "envelope"
            ? (said.envelope as { previous_evidence_error?: { artifact_id?: string; code?: string } }).previous_evidence_error
            : undefined;
          if (
            named === undefined || next?.artifact_id !== named ||
            (fault.evidenceBehindError !== "any" && next.code !== fault.evidenceBehindError)
          ) {
            tally.violation(
              "wrong fault outcome",
              `${fault.name}: the next answer did not say the failed capture of ${named ?? "(none named)"} (said ${
                JSON.stringify(next ?? null)
              })`,
            );
          }
        }
        const code = answer.kind === "envelope" ? answer.envelope.error?.code ?? "ok" : answer.kind;
        if (!(fault.expect as readonly string[]).includes(code)) {
          tally.violation(
            "wrong fault outcome",
            `${fault.name}: ${code} (expected ${fault.expect.join(" or ")})${
              answer.kind === "envelope" ? `: ${answer.envelope.error?.message ?? ""}` : ""
            }`,
          );
        }
        if (fault.evidenceError !== undefined && answer.kind === "envelope" && answer.envelope.ok) {
          const said = (answer.envelope.data["evidence_error"] as { code?: string } | undefined)?.code;
          // The act happened: an answer that hides the evidence failure, or names evidence, misleads the agent.
          if (said !== fault.evidenceError || answer.envelope.evidence !== null) {
            tally.violation(
              "wrong fault outcome",
              `${fault.name}: ok without evidence_error ${fault.evidenceError} (said ${said ?? "nothing"})`,
            );
          }
        }
        if (answer.kind === "envelope" && fault.auditLost === true) auditLost.add(answer.envelope.operation_id);
        if (answer.kind === "envelope" && !answer.envelope.ok && answer.envelope.evidence !== null && code !== "UI_ELEMENT_NOT_FOUND") {
          tally.violation("lost evidence", `${fault.name}: a failure named evidence ${answer.envelope.evidence.artifact_id}`);
        }
        await lane.checkLeftovers(tally, `${fault.name}: after the answer`);
        const next = await lane.call(fault.call, tally);
        if (next.kind !== "envelope" || !next.envelope.ok) {
          tally.violation(
            "wrong fault outcome",
            `${fault.name}: the next call after clearing the fault answered ${
              next.kind === "envelope" ? `${next.envelope.error?.code}: ${next.envelope.error?.message}` : next.kind
            }`,
          );
        }
        if (next.kind === "envelope" && next.envelope.ok && fault.call.name === "ui_session_open") {
          await lane.call({ name: "ui_session_close", arguments: { session_id: next.envelope.data["session_id"] } }, tally);
        }
        await lane.settleEvidence(tally); // the next fault is not injected into this call's capture behind its answer
      }
    }
    await appiumDown.close();
    const unnamed = await lane.finish(tally, { expectMissingAudit: auditLost });
    if (unnamed > 0) {
      tally.figure(`faults: ${unnamed} evidence PNG(s) written by work abandoned at a timeout (no envelope names them; each is whole)`);
    }
  } catch (error) {
    tally.violation("campaign errors", `faults: ${(error as Error).stack ?? String(error)}`);
    await appiumDown.close().catch(() => {});
    await lane.dispose();
  } finally {
    tally.section("faults", tally.callsMade - before.calls, tally.inputsTried - before.inputs, (performance.now() - started) / 1000);
  }
}

/** Settings' home screen in front, as each case expects (the device's own controls, not a harness call). */
function resetScreen(lane: Lane): void {
  lane.sim.device.forceStop("com.android.settings");
  lane.sim.device.launch("com.android.settings");
}
