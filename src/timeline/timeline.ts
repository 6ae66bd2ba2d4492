/**
 * The timeline: the single, append-only source of truth for a session.
 * Nothing is ever edited or removed; removal, folding and replacement are records that views apply.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { isMessageEntry } from "../messages/index.js";

export type TimelineListener = (entry: TimelineEntry, index: number) => void;

export class Timeline {
  readonly #entries: TimelineEntry[] = [];
  readonly #listeners = new Set<TimelineListener>();
  #lastMessage: MessageEntry | undefined;

  constructor(initial: Iterable<TimelineEntry> = []) {
    for (const entry of initial) this.#push(entry);
  }

  /** Every entry in append order (read-only; never mutate the entries themselves). */
  get entries(): readonly TimelineEntry[] {
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
    if (isMessageEntry(entry) && !entry.isSidechain) this.#lastMessage = entry;
    return this.#entries.length - 1;
  }
}
