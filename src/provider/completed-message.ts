/**
 * Converts a non-streaming response into a `CompletedMessage`. The response body is a trust boundary,
 * so it is parsed with the same schemas the stream reducer uses.
 */
import * as z from "zod";
import type { AssistantContentBlock, TextCitation } from "../messages/index.js";
import { webSearchResultBlock } from "../messages/index.js";
import { streamError } from "./stream-accumulator.js";
import { emptyUsage, mergeUsage, streamEventSchemas, toStopReason } from "./stream-events.js";
import type { CompletedMessage } from "./types.js";

const messageSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullish(),
  usage: z
    .looseObject({
      input_tokens: z.number().nullish(),
      output_tokens: z.number().nullish(),
      cache_creation_input_tokens: z.number().nullish(),
      cache_read_input_tokens: z.number().nullish(),
    })
    .optional(),
});

/** The message, with block types threadline does not model (server tools, …) left out. */
export function completedMessageFrom(data: unknown): CompletedMessage {
  const parsed = messageSchema.safeParse(data);
  if (!parsed.success) throw streamError(`malformed message response: ${parsed.error.message.slice(0, 200)}`);
  const message = parsed.data;
  const content: AssistantContentBlock[] = [];
  for (const block of message.content) {
    const converted = convertBlock(block);
    if (converted !== null) content.push(converted);
  }
  const reason = message.stop_reason ?? null;
  return {
    id: message.id,
    model: message.model,
    content,
    stopReason: toStopReason(reason),
    usage: mergeUsage(emptyUsage(), message.usage),
  };
}

function convertBlock(block: { type: string }): AssistantContentBlock | null {
  switch (block.type) {
    case "text": {
      const text = streamEventSchemas().textStartSchema.parse(block);
      // A web search answer's citations go back with it (docs/API-SURFACE.md, "Server tools").
      const citations = (block as { citations?: unknown }).citations;
      return Array.isArray(citations) && citations.length > 0
        ? { type: "text", text: text.text, citations: citations as TextCitation[] }
        : { type: "text", text: text.text };
    }
    case "server_tool_use": {
      const tool = streamEventSchemas().serverToolUseStartSchema.parse(block);
      return { type: "server_tool_use", id: tool.id, name: tool.name, input: tool.input ?? {} };
    }
    case "web_search_tool_result":
      return webSearchResultBlock(streamEventSchemas().webSearchToolResultStartSchema.parse(block));
    case "thinking": {
      const thinking = streamEventSchemas().thinkingStartSchema.parse(block);
      return { type: "thinking", thinking: thinking.thinking, signature: thinking.signature };
    }
    case "redacted_thinking":
      return { type: "redacted_thinking", data: streamEventSchemas().redactedThinkingStartSchema.parse(block).data };
    case "tool_use": {
      const tool = streamEventSchemas().toolUseStartSchema.parse(block);
      return { type: "tool_use", id: tool.id, name: tool.name, input: tool.input ?? {} };
    }
    default:
      return null;
  }
}
