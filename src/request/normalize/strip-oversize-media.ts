/**
 * Step 2: strip media the API already refused. When a request failed because of an image or PDF, the client
 * records a synthetic API-error message; on the next request that message marks the nearest preceding
 * meta user message (the one that injected the media) to lose its images and/or documents, so the
 * conversation can go on. The search skips other synthetic errors and stops at anything else: the person's
 * own messages are never touched. Synthetic error messages are dropped here, after being read.
 */
import type { MessageEntry, UserContentBlock, UserEntry } from "../../messages/index.js";
import { API_ERROR_TEXT } from "../../messages/index.js";

type MediaType = "image" | "document";

/** Which media each recognised error text strips. */
export const MEDIA_STRIPPED_BY_ERROR: ReadonlyMap<string, readonly MediaType[]> = new Map([
  [API_ERROR_TEXT.imageTooLarge, ["image"]],
  [API_ERROR_TEXT.pdfTooLarge, ["document"]],
  [API_ERROR_TEXT.pdfPasswordProtected, ["document"]],
  [API_ERROR_TEXT.pdfInvalid, ["document"]],
  [API_ERROR_TEXT.requestTooLarge, ["image", "document"]],
]);

function isSyntheticError(entry: MessageEntry): boolean {
  return entry.type === "assistant" && entry.isApiErrorMessage === true;
}

function errorText(entry: MessageEntry): string | undefined {
  if (entry.type !== "assistant") return undefined;
  const block = entry.message.content[0];
  return block?.type === "text" ? block.text : undefined;
}

/** The uuid → media types to strip, read from synthetic error messages. */
function stripTargets(entries: readonly MessageEntry[]): Map<string, Set<MediaType>> {
  const targets = new Map<string, Set<MediaType>>();
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (!isSyntheticError(entry)) continue;
    const text = errorText(entry);
    const media = text === undefined ? undefined : MEDIA_STRIPPED_BY_ERROR.get(text);
    if (!media) continue;
    for (let back = index - 1; back >= 0; back--) {
      const candidate = entries[back]!;
      if (isSyntheticError(candidate)) continue;
      if (candidate.type === "user" && candidate.isMeta) {
        const set = targets.get(candidate.uuid) ?? new Set<MediaType>();
        for (const type of media) set.add(type);
        targets.set(candidate.uuid, set);
      }
      break;
    }
  }
  return targets;
}

function stripBlocks(blocks: readonly UserContentBlock[], media: ReadonlySet<string>): UserContentBlock[] {
  const kept: UserContentBlock[] = [];
  for (const block of blocks) {
    if (media.has(block.type)) continue;
    if (block.type === "tool_result" && Array.isArray(block.content)) {
      const inner = block.content.filter((part) => !media.has(part.type));
      kept.push(inner.length === block.content.length ? block : { ...block, content: inner });
      continue;
    }
    kept.push(block);
  }
  return kept;
}

/** Entries with refused media stripped (cloned, never mutated) and synthetic error messages removed. */
export function stripOversizeMedia(entries: readonly MessageEntry[]): MessageEntry[] {
  let hasErrors = false;
  for (const entry of entries) if (isSyntheticError(entry)) hasErrors = true;
  if (!hasErrors) return entries.slice();
  const targets = stripTargets(entries);
  const result: MessageEntry[] = [];
  for (const entry of entries) {
    if (isSyntheticError(entry)) continue;
    const media = entry.type === "user" ? targets.get(entry.uuid) : undefined;
    if (!media || entry.type !== "user" || typeof entry.message.content === "string") {
      result.push(entry);
      continue;
    }
    const content = stripBlocks(entry.message.content, media);
    if (content.length === 0) continue;
    const stripped: UserEntry = { ...entry, message: { ...entry.message, content } };
    result.push(stripped);
  }
  return result;
}
