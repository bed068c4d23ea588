/**
 * A stopped screen recording kept as evidence: each segment that is a complete MP4, in order (screen_record's stop, and
 * the server's normal stop for one still running). A segment the device left incomplete is counted, not kept.
 */
import { HarnessError } from "../errors.ts";
import type { EvidenceRef, EvidenceStore } from "../ports/evidence.ts";

/** Keeps every segment that is a complete MP4 as evidence, in order; throws the first refusal when none is. */
export async function keepRecording(
  evidence: EvidenceStore,
  segments: readonly Uint8Array[],
): Promise<{ refs: EvidenceRef[]; failures: unknown[] }> {
  const refs: EvidenceRef[] = [];
  const failures: unknown[] = [];
  for (const segment of segments) {
    try {
      refs.push(await evidence.saveVideo("screen_record", segment));
    } catch (error) {
      failures.push(error);
    }
  }
  if (refs.length === 0) {
    throw failures[0] ?? new HarnessError("EVIDENCE_WRITE_FAILED", "The device wrote no screen recording; record again.");
  }
  return { refs, failures };
}
