/**
 * Old tool results: which may be cleared, the placeholder a cleared one leaves, and clearing them to make room. The
 * names used outside src/compaction/.
 */

export { clearedPlaceholder } from "./cleared-placeholder.js";
export {
  applyClearedToolResults,
  CLEARED_TOOL_RESULT_PREFIX,
  CLEARED_TOOL_RESULT_TEXT,
} from "./compactable-results.js";
