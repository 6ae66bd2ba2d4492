/**
 * The request's exact bytes: `JSON.stringify(body)`, built from per-block pieces so that blocks unchanged
 * since the last turn are not serialized again (a 10,000-entry session is megabytes of JSON per turn).
 * The result is byte-identical to `JSON.stringify(body)`; a test checks it.
 */
import { memoizeByObject, sharedPrefixLength } from "../timeline/index.js";
import type { MessagesRequest, WireMessage } from "./types.js";

function json(value: unknown): string {
  return JSON.stringify(value);
}

/** JSON of one block (or any immutable object), memoized by identity. */
export const serializeBlock: (block: object) => string = memoizeByObject(json);

/** JSON of one wire message, memoized by identity: a session's closed turns keep their message objects. */
export const serializeMessage: (message: WireMessage) => string = memoizeByObject(serializeMessageFresh);

function serializeMessageFresh(message: WireMessage): string {
  if (typeof message.content === "string") return json(message);
  const parts: string[] = new Array(message.content.length);
  for (let index = 0; index < message.content.length; index++) parts[index] = serializeBlock(message.content[index]!);
  return `{"role":${json(message.role)},"content":[${parts.join(",")}]}`;
}

/** A conversation's messages as serialized last time, all but the last (which carries the moving cache marker). */
interface SerializedPrefix {
  messages: WireMessage[];
  /** `joined[i]`: the comma-joined JSON of `messages[0..i]`. Each is a piece of the next, so they cost no copy. */
  joined: string[];
}

/** Keyed by the first message object, so each session (each conversation) keeps its own; updated in place. */
const serializedPrefix = memoizeByObject((_first: WireMessage): SerializedPrefix => ({ messages: [], joined: [] }));

/**
 * The comma-joined JSON of `messages`. The messages that are the same objects as last turn's, from the
 * start, reuse last turn's joined string (V8 concatenates strings by linking them, in constant time), so a
 * long session pays only for what changed since last turn.
 */
function serializeMessages(messages: readonly WireMessage[]): string {
  const first = messages[0];
  if (first === undefined) return "";
  const stableEnd = messages.length - 1;
  const prefix = serializedPrefix(first);
  const same = Math.min(sharedPrefixLength(prefix.messages, messages), stableEnd);
  prefix.messages.length = same;
  prefix.joined.length = same;
  let json = same > 0 ? prefix.joined[same - 1]! : "";
  for (let index = same; index < stableEnd; index++) {
    const message = messages[index]!;
    json = json === "" ? serializeMessage(message) : `${json},${serializeMessage(message)}`;
    prefix.messages.push(message);
    prefix.joined.push(json);
  }
  const last = serializeMessage(messages[stableEnd]!);
  return json === "" ? last : `${json},${last}`;
}

/**
 * The serialized fields of each body, without the braces: the streaming variant adds one field to them. Not a
 * memo (nothing derives it on demand): `serializeRequest` leaves it behind for `serializeStreamingRequest`.
 */
const bodyFields = new WeakMap<MessagesRequest, { json: string; fields: string }>();

/** `JSON.stringify(body)` for a body built in the fixed key order (see `paramsFromContext`). */
export function serializeRequest(body: MessagesRequest): string {
  // Concatenation, not Array.join: join copies the megabyte-long messages string, concatenation links it.
  let fields = "";
  for (const key of Object.keys(body) as (keyof MessagesRequest)[]) {
    const value = body[key];
    if (value === undefined) continue;
    // Tools are the same list object every turn of a session (see sortedToolDefinitions): memoized by identity.
    const field =
      key === "messages"
        ? `"messages":[${serializeMessages(body.messages)}]`
        : `${json(key)}:${key === "tools" ? serializeBlock(value as object) : json(value)}`;
    fields = fields === "" ? field : `${fields},${field}`;
  }
  const text = `{${fields}}`;
  bodyFields.set(body, { json: text, fields });
  return text;
}

/**
 * `JSON.stringify({ ...body, stream: true })` given `json`, the body's bytes. When `json` is what
 * `serializeRequest` made of this body (and the body has no stream key), the result links to its pieces
 * instead of copying them; otherwise the last brace of `json` is replaced.
 */
export function serializeStreamingRequest(body: MessagesRequest, json: string): string {
  if (body.stream !== undefined) return JSON.stringify({ ...body, stream: true });
  const known = bodyFields.get(body);
  if (known !== undefined && known.json === json) return `{${known.fields},"stream":true}`;
  return `${json.slice(0, -1)},"stream":true}`;
}
