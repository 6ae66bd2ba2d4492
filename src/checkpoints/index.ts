export { BlobStore, sha256 } from "./blob-store.js";
export { withCheckpoints } from "./checkpoint-tools.js";
export {
  type CheckpointOptions,
  Checkpoints,
  DEFAULT_MAX_CHECKPOINT_FILE_BYTES,
  DEFAULT_MAX_WATCHED_FILES,
  type FileBefore,
  type RestoreResult,
} from "./checkpoints.js";
