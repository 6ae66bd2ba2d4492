/**
 * Tier 4 as the pass runs it: the summary backstop (`autocompact.ts`). In the prompt-too-long chain it is the
 * last step: a reactive compaction (outside the circuit breaker), sized by the server's own count when given.
 */
import { autoCompact } from "./autocompact.js";
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
    available: (input) => input.fork !== undefined,
    async relieve(input, chain, overflow) {
      const view = projectApiView(input.entries, input.settings);
      try {
        const outcome = await compactConversation(input, view, chain, {
          trigger: "reactive",
          preTokens: overflow.actualTokens ?? tokenCountWithEstimation(view),
          ...(input.extraInstructions !== undefined ? { extraInstructions: input.extraInstructions } : {}),
        });
        if (input.autoCompact !== undefined) input.autoCompact.lastCompactionTokens = outcome.contextTokens;
        return { kind: "retry", compacted: true };
      } catch (failure) {
        return {
          kind: "failed",
          message: `compaction failed: ${failure instanceof Error ? failure.message : String(failure)}`,
        };
      }
    },
  },
};
