/**
 * Tier 1 as the pass runs it. The model snips through its tool (`snip-tool.ts`); the pass only tags user
 * messages with short ids and attaches a `context_efficiency` nudge as the context grows.
 */
import type { Tier } from "../tier.js";
import { contextEfficiencyNudge } from "./nudge.js";

export const snipTier: Tier = {
  name: "snip",
  enabled: (settings) => settings.snip,
  run(pass) {
    const { chain } = pass;
    const nudge = contextEfficiencyNudge({
      entries: pass.entries,
      intervalTokens: pass.input.settings.nudgeIntervalTokens,
      sessionId: chain.sessionId,
      parentUuid: chain.context().parentUuid,
      now: chain.now,
    });
    if (nudge !== undefined) chain.push(nudge);
    return { snipTags: true };
  },
};
