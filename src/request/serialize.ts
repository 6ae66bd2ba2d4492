/**
 * The request's exact bytes: `JSON.stringify(body)`, built from per-block pieces so that blocks unchanged
 * since the last turn are not serialized again (a 10,000-entry session is megabytes of JSON per turn).
 * The result is byte-identical to `JSON.stringify(body)`; a test checks it.
 */
import type { ApiMessage } from "../messages/index.js";
import type { MessagesRequest } from "./types.js";

const blockJson = new WeakMap<object, string>();

function json(value: unknown): string {
  return JSON.stringify(value);
}

/** JSON of one block (or any immutable object), memoized by identity. */
export function serializeBlock(block: object): string {
  let text = blockJson.get(block);
  if (text === undefined) {
    text = json(block);
    blockJson.set(block, text);
  }
  return text;
}

function serializeMessage(message: ApiMessage): string {
  if (typeof message.content === "string") return json(message);
  const parts: string[] = new Array(message.content.length);
  for (let index = 0; index < message.content.length; index++) parts[index] = serializeBlock(message.content[index]!);
  return `{"role":${json(message.role)},"content":[${parts.join(",")}]}`;
}

/** `JSON.stringify(body)` for a body built in the fixed key order (see `paramsFromContext`). */
export function serializeRequest(body: MessagesRequest): string {
  const fields: string[] = [];
  for (const key of Object.keys(body) as (keyof MessagesRequest)[]) {
    const value = body[key];
    if (value === undefined) continue;
    if (key === "messages") {
      const messages: string[] = new Array(body.messages.length);
      for (let index = 0; index < body.messages.length; index++)
        messages[index] = serializeMessage(body.messages[index]!);
      fields.push(`"messages":[${messages.join(",")}]`);
    } else fields.push(`${json(key)}:${json(value)}`);
  }
  return `{${fields.join(",")}}`;
}
