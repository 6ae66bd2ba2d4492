/**
 * Where a session's entries go. The engine appends every timeline entry and awaits `flush()` before each
 * model call, so a store must make `flush()` cheap when nothing is queued. The default writes JSONL files
 * (`JsonlTranscriptStore`); a server deployment can put transcripts in a database behind this interface.
 */
import type { TimelineEntry } from "../messages/index.js";

export interface TranscriptStore {
  /** The file written to, or undefined for stores that are not files. */
  readonly path: string | undefined;
  /** Queues an entry; entries are persisted in append order. Never blocks on I/O. */
  append(entry: TimelineEntry): void;
  /** Resolves once every entry appended so far is persisted. */
  flush(): Promise<void>;
  /** Flushes, then releases resources; `append` after `close` throws. */
  close(): Promise<void>;
}

/**
 * A store that keeps entries in memory, for library users who do not want disk. Entries go through a JSON
 * round trip, as they would through a file, so a later change to the caller's object cannot leak in.
 */
export class MemoryTranscriptStore implements TranscriptStore {
  readonly path = undefined;
  readonly #lines: string[] = [];
  #closed = false;

  append(entry: TimelineEntry): void {
    if (this.#closed) throw new Error("transcript store is closed");
    this.#lines.push(JSON.stringify(entry));
  }

  /** Every entry appended so far, as a fresh copy. */
  get entries(): TimelineEntry[] {
    return this.#lines.map((line) => JSON.parse(line) as TimelineEntry);
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#closed = true;
    return Promise.resolve();
  }
}
