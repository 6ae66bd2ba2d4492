/**
 * What a compaction keeps verbatim after its summary: the API rounds, the kept tail within its budget, the person's
 * current prompt. The names used outside src/compaction/.
 */

export { groupByApiRound } from "./api-rounds.js";
export { currentPrompt, keptPromptSection } from "./kept-prompt.js";
export { budgetTail, tailRoundCount } from "./tail-budget.js";
