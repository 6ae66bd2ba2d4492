/**
 * A transcript store that starts opening when it is made and opens asynchronously: appends made before it is
 * open are queued and handed over in order, so `new QueryEngine()` can stay synchronous. A failed open
 * surfaces on the next flush, or at once to a caller that awaits `ready()` (`SessionManager.create` does).
 */
import type { TimelineEntry } from "../messages/index.js";
import type { TranscriptStore } from "../transcript/index.js";

export class DeferredTranscriptStore implements TranscriptStore {
  readonly path: string | undefined;
  readonly #opening: Promise<TranscriptStore>;
  #store: TranscriptStore | undefined;
  #queue: TimelineEntry[] = [];

  constructor(path: string | undefined, open: () => Promise<TranscriptStore>) {
    this.path = path;
    this.#opening = open().then((store) => {
      this.#store = store;
      for (const entry of this.#queue) store.append(entry);
      this.#queue = [];
      return store;
    });
    // A failed open surfaces on the next flush; avoid an unhandled rejection meanwhile.
    this.#opening.catch(() => undefined);
  }

  /** Resolves once the store is open; rejects with why it could not open. */
  async ready(): Promise<void> {
    await this.#opening;
  }

  append(entry: TimelineEntry): void {
    if (this.#store) this.#store.append(entry);
    else this.#queue.push(entry);
  }

  async flush(): Promise<void> {
    await (await this.#opening).flush();
  }

  async close(): Promise<void> {
    await (await this.#opening).close();
  }
}
