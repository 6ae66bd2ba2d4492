/**
 * Tier 3 as the pass runs it: replays committed collapses, commits staged spans at 90 %, runs the ctx-agent
 * urgently at 95 %. In the prompt-too-long chain it is the first step: commit every staged span, no model call.
 */
import type { Tier } from "../tier.js";
import { applyCollapses, drainCollapses } from "./apply-collapses.js";

/** Why the cache read drops after a commit: a span of the view was replaced by its summary, as intended. */
const COMMIT_DROP_REASON = "context collapse committed staged spans";

export const collapseTier: Tier = {
  name: "collapse",
  enabled: (settings) => settings.collapse,
  async run(pass) {
    const recordsBefore = pass.chain.records.length;
    const collapsed = await applyCollapses(pass.input, pass.messages, pass.chain);
    const committed = pass.chain.records.slice(recordsBefore).some((record) => record.type === "collapse-commit");
    return {
      messages: collapsed.messages,
      tokens: collapsed.tokens,
      ...(committed ? { replacedView: true, expectCacheDrop: COMMIT_DROP_REASON } : {}),
    };
  },
  overflow: {
    reason: "collapse_drain",
    label: "collapse drain",
    async relieve(input, chain) {
      return drainCollapses(input, chain) > 0 ? { kind: "retry", compacted: false } : { kind: "nothing" };
    },
  },
};
