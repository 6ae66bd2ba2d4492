/**
 * A compaction asked for by a person (/compact): the conversation summarised now, whatever the thresholds say,
 * on the same `CompactionInput` the tiers run on, so the loop's autocompact and /compact send the same summary
 * request for the same timeline (docs/ARCHITECTURE.md "One entrance for compaction"). Pure like the tiers: the
 * records come back for the loop's compact stage to append.
 */
import { compactConversation } from "./compact-conversation.js";
import { projectApiView } from "./project-view.js";
import { RecordChain } from "./record-chain.js";
import { tokenCountWithEstimation } from "./thresholds.js";
import type { CompactionInput, CompactionOutput } from "./types.js";

/** What a person asked for: a compaction now, with their own instructions for the summary (default none). */
export interface CompactRequest {
  trigger: "manual";
  instructions?: string;
}

/** Summarises the conversation now. Throws when the summary cannot be made (nothing is recorded then). */
export async function compactByHand(
  input: CompactionInput,
  request: CompactRequest,
): Promise<CompactionOutput & { preTokens: number }> {
  const view = projectApiView(input.entries, input.settings);
  const preTokens = tokenCountWithEstimation(view, input.tokenRatio);
  const chain = new RecordChain(input.sessionId, input.parentUuid, input.now);
  const outcome = await compactConversation(input, view, chain, {
    trigger: request.trigger,
    preTokens,
    ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
  });
  // A person's compaction that worked closes the autocompact breaker again (it says the summary path works).
  if (input.autoCompact !== undefined) input.autoCompact.consecutiveFailures = 0;
  return {
    messages: outcome.messages,
    records: chain.records,
    tokens: outcome.tokens,
    compacted: true,
    preTokens,
    // No request is assembled from this pass; the next turn's own pass decides these.
    newCacheEdits: [],
    relayBreakpoints: [],
    cacheEditing: false,
    snipTags: false,
  };
}
