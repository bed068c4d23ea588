/**
 * The soak section: one `serve` process answers a long run of mixed calls (observe, acts with and without an
 * explicit session, refusals) on one simulated device. Reported: the server's RSS after warm-up and at the
 * end. Checked: after every call the device holds at most the warm session, the one the lock names (so one
 * session served the whole soak, leases included, unless one was ended), every evidence file is named
 * by exactly one envelope and whole (so evidence count = acts and screenshots that succeeded + misses that
 * carry a screenshot), one audit line per call.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { ToolCallParams } from "./invariants.ts";
import { Lane } from "./lane.ts";
import type { Tally } from "./tally.ts";

const ACTS = new Set(["app_launch", "settings_open", "ui_tap", "ui_type_text", "ui_scroll", "device_back", "ui_session_open"]);

/**
 * The mix, in a fixed rotation of 20: mostly observing, one act in five (a tap into Network & internet and
 * back up, a scroll down and up, Settings brought to the front), refusals, and once every 100 calls a tap on
 * nothing (UI_ELEMENT_NOT_FOUND after its 5 s wait, with a screenshot).
 */
function callAt(i: number, sessionId: string | null): ToolCallParams {
  const withSession = (args: Record<string, unknown>) => (sessionId === null ? args : { ...args, session_id: sessionId });
  const round = Math.floor(i / 20);
  const rotation: ToolCallParams[] = [
    { name: "ui_get_tree", arguments: {} },
    { name: "device_status", arguments: {} },
    { name: "ui_tap", arguments: withSession({ selector: { text: "Network & internet" } }) },
    { name: "app_list", arguments: { include_system: round % 2 === 0 } },
    { name: "ui_get_tree", arguments: { include_raw: round % 5 === 0 } },
    { name: "ui_screenshot", arguments: {} },
    { name: "ui_tap", arguments: withSession({ selector: { content_desc: "Navigate up" } }) },
    { name: "ui_tap", arguments: { selector: { x: 540, y: 1200 } } },
    { name: "device_status", arguments: {} },
    { name: "app_list", arguments: { filter: "example" } },
    { name: "ui_scroll", arguments: withSession({ direction: "down" }) },
    { name: "ui_get_tree", arguments: {} },
    { name: "app_launch", arguments: { package: "com.example.notes;reboot" } },
    { name: "ui_scroll", arguments: withSession({ direction: "up" }) },
    { name: "app_list", arguments: {} },
    round % 5 === 0
      ? { name: "ui_tap", arguments: withSession({ selector: { text: "No such button" } }) }
      : { name: "ui_screenshot", arguments: {} },
    { name: "ui_get_tree", arguments: {} },
    { name: "ui_type_text", arguments: withSession({ selector: { text: "Apps" }, text: "x\u0000" }) },
    { name: "device_status", arguments: {} },
    { name: "settings_open", arguments: withSession({}) },
  ];
  return rotation[i % rotation.length]!;
}

export async function runSoak(options: { calls: number }, tally: Tally): Promise<void> {
  const started = performance.now();
  const before = { calls: tally.callsMade, inputs: tally.inputsTried };
  const lane = await Lane.open({ name: "soak", actionTimeoutS: 30, idleTimeoutS: 60, checkBetweenCalls: true });
  try {
    const sessionsAtStart = await lane.sessions();
    const from = lane.sim.device.log.length;
    let sessionId: string | null = null;
    let startKb = 0;
    let peakKb = 0;
    const outcome = { acts: 0, actsWithEvidence: 0, shots: 0, misses: 0 };
    for (let i = 0; i < options.calls; i++) {
      if (i === 20) startKb = rssKb(lane.server.pid!);
      if (i % 25 === 0) peakKb = Math.max(peakKb, rssKb(lane.server.pid!));
      // Every 100 calls, an explicit session for the next 50.
      if (i % 100 === 0) sessionId = null;
      if (i % 100 === 50) {
        const opened = await lane.call({ name: "ui_session_open", arguments: {} }, tally);
        tally.inputsTried++;
        if (opened.kind === "envelope" && opened.envelope.ok) sessionId = opened.envelope.data["session_id"] as string;
      }
      if (i % 100 === 99 && sessionId !== null) {
        await lane.call({ name: "ui_session_close", arguments: { session_id: sessionId } }, tally);
        tally.inputsTried++;
        sessionId = null;
      }
      const params = callAt(i, sessionId);
      tally.inputsTried++;
      const answer = await lane.call(params, tally);
      if (answer.kind !== "envelope") continue;
      const e = answer.envelope;
      if (e.ok && ACTS.has(e.tool)) outcome.acts++;
      if (e.ok && ACTS.has(e.tool) && e.evidence !== null) outcome.actsWithEvidence++;
      if (e.ok && e.tool === "ui_screenshot") outcome.shots++;
      if (!e.ok && e.evidence !== null) outcome.misses++;
      if (e.ok && ACTS.has(e.tool) && e.tool !== "ui_session_open" && e.evidence === null) {
        tally.violation("lost evidence", `soak: a successful ${e.tool} named no evidence`);
      }
      if (!e.ok && !["UI_ELEMENT_NOT_FOUND", "INVALID_SELECTOR", "INVALID_PACKAGE", "INVALID_TEXT"].includes(e.error!.code)) {
        tally.violation("wrong fault outcome", `soak: ${describe(params)} answered ${e.error!.code}: ${e.error!.message}`);
      }
    }
    if (sessionId !== null) await lane.call({ name: "ui_session_close", arguments: { session_id: sessionId } }, tally);
    const endKb = rssKb(lane.server.pid!);
    tally.rss = { startKb, endKb, peakKb: Math.max(peakKb, endKb), calls: options.calls };
    const sessionsAtEnd = await lane.sessions();
    const files = readdirSync(lane.home.artifacts).filter((n) => n.endsWith(".png")).length;
    const named = lane.evidence.size;
    if (files !== named) tally.violation("lost evidence", `soak: ${files} evidence file(s), ${named} named by envelopes`);
    const expected = outcome.actsWithEvidence + outcome.shots + outcome.misses;
    if (files !== expected) {
      tally.violation(
        "lost evidence",
        `soak: ${files} evidence file(s) for ${outcome.actsWithEvidence} successful acts + ${outcome.shots} screenshots + ${outcome.misses} misses`,
      );
    }
    const auditLines = readFileSync(`${lane.home.artifacts}/audit.jsonl`, "utf8").split("\n").filter(Boolean).length;
    tally.figure(
      `soak: ${options.calls} mixed calls; ${outcome.acts} successful acts (each with evidence but ui_session_open), ` +
        `${outcome.shots} screenshots, ${outcome.misses} misses with a screenshot → ${files} evidence files, ${named} named; ` +
        `${auditLines} audit lines for ${lane.operations.size} operations; UiAutomator2 sessions listed ${sessionsAtStart} at the start, ` +
        `${sessionsAtEnd} at the end (the warm one), ${newSessions(lane, from)} started in all`,
    );
    await lane.finish(tally);
  } catch (error) {
    tally.violation("campaign errors", `soak: ${(error as Error).stack ?? String(error)}`);
    await lane.dispose();
  } finally {
    tally.section("soak", tally.callsMade - before.calls, tally.inputsTried - before.inputs, (performance.now() - started) / 1000);
  }
}

/** Resident set size of a process in kB (Linux /proc; 0 elsewhere). */
function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function describe(params: ToolCallParams): string {
  return `${String(params.name)}(${JSON.stringify(params.arguments)})`;
}

/** How many sessions the device was asked to start since log entry `from`. */
function newSessions(lane: Lane, from: number): number {
  return lane.sim.device.log.slice(from).filter((e) => e.source === "uia2" && e.command === "new session").length;
}
