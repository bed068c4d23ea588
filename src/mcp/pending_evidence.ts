/**
 * Evidence captures still under way after their act answered (issue 24 item 6): an act's answer names its PNG at
 * once (`artifact://…`, reserved in the evidence store) while the screenshot of the settled screen is taken and
 * stored behind it. The gate tracks each capture here with the rest of its operation (the audit line, the device
 * lock, held until the PNG is stored), by device and by artifact id:
 * - the next operation on that device waits for the device's captures before it takes the lock (`settle`) and is
 *   told of a capture that failed (its answer's `previous_evidence_error`);
 * - an `artifact://` read of a pending PNG waits for it, at most ARTIFACT_READ_WAIT_MS (`awaitArtifact`);
 * - a flow waits for a step's capture before its report names the PNG (`outcome`), and a stop for all (`drain`).
 * Pure bookkeeping over promises and the clock; nothing here touches a device.
 */
import type { ErrorCode } from "../../contracts/error_codes.ts";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";

/** A capture that failed after its act answered: said once, in the next answer on that device and in the audit log. */
export interface EvidenceFailure {
  artifact_id: string;
  /** The act whose evidence it was, and its operation. */
  tool: string;
  operation_id: string;
  code: ErrorCode;
  message: string;
}

/** How long an `artifact://` read waits for a capture still under way before it is refused (read it again). */
export const ARTIFACT_READ_WAIT_MS = 15_000;
/** The most one capture behind an answer may take (at most half the action limit too): the next call waits for it. */
export const EVIDENCE_CAPTURE_LIMIT_MS = 15_000;

export type ArtifactState = "absent" | "stored" | "failed" | "pending";

export interface PendingEvidence {
  /** Tracks the rest of an operation on `device` (its capture, audit line, lock release); `done` never rejects. */
  track(device: string, artifactId: string, done: Promise<EvidenceFailure | null>): void;
  /** Waits for every capture on `device`, then answers the first failure not yet said (said from then on). */
  settle(device: string): Promise<EvidenceFailure | undefined>;
  /** An artifact read: whether the id's capture is under way after waiting at most `waitMs`, stored, failed, or not one of ours. */
  awaitArtifact(artifactId: string, waitMs: number): Promise<ArtifactState>;
  /** The capture's failure once it is done (null: stored, or not a capture this server tracked). */
  outcome(artifactId: string): Promise<EvidenceFailure | null>;
  /** Waits for every capture under way (a stop: nothing lost). */
  drain(): Promise<void>;
}

/** Failed ids are remembered (artifact reads say why) up to this many; the oldest go first. */
const REMEMBERED_FAILURES = 200;

export function createPendingEvidence(options: { clock: Clock; logger: Logger }): PendingEvidence {
  const { clock, logger } = options;
  const byDevice = new Map<string, Set<Promise<unknown>>>();
  const byArtifact = new Map<string, Promise<EvidenceFailure | null>>();
  const unsaid = new Map<string, EvidenceFailure[]>();
  const failed = new Map<string, EvidenceFailure>();
  return {
    track(device, artifactId, done) {
      const running = byDevice.get(device) ?? new Set();
      byDevice.set(device, running);
      const tracked = done.then((failure) => {
        running.delete(tracked);
        if (running.size === 0 && byDevice.get(device) === running) byDevice.delete(device);
        byArtifact.delete(artifactId);
        if (failure !== null) {
          logger.warn(`evidence ${failure.artifact_id} of ${failure.tool} (${failure.operation_id}) not stored: ${failure.message}`);
          unsaid.set(device, [...(unsaid.get(device) ?? []), failure]);
          failed.set(artifactId, failure);
          if (failed.size > REMEMBERED_FAILURES) failed.delete(failed.keys().next().value!);
        }
        return failure;
      });
      running.add(tracked);
      byArtifact.set(artifactId, tracked);
    },
    async settle(device) {
      for (let running = byDevice.get(device); running !== undefined && running.size > 0; running = byDevice.get(device)) {
        await Promise.all(running);
      }
      const queue = unsaid.get(device);
      const first = queue?.shift();
      if (queue?.length === 0) unsaid.delete(device);
      return first;
    },
    async awaitArtifact(artifactId, waitMs) {
      const running = byArtifact.get(artifactId);
      if (running === undefined) return failed.has(artifactId) ? "failed" : "absent";
      const timer = new AbortController();
      const late = clock.sleep(waitMs, timer.signal).then(() => "pending" as const, () => "pending" as const);
      try {
        return await Promise.race([running.then((failure) => failure === null ? "stored" as const : "failed" as const), late]);
      } finally {
        timer.abort();
      }
    },
    async outcome(artifactId) {
      return (await byArtifact.get(artifactId)) ?? failed.get(artifactId) ?? null;
    },
    async drain() {
      while (byArtifact.size > 0) await Promise.all(byArtifact.values());
    },
  };
}

/** What an `artifact://` read of a failed capture, or of one still under way past the wait, says. */
export function failedCaptureSentence(failure: EvidenceFailure): string {
  return `The screenshot ${failure.artifact_id} of ${failure.tool} could not be stored (${failure.code}: ${failure.message}); ` +
    "the act itself took place. Take a new one with ui_screenshot.";
}
