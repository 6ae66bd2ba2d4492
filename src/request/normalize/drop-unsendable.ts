/**
 * Step 0: drop what the API must never see: virtual pairs (REPL-internal calls), progress, system notices
 * other than `local_command` output, and sidechain entries. Synthetic API-error messages survive this step
 * because step 2 (media stripping) reads them; step 2 drops them.
 */
import type { MessageEntry } from "../../messages/index.js";
import { isApiVisible } from "../../timeline/index.js";

/** Whether an entry may reach the wire (synthetic error messages included, for step 2). */
function isSendable(entry: MessageEntry): boolean {
  return (
    isApiVisible(entry) ||
    (entry.type === "assistant" && entry.isApiErrorMessage === true && !entry.isVirtual && !entry.isSidechain)
  );
}

/** Entries that may be sent, in order; the input array is not modified. */
export function dropUnsendable(entries: readonly MessageEntry[]): MessageEntry[] {
  const kept: MessageEntry[] = [];
  for (const entry of entries) if (isSendable(entry)) kept.push(entry);
  return kept;
}
