/**
 * The evidence adapters' entry: evidence store, PNG checks and the model-sized image, audit log,
 * device lock, and where artifacts and state live.
 */
export { createEvidenceStore, type EvidenceStoreOptions } from "./evidence_store.ts";
export { EVIDENCE_ID, evidenceId, isEvidenceId, toolSlug } from "./evidence_id.ts";
export { checkScreenshotShowsSomething, decodePng, isOneColour, pngSize } from "./png_pixels.ts";
export { downscaleForModel, MODEL_MAX_BYTES, MODEL_MAX_SIDE, type ModelImage } from "./downscale.ts";
export { AUDIT_FILE_NAME, createAuditLog } from "./audit_log.ts";
export { createDeviceLock, type DeviceLockOptions, type LockHolder, lockFileName } from "./device_lock.ts";
export { createNodeProcessProbe, type ProcessProbe } from "./process_probe.ts";
export { createNodeFileSystem } from "./node_file_system.ts";
export {
  type ChosenDirectory, type ConfiguredDirectory, currentUserFacts, lockDirectory, type PlatformFacts, resolveArtifactsDirectory, type UserFacts,
  userStateDirectory,
} from "./state_directories.ts";
