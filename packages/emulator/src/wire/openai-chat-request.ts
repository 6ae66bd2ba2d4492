/**
 * An OpenAI `POST /v1/chat/completions` body read as a Messages request, so the one Messages handler (faults,
 * validation, the cache ledger, the scripted model, the log) answers it. The emulator's own reading of OpenAI's
 * published shapes — system messages, user text and `image_url` data URLs, assistant `tool_calls`, `tool`
 * messages, `tools` of type `function`, `tool_choice`, `max_tokens` / `max_completion_tokens` — as an OpenAI
 * server would refuse what it cannot read, with a 400 in OpenAI's words.
 */
import { isRecord } from "../validator/violation.js";

/** What the chat body turned into: the Messages body, or the refusal. */
export type ChatReading =
  | { kind: "ok"; body: Record<string, unknown>; includeUsage: boolean }
  | { kind: "invalid"; message: string; param: string };

/** Reads `body` (already JSON) as a chat-completions request. */
export function readChatRequest(body: unknown): ChatReading {
  if (!isRecord(body)) return invalid("The request body must be a JSON object.", "");
  if (typeof body.model !== "string" || body.model === "")
    return invalid("you must provide a model parameter", "model");
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return invalid("'messages' must contain at least one message.", "messages");
  const system: string[] = [];
  const turns: Array<{ role: "user" | "assistant"; content: Record<string, unknown>[] }> = [];
  const add = (role: "user" | "assistant", blocks: Record<string, unknown>[]): void => {
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const [index, message] of body.messages.entries()) {
    const param = `messages.[${index}]`;
    if (!isRecord(message)) return invalid("Each message must be an object.", param);
    switch (message.role) {
      case "system":
      case "developer": {
        const text = textOf(message.content);
        if (text === undefined) return invalid("A system message's content must be text.", `${param}.content`);
        system.push(text);
        break;
      }
      case "user": {
        const blocks = userBlocks(message.content);
        if (typeof blocks === "string") return invalid(blocks, `${param}.content`);
        add("user", blocks);
        break;
      }
      case "assistant": {
        const blocks = assistantBlocks(message);
        if (typeof blocks === "string") return invalid(blocks, param);
        add("assistant", blocks);
        break;
      }
      case "tool": {
        if (typeof message.tool_call_id !== "string")
          return invalid("'tool_call_id' is required.", `${param}.tool_call_id`);
        const text = textOf(message.content);
        if (text === undefined) return invalid("A tool message's content must be text.", `${param}.content`);
        add("user", [{ type: "tool_result", tool_use_id: message.tool_call_id, content: text }]);
        break;
      }
      default:
        return invalid(`Invalid value: '${String(message.role)}'.`, `${param}.role`);
    }
  }
  const out: Record<string, unknown> = {
    model: body.model,
    max_tokens: maxTokensOf(body),
    ...(system.length > 0 ? { system: system.join("\n\n") } : {}),
    messages: turns,
  };
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    const tools: Record<string, unknown>[] = [];
    for (const [index, tool] of body.tools.entries()) {
      const fn = isRecord(tool) && tool.type === "function" && isRecord(tool.function) ? tool.function : undefined;
      if (fn === undefined || typeof fn.name !== "string")
        return invalid("Only function tools with a name are supported.", `tools.[${index}]`);
      tools.push({
        name: fn.name,
        ...(typeof fn.description === "string" ? { description: fn.description } : {}),
        input_schema: isRecord(fn.parameters) ? fn.parameters : { type: "object", properties: {} },
      });
    }
    out.tools = tools;
    const choice = toolChoiceOf(body.tool_choice);
    if (choice === null) return invalid("Invalid value for 'tool_choice'.", "tool_choice");
    if (choice !== undefined) out.tool_choice = choice;
  }
  if (typeof body.temperature === "number") out.temperature = Math.min(1, body.temperature);
  out.stream = body.stream === true;
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  return { kind: "ok", body: out, includeUsage: options.include_usage === true };
}

function invalid(message: string, param: string): ChatReading {
  return { kind: "invalid", message, param };
}

/** The output budget: `max_completion_tokens`, else `max_tokens`, else a default the server picks (4096 here). */
function maxTokensOf(body: Record<string, unknown>): number {
  for (const key of ["max_completion_tokens", "max_tokens"]) {
    const value = body[key];
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  }
  return 4096;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const part of content) {
    if (!isRecord(part) || part.type !== "text" || typeof part.text !== "string") return undefined;
    parts.push(part.text);
  }
  return parts.join("\n\n");
}

function userBlocks(content: unknown): Record<string, unknown>[] | string {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return "A user message's content must be text or an array of parts.";
  const blocks: Record<string, unknown>[] = [];
  for (const part of content) {
    if (isRecord(part) && part.type === "text" && typeof part.text === "string") {
      blocks.push({ type: "text", text: part.text });
      continue;
    }
    const url =
      isRecord(part) && part.type === "image_url" && isRecord(part.image_url) ? part.image_url.url : undefined;
    const data = typeof url === "string" ? /^data:(image\/[a-z+]+);base64,(.*)$/s.exec(url) : null;
    if (data?.[1] === undefined || data[2] === undefined)
      return "Only text parts and base64 data-URL images are supported.";
    blocks.push({ type: "image", source: { type: "base64", media_type: data[1], data: data[2] } });
  }
  return blocks;
}

function assistantBlocks(message: Record<string, unknown>): Record<string, unknown>[] | string {
  const blocks: Record<string, unknown>[] = [];
  const text = textOf(message.content);
  if (text === undefined) return "An assistant message's content must be text.";
  if (text !== "") blocks.push({ type: "text", text });
  const calls = message.tool_calls ?? [];
  if (!Array.isArray(calls)) return "'tool_calls' must be an array.";
  for (const call of calls) {
    const fn = isRecord(call) && call.type === "function" && isRecord(call.function) ? call.function : undefined;
    if (
      fn === undefined ||
      typeof call.id !== "string" ||
      typeof fn.name !== "string" ||
      typeof fn.arguments !== "string"
    )
      return "Each tool call needs an id, a function name and its arguments.";
    let input: unknown;
    try {
      input = JSON.parse(fn.arguments);
    } catch {
      return `The arguments of tool call ${call.id} are not valid JSON.`;
    }
    blocks.push({ type: "tool_use", id: call.id, name: fn.name, input: isRecord(input) ? input : {} });
  }
  if (blocks.length === 0) blocks.push({ type: "text", text: "" });
  return blocks;
}

/** The Messages tool_choice, undefined when none is named, null when it cannot be read. */
function toolChoiceOf(choice: unknown): Record<string, unknown> | undefined | null {
  if (choice === undefined) return undefined;
  if (choice === "auto") return { type: "auto" };
  if (choice === "required") return { type: "any" };
  if (choice === "none") return { type: "none" };
  if (
    isRecord(choice) &&
    choice.type === "function" &&
    isRecord(choice.function) &&
    typeof choice.function.name === "string"
  )
    return { type: "tool", name: choice.function.name };
  return null;
}
