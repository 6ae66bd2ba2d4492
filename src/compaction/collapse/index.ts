/**
 * Collapse, tier 3: the ctx-agent's staged spans, committed and projected as summaries of their own. The names used
 * outside src/compaction/.
 */

export { drainCollapses } from "./apply-collapses.js";
export { collapseCommits, collapsedSpanEntry, collapsedSpanText, projectCollapses } from "./collapse-log.js";
export { findCollapsibleSpan } from "./collapsible-spans.js";
export { stageCollapses } from "./stage-collapses.js";
