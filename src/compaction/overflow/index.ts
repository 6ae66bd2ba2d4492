/**
 * The prompt-too-long chain's own steps after the tiers': drop the oldest rounds, then cut the biggest results. The
 * names used outside src/compaction/.
 */

export { cutOverflowStep } from "./overflow-cut.js";
export { dropOverflowStep } from "./overflow-steps.js";
