/**
 * Tier 4 as the pass runs it: the summary backstop (`autocompact.ts`). In the prompt-too-long chain it is the
 * last step: a reactive compaction (compact-entrances.ts `compactReactively`, outside the circuit breaker's gate).
 */

import { compactReactively } from "../summary/compact-entrances.js";
import type { Tier } from "../tier.js";
import { autoCompact } from "./autocompact.js";
import { breakerTripped } from "./breaker.js";

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
    relieve: compactReactively,
  },
};
