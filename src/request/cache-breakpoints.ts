/**
 * addCacheBreakpoints: where the prompt cache is written and read.
 * - System segments carry cache_control (all of them while the budget allows, else the first ones and the
 *   last), so a change in a later segment still reuses the earlier ones.
 * - One message-level marker on the last markable block of the last message (the second-to-last when this
 *   request must not write cache); never on thinking or cache_edits blocks.
 * - Relay markers where a policy asks for them (`relayBefore`): on the block just before a named tool_result.
 *   The server looks for an earlier cache entry only ~20 blocks before each breakpoint, so a change further
 *   back than that (a batch clear's first placeholder sits 30-39 blocks from the end) rewrites everything
 *   after the last breakpoint it can reach; a relay reads the unchanged prefix and writes a new entry for the
 *   next change (docs/PROMPT-CACHE.md). Relays take markers from the system segments
 *   first: the message prefix they save is larger than anything a system segment's own marker saves.
 * - At most `MAX_CACHE_BREAKPOINTS` markers in all; one TTL for every marker, so a 1h marker can never
 *   follow a 5m one.
 * - With cache editing: every tool_result up to and including the marked message carries
 *   `cache_reference: <tool_use_id>` (from the first request that caches it on, so its bytes never change);
 *   pinned `cache_edits` are re-inserted at their original message index, after that message's last
 *   tool_result; this turn's new edits go after the last tool_result of the last user message and are pinned.
 */
import type {
  ApiMessage,
  CacheControl,
  CacheEditDelete,
  CacheEditsBlock,
  ContentBlock,
  ToolResultBlock,
} from "../messages/index.js";
import { memoizeByObject, sharedPrefixLength } from "../timeline/index.js";
import { isBlank } from "./normalize/working-message.js";
import type { CacheEditPin, SystemBlock } from "./types.js";

/** The API accepts at most this many blocks with cache_control. */
export const MAX_CACHE_BREAKPOINTS = 4;

export interface CacheBreakpointOptions {
  /** Default "5m". */
  ttl?: "5m" | "1h";
  /** The system markers' TTL; "1h" may sit before "5m" message markers, not after. Default `ttl`. */
  prefixTtl?: "5m" | "1h";
  /** Mark the second-to-last message instead of the last. Default false. */
  skipCacheWrite?: boolean;
  /** Add cache references and place cache edits. Default false (pins and new edits are then ignored). */
  cacheEditing?: boolean;
  /** Edits pinned by earlier turns. Default none. */
  pins?: readonly CacheEditPin[];
  /** Edits decided this turn. Default none. */
  newCacheEdits?: readonly CacheEditDelete[];
  /**
   * tool_use_ids whose tool_result gets a relay marker on the block just before it (at most
   * `MAX_CACHE_BREAKPOINTS - 2`, the first ones win; an id not sent, or whose block is the marked one, is
   * ignored). Default none.
   */
  relayBefore?: readonly string[];
}

export interface CacheBreakpointResult {
  system: SystemBlock[];
  messages: ApiMessage[];
  /** Pins for this turn's new edits (empty when there were none or all were duplicates). */
  newPins: CacheEditPin[];
}

/** The marker for `ttl` ("5m" is the server default and is left implicit). */
function cacheControl(ttl: "5m" | "1h"): CacheControl {
  return ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/** System blocks for the non-blank segments, with up to `budget` markers. */
export function systemBlocks(segments: readonly string[], ttl: "5m" | "1h", budget: number): SystemBlock[] {
  const texts = segments.filter((segment) => !isBlank(segment));
  const last = texts.length - 1;
  return texts.map((text, index) => {
    const marked = texts.length <= budget ? true : index < budget - 1 || (index === last && budget > 0);
    return marked ? { type: "text", text, cache_control: cacheControl(ttl) } : { type: "text", text };
  });
}

function isMarkable(block: ContentBlock): boolean {
  return block.type !== "thinking" && block.type !== "redacted_thinking" && block.type !== "cache_edits";
}

/** Index of the block after which cache_edits go: after the last tool_result and any cache_edits already there. */
function editsInsertIndex(content: readonly ContentBlock[]): number {
  let index = 0;
  while (index < content.length && (content[index]!.type === "tool_result" || content[index]!.type === "cache_edits")) {
    index++;
  }
  return index;
}

const referenced = memoizeByObject(
  (block: ToolResultBlock): ToolResultBlock => ({ ...block, cache_reference: block.tool_use_id }),
);

/** Referenced copies of whole messages, by identity, so an unchanged message stays the same object turn after turn. */
const referencedMessage = memoizeByObject(withReferencesFresh);

function withReferences(message: ApiMessage): ApiMessage {
  if (typeof message.content === "string" || message.role !== "user") return message;
  return referencedMessage(message);
}

function withReferencesFresh(message: ApiMessage): ApiMessage {
  if (typeof message.content === "string") return message;
  let changed = false;
  const content = message.content.map((block) => {
    if (block.type !== "tool_result" || block.cache_reference === block.tool_use_id) return block;
    changed = true;
    return referenced(block);
  });
  return changed ? { role: message.role, content } : message;
}

/** Calls `use` with the tool_use_id of each tool_result in `message`. */
function forEachResultId(message: ApiMessage, use: (id: string) => void): void {
  if (typeof message.content === "string") return;
  for (const block of message.content) if (block.type === "tool_result") use(block.tool_use_id);
}

/** Last turn's referenced messages for one conversation: its input messages, their copies, and every reference. */
interface ReferencedPrefix {
  sources: ApiMessage[];
  /**
   * `withReferences(sources[i])`, kept in an array although `referencedMessages` has them too: copying an
   * array is a memory copy, while 5,000 WeakMap lookups read every message object (≈ 0.6 ms a turn).
   */
  referenced: ApiMessage[];
  /** Every tool_use_id referenced in `sources`. */
  ids: Set<string>;
  /** `added[i]`: the ids that `sources[i]` added to `ids` (so a changed tail can be taken out exactly). */
  added: string[][];
}

/** Keyed by the first input message, so each conversation keeps its own (as the serialized prefix does); updated in place. */
const referencedPrefix = memoizeByObject(
  (_first: ApiMessage): ReferencedPrefix => ({ sources: [], referenced: [], ids: new Set(), added: [] }),
);

/**
 * Replaces `messages[0..last]` with their referenced copies and returns a test for "this tool_use_id is
 * referenced". A long session's messages are the same objects turn after turn, so last turn's work is reused
 * for the messages that are unchanged from the start. The last message is left out of the memo: it is the
 * one that changes between turns (a final assistant is trimmed, a user message gains results).
 */
function addReferences(messages: ApiMessage[], last: number): (id: string) => boolean {
  const first = messages[0];
  if (first === undefined || last < 0) return () => false;
  const { sources, referenced: copies, ids, added } = referencedPrefix(first);
  const same = Math.min(sharedPrefixLength(sources, messages), last);
  for (let index = same; index < sources.length; index++) for (const id of added[index]!) ids.delete(id);
  sources.length = same;
  copies.length = same;
  added.length = same;
  for (let index = 0; index < same; index++) messages[index] = copies[index]!;
  for (let index = same; index < last; index++) {
    const source = messages[index]!;
    const fresh: string[] = [];
    forEachResultId(source, (id) => {
      if (ids.has(id)) return;
      ids.add(id);
      fresh.push(id);
    });
    sources.push(source);
    added.push(fresh);
    messages[index] = withReferences(source);
    copies.push(messages[index]!);
  }
  const lastIds = new Set<string>();
  forEachResultId(messages[last]!, (id) => lastIds.add(id));
  messages[last] = withReferences(messages[last]!);
  return (id) => ids.has(id) || lastIds.has(id);
}

/** `block` with only the edits whose reference exists and was not deleted already; undefined if none remain. */
function dedupedEdits(
  edits: readonly CacheEditDelete[],
  isReferenced: (id: string) => boolean,
  seen: Set<string>,
): CacheEditsBlock | undefined {
  const kept: CacheEditDelete[] = [];
  for (const edit of edits) {
    if (!isReferenced(edit.cache_reference) || seen.has(edit.cache_reference)) continue;
    seen.add(edit.cache_reference);
    kept.push({ type: "delete", cache_reference: edit.cache_reference });
  }
  return kept.length > 0 ? { type: "cache_edits", edits: kept } : undefined;
}

function insertEdits(messages: ApiMessage[], index: number, block: CacheEditsBlock): boolean {
  const message = messages[index];
  if (message?.role !== "user" || typeof message.content === "string") return false;
  const content = message.content.slice();
  content.splice(editsInsertIndex(content), 0, block);
  messages[index] = { role: "user", content };
  return true;
}

function placeCacheEdits(
  messages: ApiMessage[],
  isReferenced: (id: string) => boolean,
  pins: readonly CacheEditPin[],
  newEdits: readonly CacheEditDelete[],
): CacheEditPin[] {
  const seen = new Set<string>();
  const ordered = pins.map((pin, order) => ({ pin, order }));
  ordered.sort((left, right) => left.pin.messageIndex - right.pin.messageIndex || left.order - right.order);
  for (const { pin } of ordered) {
    const block = dedupedEdits(pin.block.edits, isReferenced, seen);
    if (block) insertEdits(messages, pin.messageIndex, block);
  }
  const block = dedupedEdits(newEdits, isReferenced, seen);
  if (!block) return [];
  let target = messages.length - 1;
  while (target >= 0 && messages[target]!.role !== "user") target--;
  if (target < 0 || !insertEdits(messages, target, block)) return [];
  return [{ messageIndex: target, block }];
}

function withMarker(message: ApiMessage, marker: CacheControl): ApiMessage | undefined {
  if (typeof message.content === "string") {
    if (isBlank(message.content)) return undefined;
    return { role: message.role, content: [{ type: "text", text: message.content, cache_control: marker }] };
  }
  for (let index = message.content.length - 1; index >= 0; index--) {
    const block = message.content[index]!;
    if (!isMarkable(block)) continue;
    const content = message.content.slice();
    content[index] = { ...block, cache_control: marker } as ContentBlock;
    return { role: message.role, content };
  }
  return undefined;
}

/** Where a content block sits: message index and block index (-1 for a string content). */
interface BlockAt {
  message: number;
  block: number;
}

/**
 * The markable block just before the tool_result of each id in `ids`, in the order of `ids`, skipping ids not
 * found (such a block is never the marked one: the result comes after it). Blocks are counted as the server
 * counts them: a string content is one block, cache_edits none.
 */
function relayPositions(messages: readonly ApiMessage[], markerIndex: number, ids: readonly string[]): BlockAt[] {
  const wanted = new Set(ids);
  const found = new Map<string, BlockAt>();
  let previous: BlockAt | undefined;
  for (let message = 0; message <= markerIndex && found.size < wanted.size; message++) {
    const content = messages[message]!.content;
    if (typeof content === "string") {
      if (!isBlank(content)) previous = { message, block: -1 };
      continue;
    }
    for (let block = 0; block < content.length; block++) {
      const current = content[block]!;
      if (current.type === "tool_result" && wanted.has(current.tool_use_id) && previous !== undefined)
        found.set(current.tool_use_id, previous);
      if (isMarkable(current)) previous = { message, block };
    }
  }
  const positions: BlockAt[] = [];
  for (const id of ids) {
    const at = found.get(id);
    if (at === undefined || positions.some((seen) => seen.message === at.message && seen.block === at.block)) continue;
    positions.push(at);
  }
  return positions;
}

/** `message` with `marker` on block `block` (-1: its string content, made a text block). */
function markBlock(message: ApiMessage, block: number, marker: CacheControl): ApiMessage {
  if (typeof message.content === "string")
    return { role: message.role, content: [{ type: "text", text: message.content, cache_control: marker }] };
  const content = message.content.slice();
  content[block] = { ...content[block]!, cache_control: marker } as ContentBlock;
  return { role: message.role, content };
}

/** System blocks and messages with cache markers, references and edits placed; inputs are not mutated. */
export function addCacheBreakpoints(
  systemPrompt: readonly string[],
  messages: readonly ApiMessage[],
  options: CacheBreakpointOptions = {},
): CacheBreakpointResult {
  const ttl = options.ttl ?? "5m";
  const marker = cacheControl(ttl);
  const result = messages.slice();
  const markerIndex = result.length - (options.skipCacheWrite ? 2 : 1);
  let newPins: CacheEditPin[] = [];
  if (options.cacheEditing) {
    const isReferenced = addReferences(result, markerIndex);
    newPins = placeCacheEdits(result, isReferenced, options.pins ?? [], options.newCacheEdits ?? []);
  }
  let messageMarkers = 0;
  const target = result[markerIndex];
  if (target) {
    const marked = withMarker(target, marker);
    if (marked) {
      result[markerIndex] = marked;
      messageMarkers = 1;
    }
  }
  if (messageMarkers === 1 && options.relayBefore !== undefined && options.relayBefore.length > 0) {
    // At least one marker stays for the system prompt, so the tools and system are always their own entry.
    const relays = relayPositions(result, markerIndex, options.relayBefore).slice(0, MAX_CACHE_BREAKPOINTS - 2);
    for (const position of relays) {
      result[position.message] = markBlock(result[position.message]!, position.block, marker);
      messageMarkers++;
    }
  }
  // The API refuses a 1h marker after a 5m one (tools, system, messages), so a longer prefix TTL is the only mix.
  const prefixTtl = options.prefixTtl === "1h" ? "1h" : ttl;
  const system = systemBlocks(systemPrompt, prefixTtl, MAX_CACHE_BREAKPOINTS - messageMarkers);
  return { system, messages: result, newPins };
}
