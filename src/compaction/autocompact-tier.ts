/**
 * Tier 4 as the pass runs it: the summary backstop (`autocompact.ts`). In the prompt-too-long chain it is the
 * last step: a reactive compaction (outside the circuit breaker), sized by the server's own count when given.
 */
import { autoCompact, breakerTripped, viewKey } from "./autocompact.js";
import { compactConversation } from "./compact-conversation.js";
import { projectApiView } from "./project-view.js";
import { tokenCountWithEstimation } from "./thresholds.js";
import type { Tier } from "./tier.js";

export const autocompactTier: Tier = {
  name: "autocompact",
  enabled: (settings) => settings.autocompact,
  async run(pass) {
    const result = await autoCompact(pass.input, pass.messages, pass.chain, pass.tokens);
    return {
      messages: result.messages,
      tokens: result.tokens,
      ...(result.compacted ? { compacted: true, replacedView: true } : {}),
      ...(result.cleared === true ? { expectCacheDrop: "autocompact: cleared old tool results to make room" } : {}),
    };
  },
  overflow: {
    reason: "reactive_compact",
    label: "reactive compaction",
    // Once the breaker is off, the same model is not asked again every turn (issue 58: 41 summary requests in
    // 41 turns at 32K, 54 % of the prompt tokens the server processed): the chain goes on to drop and cut.
    available: (input) => input.fork !== undefined && !breakerTripped(input.autoCompact),
    async relieve(input, chain, overflow) {
      const view = projectApiView(input.entries, input.settings);
      const session = input.autoCompact;
      // The automatic summary of this very view just came back useless: the same request would too.
      if (session?.failedSummaryView === viewKey(view))
        return {
          kind: "failed",
          message: "the summary request for this conversation just came back without a summary",
        };
      try {
        const outcome = await compactConversation(input, view, chain, {
          trigger: "reactive",
          preTokens: overflow.actualTokens ?? tokenCountWithEstimation(view),
          ...(input.extraInstructions !== undefined ? { extraInstructions: input.extraInstructions } : {}),
        });
        if (session !== undefined) {
          session.lastCompactionTokens = outcome.contextTokens;
          session.failedSummaryView = undefined;
        }
        return { kind: "retry", compacted: true };
      } catch (failure) {
        // A reactive summary that fails counts on the breaker too, so a model that cannot summarise is asked
        // at most DEFAULT_MAX_CONSECUTIVE_FAILURES times in a row, not once a turn.
        if (session !== undefined) {
          session.failedSummaryView = viewKey(view);
          session.consecutiveFailures++;
        }
        return {
          kind: "failed",
          message: `compaction failed: ${failure instanceof Error ? failure.message : String(failure)}`,
        };
      }
    },
  },
};
