/**
 * Tier 2 as the pass runs it: clears old tool results (time-based, cache edits, a client-side batch, or the
 * server's `context_management` edit). Its cache-edit boundary is recorded at the end of the pass, and only
 * when no later tier replaced the messages the edits name.
 */
import { clearOverflowStep } from "../overflow/overflow-steps.js";
import type { Tier, TierOutput } from "../tier.js";
import { runMicrocompact } from "./run-microcompact.js";

export const microcompactTier: Tier = {
  name: "microcompact",
  enabled: (settings) => settings.microcompact,
  run(pass) {
    const result = runMicrocompact(pass.input, pass.entries, pass.messages, pass.chain);
    const output: TierOutput = {
      messages: result.messages,
      newCacheEdits: result.newCacheEdits,
      cacheEditing: result.cacheEditing,
    };
    if (result.relayBreakpoints !== undefined) output.relayBreakpoints = result.relayBreakpoints;
    if (result.contextManagement !== undefined) output.contextManagement = result.contextManagement;
    if (result.expectCacheDrop !== undefined) output.expectCacheDrop = result.expectCacheDrop;
    if (result.recordCachedDeletes !== undefined) output.recordIfKept = result.recordCachedDeletes;
    return output;
  },
  // The prompt-too-long chain's first step: clear old results, no model call (overflow-steps.ts).
  overflow: clearOverflowStep,
};
