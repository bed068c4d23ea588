/**
 * The evidence adapters' entry: evidence store and its retention, PNG checks and the model-sized image, audit log,
 * device lock, and where artifacts and state live.
 */
export { createEvidenceStore, type EvidenceStoreOptions } from "./evidence_store.ts";
export { EVIDENCE_ID, evidenceId, evidenceTimeMs, isEvidenceId, toolSlug } from "./evidence_id.ts";
export { pruneOldEvidence, type RetentionResult } from "./evidence_retention.ts";
export { checkScreenshotShowsSomething, decodePng, isOneColour, pngSize } from "./png_pixels.ts";
export { downscaleForModel, MODEL_MAX_BYTES, MODEL_MAX_SIDE, type ModelImage } from "./downscale.ts";
export { AUDIT_FILE_NAME, createAuditLog } from "./audit_log.ts";
export { createDeviceLock, type DeviceLockOptions, type LockHolder, lockFileName } from "./device_lock.ts";
export { createNodeProcessProbe, type ProcessProbe } from "./process_probe.ts";
export { createNodeFileSystem } from "./node_file_system.ts";
export { type ChosenDirectory, type ConfiguredDirectory, lockDirectory, type PlatformFacts, resolveArtifactsDirectory, userStateDirectory } from "./state_directories.ts";
