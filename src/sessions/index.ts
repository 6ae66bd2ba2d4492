export { DeferredTranscriptStore } from "./deferred-transcript.js";
export {
  DEFAULT_LIST_LIMIT,
  isTranscriptPath,
  MIN_ID_PREFIX_LENGTH,
  type OpenedSession,
  SessionManager,
  type SessionPlace,
  type SessionPlaceOptions,
  sessionPlace,
} from "./session-manager.js";
export {
  openSidechainTranscript,
  SidechainTranscriptStore,
  sidechainTranscriptPath,
  toSidechainEntry,
} from "./subagent-transcript.js";
