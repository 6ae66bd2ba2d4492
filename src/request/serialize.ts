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

const messageJson = new WeakMap<ApiMessage, string>();

/** JSON of one wire message, memoized by identity: a session's closed turns keep their message objects. */
function serializeMessage(message: ApiMessage): string {
  let text = messageJson.get(message);
  if (text === undefined) {
    text = serializeMessageFresh(message);
    messageJson.set(message, text);
  }
  return text;
}

function serializeMessageFresh(message: ApiMessage): string {
  if (typeof message.content === "string") return json(message);
  const parts: string[] = new Array(message.content.length);
  for (let index = 0; index < message.content.length; index++) parts[index] = serializeBlock(message.content[index]!);
  return `{"role":${json(message.role)},"content":[${parts.join(",")}]}`;
}

/** A session's messages as serialized last time, all but the last (which carries the moving cache marker). */
interface SerializedPrefix {
  messages: readonly ApiMessage[];
  json: string;
}

/** Keyed by the first message object, so each session (each conversation) keeps its own. */
const serializedPrefixes = new WeakMap<ApiMessage, SerializedPrefix>();

/**
 * The comma-joined JSON of `messages`. Messages that are the same objects as last turn's, in the same places,
 * reuse last turn's joined string (V8 concatenates strings in constant time), so a long session pays only for
 * what is new this turn.
 */
function serializeMessages(messages: readonly ApiMessage[]): string {
  const first = messages[0];
  if (first === undefined) return "";
  const previous = serializedPrefixes.get(first);
  let start = 0;
  let json = "";
  if (previous !== undefined && previous.messages.length <= messages.length) {
    let same = true;
    for (let index = previous.messages.length - 1; index >= 0 && same; index--)
      same = previous.messages[index] === messages[index];
    if (same) {
      start = previous.messages.length;
      json = previous.json;
    }
  }
  const stableEnd = messages.length - 1;
  for (let index = start; index < stableEnd; index++)
    json = json === "" ? serializeMessage(messages[index]!) : `${json},${serializeMessage(messages[index]!)}`;
  if (stableEnd > 0) serializedPrefixes.set(first, { messages: messages.slice(0, stableEnd), json });
  const last = serializeMessage(messages[stableEnd]!);
  return json === "" ? last : `${json},${last}`;
}

/** `JSON.stringify(body)` for a body built in the fixed key order (see `paramsFromContext`). */
export function serializeRequest(body: MessagesRequest): string {
  const fields: string[] = [];
  for (const key of Object.keys(body) as (keyof MessagesRequest)[]) {
    const value = body[key];
    if (value === undefined) continue;
    if (key === "messages") fields.push(`"messages":[${serializeMessages(body.messages)}]`);
    else fields.push(`${json(key)}:${json(value)}`);
  }
  return `{${fields.join(",")}}`;
}
