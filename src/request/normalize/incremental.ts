/**
 * Incremental normalization: a long session's closed turns normalize the same way every turn, so their wire
 * messages are kept and only the open tail is normalized again.
 *
 * A turn is closed at a cut: right after an assistant entry that ended its response with non-blank text and
 * `end_turn`. No step reaches across such a cut — attachments move up at most to that assistant, media
 * stripping stops at it, message ids and tool pairs never span it, and the next message starts a new user
 * turn — except the rules for the *final* assistant; the closed part is therefore normalized with a meta
 * sentinel user message after it (so its last assistant is not final), which is then removed. Whenever the
 * premises do not hold (entries before the cut changed, options changed, roles would not alternate at the
 * seam, or the media limit comes into play) the whole view is normalized from scratch. A property test
 * checks that the result is always byte-identical to `normalizeMessagesForAPI`.
 */
import type { ApiMessage, MessageEntry, UserEntry } from "../../messages/index.js";
import { sharedPrefixLength } from "../../timeline/index.js";
import { serializeMessage } from "../serialize.js";
import { type NormalizeOptions, normalizeMessagesForAPI } from "./index.js";
import { DEFAULT_MAX_MEDIA_BLOCKS, EXCESS_MEDIA_TEXT, OVERSIZE_IMAGE_TEXT } from "./validate-images.js";
import { isBlank } from "./working-message.js";

/** What one session remembers between turns (in memory only; never persisted). */
export class NormalizeMemo {
  /** The entries before the cut, by identity. */
  entries: readonly MessageEntry[] = [];
  /** Their wire messages. */
  messages: readonly ApiMessage[] = [];
  /** Last turn's whole result (closed and open part). */
  output: readonly ApiMessage[] = [];
  /**
   * Entries on which the media limit was passed (the limit reaches across turns, so nothing is reused), with
   * their options key. While the view extends them, normalization goes straight to the full pass.
   */
  overLimit: { entries: readonly MessageEntry[]; optionsKey: string } | undefined = undefined;
  /** Image and document blocks in `messages`. */
  mediaCount = 0;
  optionsKey = "";
}

const SENTINEL_TEXT = "\u0000threadline-normalize-sentinel";

function sentinel(after: MessageEntry): UserEntry {
  return {
    type: "user",
    uuid: "00000000-0000-4000-8000-00000000cafe",
    parentUuid: after.uuid,
    timestamp: after.timestamp,
    sessionId: after.sessionId,
    isMeta: true,
    message: { role: "user", content: SENTINEL_TEXT },
  };
}

function isSentinel(message: ApiMessage): boolean {
  if (typeof message.content === "string") return message.content === SENTINEL_TEXT;
  const [only, ...rest] = message.content;
  return rest.length === 0 && only?.type === "text" && only.text === SENTINEL_TEXT;
}

function isCut(entry: MessageEntry | undefined): boolean {
  if (entry?.type !== "assistant" || entry.isApiErrorMessage || entry.isVirtual || entry.isSidechain) return false;
  const block = entry.message.content[0];
  return entry.message.stop_reason === "end_turn" && block.type === "text" && !isBlank(block.text);
}

/** The last cut that leaves at least one entry after it (0 when there is none). */
function lastCut(entries: readonly MessageEntry[]): number {
  for (let index = entries.length - 1; index > 0; index--) if (isCut(entries[index - 1])) return index;
  return 0;
}

/** Normalizes a closed part (ending at a cut) as it normalizes inside a longer view. */
function normalizeClosed(entries: readonly MessageEntry[], options: NormalizeOptions): ApiMessage[] | undefined {
  const last = entries[entries.length - 1];
  if (last === undefined) return [];
  const messages = normalizeMessagesForAPI([...entries, sentinel(last)], options);
  const tail = messages.pop();
  if (tail?.role !== "user" || !isSentinel(tail)) return undefined;
  return messages;
}

/**
 * Blocks that count toward the media limit, as `validateImages` counts them: its survey runs before oversize
 * images become notes, so a note standing for a media block is counted too. Counting a note someone typed is
 * harmless (it only sends the turn to the full pass); missing an oversize image would not be.
 */
function isCountedMedia(block: { type: string; text?: string }): boolean {
  if (block.type === "image" || block.type === "document") return true;
  return block.type === "text" && (block.text === OVERSIZE_IMAGE_TEXT || block.text === EXCESS_MEDIA_TEXT);
}

function countMedia(messages: readonly ApiMessage[]): number {
  let count = 0;
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (isCountedMedia(block)) count++;
      else if (block.type === "tool_result" && Array.isArray(block.content))
        for (const inner of block.content) if (isCountedMedia(inner)) count++;
    }
  }
  return count;
}

/**
 * Replaces messages from `from` on with last turn's objects at the same place while their bytes are equal.
 * Normalizing builds new message objects for last turn's open part; keeping the old ones lets every memo
 * downstream (references, serialized JSON) that is keyed by identity see an unchanged prefix.
 */
function keepIdentity(messages: ApiMessage[], previous: readonly ApiMessage[], from: number): void {
  const end = Math.min(messages.length, previous.length);
  for (let index = from; index < end; index++) {
    const message = messages[index]!;
    const before = previous[index]!;
    if (message === before) continue;
    if (message.role !== before.role || serializeMessage(message) !== serializeMessage(before)) return;
    messages[index] = before;
  }
}

/** The whole view normalized from scratch; the memo keeps only last turn's objects (for `keepIdentity`). */
function normalizeFully(
  entries: readonly MessageEntry[],
  options: NormalizeOptions,
  memo: NormalizeMemo,
): ApiMessage[] {
  memo.entries = [];
  memo.messages = [];
  memo.mediaCount = 0;
  memo.optionsKey = "";
  const messages = normalizeMessagesForAPI(entries, options);
  keepIdentity(messages, memo.output, 0);
  memo.output = messages;
  return messages;
}

/** `normalizeMessagesForAPI(entries, options)`, reusing `memo`'s closed turns; updates the memo. */
export function normalizeIncrementally(
  entries: readonly MessageEntry[],
  options: NormalizeOptions,
  memo: NormalizeMemo,
): ApiMessage[] {
  const optionsKey = JSON.stringify([options.snipTags === true, options.maxImageBase64Bytes, options.maxMediaBlocks]);
  const over = memo.overLimit;
  if (
    over !== undefined &&
    over.optionsKey === optionsKey &&
    sharedPrefixLength(over.entries, entries) === over.entries.length
  )
    return normalizeFully(entries, options, memo);
  memo.overLimit = undefined;
  const cut = lastCut(entries);
  const reuse =
    memo.optionsKey === optionsKey &&
    memo.entries.length <= cut &&
    sharedPrefixLength(memo.entries, entries) === memo.entries.length;
  let closed: ApiMessage[] | undefined;
  let closedMedia = 0;
  if (reuse) {
    const added = normalizeClosed(entries.slice(memo.entries.length, cut), options);
    closed = added === undefined ? undefined : [...memo.messages, ...added];
    closedMedia = memo.mediaCount + (added === undefined ? 0 : countMedia(added));
  } else {
    closed = normalizeClosed(entries.slice(0, cut), options);
    closedMedia = closed === undefined ? 0 : countMedia(closed);
  }
  const open = normalizeMessagesForAPI(entries.slice(cut), options);
  // The closed part's last assistant is final only if nothing follows it: the open part must start a user turn.
  const seamOk =
    closed !== undefined && (closed.length === 0 || (closed.at(-1)!.role === "assistant" && open[0]?.role === "user"));
  const combined = seamOk ? [...closed!, ...open] : undefined;
  if (closedMedia + countMedia(open) > (options.maxMediaBlocks ?? DEFAULT_MAX_MEDIA_BLOCKS)) {
    memo.overLimit = { entries: entries.slice(), optionsKey };
    return normalizeFully(entries, options, memo);
  }
  if (combined === undefined) return normalizeFully(entries, options, memo);
  keepIdentity(combined, memo.output, reuse ? memo.messages.length : 0);
  memo.entries = entries.slice(0, cut);
  memo.messages = combined.slice(0, closed!.length);
  memo.output = combined;
  memo.mediaCount = closedMedia;
  memo.optionsKey = optionsKey;
  return combined;
}
