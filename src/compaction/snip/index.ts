/**
 * Snip, tier 1: the model's own Snip tool and the context-efficiency nudge. The names used outside src/compaction/.
 */

export { CONTEXT_EFFICIENCY_ATTACHMENT, contextGrowth } from "./nudge.js";
export { createSnipTool } from "./snip-tool.js";
