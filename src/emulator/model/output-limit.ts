/**
 * The output cap, as the API applies it: an answer longer than the request's `max_tokens` stops there with
 * `stop_reason: "max_tokens"`. A text block is cut mid-text; a tool_use block is cut mid-JSON, so a
 * streaming client receives `input_json_delta`s that never close (what a large Write looks like under a
 * small cap). A scripted step cut this way stays pending: the next request (e.g. the client's retry with a
 * larger cap) is answered with the same step.
 */
import { type AssistantContentBlock, estimateBlockTokens, estimateTextTokens } from "../../messages/index.js";
import type { ModelReply } from "./scripted-model.js";

/** A reply cut at the cap, with the unfinished input JSON of a cut tool_use by block index. */
export interface CutReply {
  reply: ModelReply;
  /** Block index → the partial input JSON streamed for it (its `input` in a non-streaming answer is `{}`). */
  partialInputs: Map<number, string>;
}

/** `reply` cut at `maxTokens` output tokens, or undefined when it fits. */
export function cutAtMaxTokens(reply: ModelReply, maxTokens: number | undefined): CutReply | undefined {
  if (maxTokens === undefined || reply.outputTokens <= maxTokens) return undefined;
  const content: AssistantContentBlock[] = [];
  const partialInputs = new Map<number, string>();
  let left = maxTokens;
  for (const block of reply.content) {
    const tokens = estimateBlockTokens(block);
    if (tokens <= left) {
      content.push(block);
      left -= tokens;
      continue;
    }
    const chars = Math.max(0, left) * 4;
    if (block.type === "text") content.push({ type: "text", text: block.text.slice(0, Math.max(1, chars)) });
    else if (block.type === "tool_use") {
      const nameTokens = estimateTextTokens(block.name);
      const json = JSON.stringify(block.input ?? {});
      // Never the whole JSON: a cut block ends before its closing brace.
      partialInputs.set(content.length, json.slice(0, Math.min(json.length - 1, Math.max(1, (left - nameTokens) * 4))));
      content.push({ ...block, input: {} });
    }
    break;
  }
  return { reply: { ...reply, content, stopReason: "max_tokens", outputTokens: maxTokens }, partialInputs };
}
