/**
 * The pipeline's Messages API request as an OpenAI chat-completions request, the shapes typed by the official
 * `openai` package. Pure and deterministic: the same assembled request gives the same bytes, so a server's
 * automatic prefix cache (llama.cpp's slot, vLLM's prefix caching) stays warm as the Anthropic prefix does.
 *
 * - `system` blocks become one `system` message (their text joined by a blank line); `cache_control` is dropped
 *   (no such server takes it).
 * - A user message's `tool_result` blocks become `tool` messages first (chat completions wants them right after
 *   the assistant's `tool_calls`), then its text and images as one `user` message. An image inside a tool
 *   result goes into that following user message, named for its call, since a `tool` message holds text only.
 * - An assistant's text becomes `content`, its `tool_use` blocks `tool_calls` (input as JSON text); thinking is
 *   the model's own and not sent back (these servers do not verify or need it).
 * - A PDF document is not sent (chat completions servers take none): a one-line text stands in its place, so the
 *   model knows something was there.
 * - `tool_choice` any → `required`, a named tool → a named function; server tools are never offered.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from "openai/resources/chat/completions";
import type { ContentBlock, ImageBlock, ToolResultBlock } from "../messages/index.js";
import type { MessagesRequest, RequestTool, ToolChoice, WireMessage } from "../request/index.js";

/** The chat-completions request for `body` (always streaming, with usage in the last chunk). */
export function chatCompletionsRequest(body: MessagesRequest): ChatCompletionCreateParamsStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  const system = (body.system ?? []).map((block) => block.text).join("\n\n");
  if (system !== "") messages.push({ role: "system", content: system });
  for (const message of body.messages) messages.push(...chatMessages(message));
  const tools = (body.tools ?? []).flatMap(chatTool);
  const request: ChatCompletionCreateParamsStreaming = {
    model: body.model,
    messages,
    max_tokens: body.max_tokens,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (tools.length > 0) request.tools = tools;
  if (tools.length > 0 && body.tool_choice !== undefined) request.tool_choice = chatToolChoice(body.tool_choice);
  if (body.temperature !== undefined) request.temperature = body.temperature;
  return request;
}

function chatMessages(message: WireMessage): ChatCompletionMessageParam[] {
  if (message.role === "system") return []; // tool changes: never declared for these servers
  if (typeof message.content === "string") return [{ role: message.role, content: message.content }];
  return message.role === "assistant" ? [assistantMessage(message.content)] : userMessages(message.content);
}

function assistantMessage(blocks: readonly ContentBlock[]): ChatCompletionMessageParam {
  const text = blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  const toolCalls = blocks.flatMap((block) =>
    block.type === "tool_use"
      ? [
          {
            id: block.id,
            type: "function" as const,
            function: { name: block.name, arguments: JSON.stringify(block.input) },
          },
        ]
      : [],
  );
  return {
    role: "assistant",
    content: text === "" && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function userMessages(blocks: readonly ContentBlock[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "tool_result": {
        const { text, images } = toolResultContent(block);
        out.push({ role: "tool", tool_call_id: block.tool_use_id, content: text });
        if (images.length > 0) {
          parts.push(textPart(`[images returned by tool call ${block.tool_use_id}]`), ...images.map(imagePart));
        }
        break;
      }
      case "text":
        parts.push(textPart(block.text));
        break;
      case "image":
        parts.push(imagePart(block));
        break;
      case "document":
        parts.push(
          textPart(
            `[a document${block.title !== undefined ? ` (${block.title})` : ""} was attached here; this server takes no documents, so it was not sent]`,
          ),
        );
        break;
      default:
        // cache_edits and assistant-only blocks never reach a user message sent to these servers.
        break;
    }
  }
  if (parts.length > 0) {
    const onlyText = parts.every((part) => part.type === "text");
    out.push({
      role: "user",
      content: onlyText ? parts.map((part) => (part as ChatCompletionContentPartText).text).join("\n\n") : parts,
    });
  }
  return out;
}

function toolResultContent(block: ToolResultBlock): { text: string; images: ImageBlock[] } {
  const prefix = block.is_error === true ? "Error: " : "";
  if (block.content === undefined) return { text: prefix, images: [] };
  if (typeof block.content === "string") return { text: prefix + block.content, images: [] };
  const texts: string[] = [];
  const images: ImageBlock[] = [];
  for (const part of block.content) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "image") images.push(part);
    else texts.push("[a document was returned here; this server takes no documents, so it was not sent]");
  }
  return { text: prefix + texts.join("\n\n"), images };
}

function textPart(text: string): ChatCompletionContentPartText {
  return { type: "text", text };
}

function imagePart(block: ImageBlock): ChatCompletionContentPart {
  const url =
    block.source.type === "base64" ? `data:${block.source.media_type};base64,${block.source.data}` : block.source.url;
  return { type: "image_url", image_url: { url } };
}

function chatTool(tool: RequestTool): ChatCompletionTool[] {
  if (!("input_schema" in tool)) return []; // a server tool (web search) runs only on Anthropic's API
  return [
    {
      type: "function",
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.input_schema as Record<string, unknown>,
      },
    },
  ];
}

function chatToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  switch (choice.type) {
    case "auto":
      return "auto";
    case "any":
      return "required";
    case "none":
      return "none";
    case "tool":
      return { type: "function", function: { name: choice.name } };
    default: {
      const unknown: never = choice;
      throw new Error(`unknown tool_choice ${JSON.stringify(unknown)}`);
    }
  }
}
