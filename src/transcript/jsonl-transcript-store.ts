/**
 * The default transcript store: one JSONL file per session, header first, one entry a line.
 *
 * Appends are serialized and written at once (so later mutation of an entry cannot change what is written,
 * and a crash loses at most the entry being written); a failed write stays queued and is retried on
 * `flush()`, `close()` and process exit.
 * The write itself is a synchronous append: a batch is a few kilobytes and costs microseconds, and it makes
 * ordering exact at exit. (An asynchronous write still in flight when `process.exit` runs may never land
 * while the exit handler's later lines do, leaving a hole in the middle of the log.)
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { mkdir, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { TimelineEntry } from "../messages/index.js";
import { flushAllOnExit, registerForExitFlush, type SyncFlushable, unregisterFromExitFlush } from "./exit-flush.js";
import { createHeader } from "./header.js";
import { transcriptPath } from "./paths.js";
import type { TranscriptStore } from "./transcript-store.js";

export interface JsonlTranscriptStoreOptions {
  sessionId: string;
  /** Working directory of the session: picks the project folder and goes into the header. */
  cwd: string;
  /** threadline home. Default `threadlineHome()` (`$THREADLINE_HOME` or `~/.threadline`). */
  home?: string;
  /** Explicit file path. Default `transcriptPath(sessionId, cwd, home)`. */
  path?: string;
  /** Write queued entries on process exit (installs `flushAllOnExit`). Default true. */
  flushOnExit?: boolean;
  /** Creation time written into a new file's header. Default now. */
  now?: Date;
}

export class JsonlTranscriptStore implements TranscriptStore, SyncFlushable {
  readonly path: string;
  #fd: number | undefined;
  #queue: string[] = [];
  /** An error from a background write, handed to the next `flush()` caller. */
  #backgroundError: unknown;

  private constructor(path: string, fd: number) {
    this.path = path;
    this.#fd = fd;
  }

  /**
   * Opens (creating folders and the header) or reopens a session's transcript. Reopening appends to the
   * same file without a second header; if the file ends in a torn line, a newline is written first so the
   * torn fragment stays on a line of its own and the next entry is intact.
   */
  static async open(options: JsonlTranscriptStoreOptions): Promise<JsonlTranscriptStore> {
    const path = options.path ?? transcriptPath(options.sessionId, options.cwd, options.home);
    await mkdir(dirname(path), { recursive: true });
    const size = await fileSize(path);
    const needsNewline = size > 0 && !(await endsWithLineFeed(path, size));
    const fd = openSync(path, "a");
    const store = new JsonlTranscriptStore(path, fd);
    if (size === 0) store.#queue.push(JSON.stringify(createHeader(options.sessionId, options.cwd, options.now)));
    try {
      if (needsNewline) writeAll(fd, Buffer.from("\n"));
      store.flushSync();
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    if (options.flushOnExit ?? true) {
      registerForExitFlush(store);
      flushAllOnExit();
    }
    return store;
  }

  append(entry: TimelineEntry): void {
    if (this.#fd === undefined) throw new Error(`transcript store is closed: ${this.path}`);
    this.#queue.push(JSON.stringify(entry));
    // Written at once: a crash at any instant then loses at most the entry being written. The write is a
    // synchronous append of one line (microseconds); a failure stays queued and surfaces on the next flush.
    try {
      this.flushSync();
    } catch (error) {
      this.#backgroundError = error;
    }
  }

  flush(): Promise<void> {
    try {
      this.flushSync();
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#backgroundError !== undefined) {
      const error = this.#backgroundError;
      this.#backgroundError = undefined;
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  /** Writes everything queued now. On a write error the batch stays queued (the next flush retries). */
  flushSync(): void {
    if (this.#queue.length === 0 || this.#fd === undefined) return;
    const lines = this.#queue;
    this.#queue = [];
    try {
      writeAll(this.#fd, Buffer.from(lines.join("\n") + "\n", "utf8"));
    } catch (error) {
      this.#queue = lines.concat(this.#queue);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#fd === undefined) return;
    try {
      await this.flush();
    } finally {
      unregisterFromExitFlush(this);
      closeSync(this.#fd);
      this.#fd = undefined;
    }
  }
}

function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}

async function endsWithLineFeed(path: string, size: number): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
