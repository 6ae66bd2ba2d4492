/**
 * The output cap, as the API applies it: an answer longer than the request's `max_tokens` stops there with
 * `stop_reason: "max_tokens"`. A text block is cut mid-text; a tool_use block is cut mid-JSON, so a
 * streaming client receives `input_json_delta`s that never close (what a large Write looks like under a
 * small cap). A scripted step cut this way stays pending: the next request (e.g. the client's retry with a
 * larger cap) is answered with the same step.
 *
 * The context window caps the answer too: on current models a request whose input plus `max_tokens` exceeds the
 * window is accepted, and generation stops where the window is full with `stop_reason:
 * "model_context_window_exceeded"` (generally available; the SDK's `StopReason`), cut the same way.
 */
import type { AssistantContentBlock } from "../content.js";
import { TokenRuler } from "../ruler.js";
import type { ModelReply } from "./scripted-model.js";

/** A reply cut at the cap, with the unfinished input JSON of a cut tool_use by block index. */
export interface CutReply {
  reply: ModelReply;
  /** Block index → the partial input JSON streamed for it (its `input` in a non-streaming answer is `{}`). */
  partialInputs: Map<number, string>;
}

/**
 * `reply` cut at `maxTokens` output tokens or, when less, at `windowRoom` (the window less the input), or
 * undefined when it fits.
 */
export function cutAtOutputLimit(
  reply: ModelReply,
  maxTokens: number | undefined,
  windowRoom: number | undefined,
  ruler: TokenRuler = TokenRuler.unscaled,
): CutReply | undefined {
  if (windowRoom !== undefined && windowRoom < (maxTokens ?? Number.POSITIVE_INFINITY)) {
    const cut = cutAtMaxTokens(reply, windowRoom, ruler);
    if (cut !== undefined) cut.reply = { ...cut.reply, stopReason: "model_context_window_exceeded" };
    return cut;
  }
  return cutAtMaxTokens(reply, maxTokens, ruler);
}

/** `reply` cut at `maxTokens` output tokens, or undefined when it fits. */
export function cutAtMaxTokens(
  reply: ModelReply,
  maxTokens: number | undefined,
  ruler: TokenRuler = TokenRuler.unscaled,
): CutReply | undefined {
  if (maxTokens === undefined || reply.outputTokens <= maxTokens) return undefined;
  const content: AssistantContentBlock[] = [];
  const partialInputs = new Map<number, string>();
  let left = maxTokens;
  for (const block of reply.content) {
    const tokens = ruler.block(block);
    if (tokens <= left) {
      content.push(block);
      left -= tokens;
      continue;
    }
    if (block.type === "text")
      content.push({ type: "text", text: block.text.slice(0, charsWithin(block.text, left, ruler)) });
    else if (block.type === "tool_use") {
      const json = JSON.stringify(block.input ?? {});
      const chars = charsWithin(json, left - ruler.text(block.name), ruler);
      // Never the whole JSON: a cut block ends before its closing brace.
      partialInputs.set(content.length, json.slice(0, Math.min(json.length - 1, chars)));
      content.push({ ...block, input: {} });
    }
    break;
  }
  return { reply: { ...reply, content, stopReason: "max_tokens", outputTokens: maxTokens }, partialInputs };
}

/** Characters of `text` that fit in `tokens` by the ruler (at least 1): its share of the text, measured once. */
function charsWithin(text: string, tokens: number, ruler: TokenRuler): number {
  const whole = ruler.text(text);
  if (whole === 0) return Math.max(1, text.length);
  return Math.max(1, Math.floor((text.length * Math.max(0, tokens)) / whole));
}
