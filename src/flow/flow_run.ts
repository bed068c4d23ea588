/**
 * What a flow run produced on one device, as plain data: the input of every report writer (JSON, HTML,
 * JUnit) and of `--json`. A secret typed text (from the environment, into a password field, or never typed) never
 * appears: step args keep it as `{redacted_length: N}` (runner.ts), another is shown as typed; acts echo only `typed_length`; a URL (step args and app_open_url's `data.url`) keeps only its scheme,
 * host and path (`<redacted N chars>` for userinfo, query and fragment).
 */
import type { Envelope, Evidence } from "../../contracts/envelope.ts";
import type { FlowExitCode, FlowExpect, FlowOutcome } from "../../contracts/flow.ts";
import type { ScreenSummary } from "../screen/mod.ts";

export type StepOutcome = FlowOutcome | "skipped";

export interface StepRecord {
  /** 1-based, as progress and reports count. */
  index: number;
  tool: string;
  /** The step's arguments as written in the flow, a secret typed text and URLs redacted (the runner adds session_id). */
  args: Record<string, unknown>;
  expect?: FlowExpect;
  /** The expectation in words. */
  expected?: string;
  outcome: StepOutcome;
  /** Why the step did not pass, in one sentence. */
  reason?: string;
  /** The tool's answer; null for a step that never ran. */
  envelope: Envelope | null;
  duration_ms: number;
  evidence_id: string | null;
  /** The polling of the expectation: the final verdict, how long and how many readings. */
  expectation?: { met: boolean; unmet: string[]; waited_ms: number; readings: number };
  /** A reading of the screen that failed while polling (the device went away, …). */
  reading_error?: Envelope;
  /** The last screen the step saw: the expectation's last reading, else the act's own summary. */
  screen?: ScreenSummary;
}

export interface FlowFailure {
  outcome: FlowOutcome;
  reason: string;
  /** The failing step (absent when the flow failed before its steps: lock, session, device). */
  step?: number;
  tool?: string;
  expected?: string;
  /** What the screen offers, in one line (from the summary). */
  screen_offers?: string;
  screen?: ScreenSummary;
  /** A screenshot of the screen the flow failed on. */
  evidence?: Evidence | null;
}

export interface FlowRun {
  flow: { name: string; package_name: string; file?: string };
  device: { udid: string | null; adb_server: string; description: string; simulated: boolean };
  started_at: string;
  finished_at: string;
  duration_ms: number;
  outcome: FlowOutcome;
  exit_code: FlowExitCode;
  session: { session_id: string | null; closed: boolean; close_error?: string };
  steps: StepRecord[];
  failure?: FlowFailure;
  /** The run's screen recording (the flow's `record: true`): its (first) MP4 evidence, every segment's URI when there are
   * several, or why there is none. */
  recording?: { evidence: Evidence | null; seconds?: number; segments?: string[]; error?: string };
}
