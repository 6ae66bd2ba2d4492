/**
 * The timeline: the single, append-only source of truth for a session.
 * Nothing is ever edited or removed; removal, folding and replacement are records that views apply.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { isConversationRewind, isMessageEntry } from "../messages/index.js";
import { branchEntries } from "./branch.js";

export type TimelineListener = (entry: TimelineEntry, index: number) => void;

export class Timeline {
  readonly #entries: TimelineEntry[] = [];
  /** The branch the conversation continues: `#entries` itself until a rewind, then rebuilt at each one. */
  #branch: TimelineEntry[] = this.#entries;
  readonly #listeners = new Set<TimelineListener>();
  #lastMessage: MessageEntry | undefined;

  constructor(initial: Iterable<TimelineEntry> = []) {
    for (const entry of initial) this.#push(entry);
  }

  /**
   * The entries of the current branch in append order (read-only; never mutate the entries themselves):
   * every entry until a conversation rewind, then what that rewind went back to and what followed it
   * (branch.ts). Requests, views and the next prompt's parent are built from these.
   */
  get entries(): readonly TimelineEntry[] {
    return this.#branch;
  }

  /** Every entry ever appended, rewound branches included (what the transcript holds). */
  get allEntries(): readonly TimelineEntry[] {
    return this.#entries;
  }

  get length(): number {
    return this.#entries.length;
  }

  /** The last main-chain (non-sidechain) message: the parent of the next message appended. */
  get lastMessage(): MessageEntry | undefined {
    return this.#lastMessage;
  }

  /** Appends and tells every subscriber. Entries are frozen in spirit: callers must not mutate them later. */
  append(entry: TimelineEntry): void {
    const index = this.#push(entry);
    for (const listener of this.#listeners) listener(entry, index);
  }

  appendAll(entries: Iterable<TimelineEntry>): void {
    for (const entry of entries) this.append(entry);
  }

  /** Subscribe to appends; returns the unsubscribe function. */
  subscribe(listener: TimelineListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #push(entry: TimelineEntry): number {
    this.#entries.push(entry);
    if (isConversationRewind(entry)) this.#branch = branchEntries(this.#entries);
    else if (this.#branch !== this.#entries) this.#branch.push(entry);
    if (isMessageEntry(entry) && !entry.isSidechain) this.#lastMessage = entry;
    return this.#entries.length - 1;
  }
}
