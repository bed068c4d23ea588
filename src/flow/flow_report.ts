/**
 * The report of one `flow` invocation: the runs on every device (in the order given), the combined
 * outcome and exit code, and the meaning of that code. The JSON report is exactly this object; the HTML
 * and JUnit writers render it. Pure.
 */
import { FLOW_EXIT_MEANINGS, type FlowExitCode, type FlowOutcome } from "../../contracts/flow.ts";
import type { FlowRun } from "./flow_run.ts";
import { combinedOutcome, exitCodeOf } from "./step_outcome.ts";

export const FLOW_REPORT_FORMAT = "android-mcp-harness/flow-report";

export interface FlowReport {
  format: typeof FLOW_REPORT_FORMAT;
  version: 1;
  flow: { name: string; package_name: string; file?: string };
  outcome: FlowOutcome;
  exit_code: FlowExitCode;
  exit_meaning: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  /** One run per device. */
  runs: FlowRun[];
}

export function buildFlowReport(runs: readonly FlowRun[]): FlowReport {
  if (runs.length === 0) throw new Error("a flow report needs at least one run");
  const outcome = combinedOutcome(runs.map((r) => r.outcome));
  const started = runs.map((r) => r.started_at).sort()[0]!;
  const finished = runs.map((r) => r.finished_at).sort().at(-1)!;
  return {
    format: FLOW_REPORT_FORMAT,
    version: 1,
    flow: runs[0]!.flow,
    outcome,
    exit_code: exitCodeOf(outcome),
    exit_meaning: FLOW_EXIT_MEANINGS[outcome],
    started_at: started,
    finished_at: finished,
    duration_ms: Math.max(0, Date.parse(finished) - Date.parse(started)),
    runs: [...runs],
  };
}

export function renderJsonReport(report: FlowReport): string {
  return JSON.stringify(report, null, 2) + "\n";
}

/** The device's name in reports: its serial, else the harness's description. */
export function deviceName(run: FlowRun): string {
  return run.device.udid ?? run.device.description;
}
