/**
 * The evidence adapters' entry: evidence store and its retention, audit log, device lock, and where
 * artifacts and state live. The PNG checks and the model-sized image are pure code in src/png.
 */
export { createEvidenceStore, type EvidenceStoreOptions } from "./evidence_store.ts";
export { EVIDENCE_ID, evidenceId, evidenceTimeMs, isEvidenceId, toolSlug } from "./evidence_id.ts";
export { pruneOldEvidence, type RetentionResult } from "./evidence_retention.ts";
export { DRAFT_MAX_AGE_MS, type DraftSweepResult, sweepDrafts } from "./draft_sweep.ts";
export { AUDIT_FILE_NAME, createAuditLog } from "./audit_log.ts";
export {
  createDeviceLock,
  type DeviceLockOptions,
  lockFileName,
  type LockHolder,
  type LockSweepOptions,
  sweepStaleLocks,
} from "./device_lock.ts";
export { createStaleSessionEnder, STALE_SESSION_DELETE_MS, staleSessionUrl } from "./stale_session.ts";
export { createNodeProcessProbe, type ProcessProbe } from "./process_probe.ts";
export { createNodeFileSystem } from "./node_file_system.ts";
export {
  type ArtifactsDisk,
  type ChosenDirectory,
  type ConfiguredDirectory,
  currentUserFacts,
  lockDirectory,
  othersCanWrite,
  type PlatformFacts,
  resolveArtifactsDirectory,
  type UserFacts,
  userStateDirectory,
} from "./state_directories.ts";
