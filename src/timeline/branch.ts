/**
 * The branch a timeline continues after rewinds (docs/REWIND.md). A conversation rewind is a record; the
 * entries the conversation goes on from are those before the cut it names, as they stood then (earlier
 * rewinds applied), followed by the record and whatever was appended after it. Nothing is removed from the
 * timeline itself: every branch stays in it and a later rewind can return to any of them.
 */
import { isConversationRewind, type TimelineEntry } from "../messages/index.js";
import { isTypedPrompt } from "./session-account.js";

/** Where prompt `promptUuid` is in `entries` (its own index); undefined when it is not there. */
export function promptIndex(entries: readonly TimelineEntry[], promptUuid: string): number | undefined {
  const index = entries.findIndex((entry) => "uuid" in entry && entry.uuid === promptUuid && isTypedPrompt(entry));
  return index < 0 ? undefined : index;
}

/**
 * Where the turn of prompt `promptUuid` ends in `entries`: the index of the next typed prompt or conversation
 * rewind after it (the end of the list when there is none); undefined when the prompt is not there.
 */
export function turnEndIndex(entries: readonly TimelineEntry[], promptUuid: string): number | undefined {
  const start = promptIndex(entries, promptUuid);
  if (start === undefined) return undefined;
  for (let index = start + 1; index < entries.length; index++) {
    const entry = entries[index]!;
    if (isTypedPrompt(entry) || isConversationRewind(entry)) return index;
  }
  return entries.length;
}

/** The entries of the branch `entries` ends on (every entry when no conversation rewind was recorded). */
export function branchEntries(entries: readonly TimelineEntry[]): TimelineEntry[] {
  let last = -1;
  for (let index = entries.length - 1; index >= 0; index--) {
    if (isConversationRewind(entries[index]!)) {
      last = index;
      break;
    }
  }
  if (last < 0) return entries.slice();
  const rewind = entries[last]!;
  const metadata = rewind.type === "system" ? rewind.rewindMetadata : undefined;
  const before = entries.slice(0, last);
  // A rewind to the start of the session cuts before the first prompt; any other after the named prompt's turn.
  const cut =
    metadata === undefined
      ? undefined
      : metadata.beforePrompt === true
        ? promptIndex(before, metadata.promptUuid)
        : turnEndIndex(before, metadata.promptUuid);
  // A record naming a prompt that is not before it (a damaged transcript) moves nothing.
  if (cut === undefined) return [...branchEntries(entries.slice(0, last)), ...entries.slice(last)];
  return [...branchEntries(entries.slice(0, cut)), ...entries.slice(last)];
}
