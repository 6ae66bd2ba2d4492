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
import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { mkdir, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import type { TimelineEntry } from "../messages/index.js";
import { flushAllOnExit, registerForExitFlush, type SyncFlushable, unregisterFromExitFlush } from "./exit-flush.js";
import { createHeader } from "./header.js";
import { transcriptPath } from "./paths.js";
import { SessionLock } from "./session-lock.js";
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
  /**
   * Hold the session's lock (`<path>.lock`) while open, so a second process is refused (session-lock.ts).
   * Default true.
   */
  lock?: boolean;
  /** The write call (tests inject a full disk). Default `fs.writeSync`. */
  writeSync?: WriteFunction;
}

/** `fs.writeSync`'s buffer form: writes `length` bytes of `buffer` from `offset`, returns how many it wrote. */
export type WriteFunction = (fd: number, buffer: Buffer, offset: number, length: number) => number;

export class JsonlTranscriptStore implements TranscriptStore, SyncFlushable {
  readonly path: string;
  #fd: number | undefined;
  #queue: string[] = [];
  /** An error from a background write, handed to the next `flush()` caller unless a later write succeeded. */
  #backgroundError: unknown;
  /** Bytes of whole lines in the file: a failed write is cut back to this (docs/EXACTLY-ONCE.md, "Whole records"). */
  #size: number;
  /** A failed write left bytes past `#size` that could not be cut yet: cut them before the next write. */
  #torn = false;
  readonly #write: WriteFunction;
  #lock: SessionLock | undefined;
  /** What opening had to repair (a torn last line), one line each, for the caller to show. */
  readonly repairs: string[] = [];

  private constructor(path: string, fd: number, write: WriteFunction) {
    this.path = path;
    this.#fd = fd;
    this.#write = write;
    this.#size = fstatSync(fd).size;
  }

  /**
   * Opens (creating folders and the header) or reopens a session's transcript. Reopening appends to the
   * same file without a second header; if the file ends in a torn line, a newline is written first so the
   * torn fragment stays on a line of its own and the next entry is intact.
   */
  static async open(options: JsonlTranscriptStoreOptions): Promise<JsonlTranscriptStore> {
    const path = options.path ?? transcriptPath(options.sessionId, options.cwd, options.home);
    await mkdir(dirname(path), { recursive: true });
    // The lock comes first: the tail is checked and repaired only by the one writer.
    const lock = (options.lock ?? true) ? SessionLock.acquire(path) : undefined;
    let fd: number;
    let size: number;
    let needsNewline: boolean;
    try {
      size = await fileSize(path);
      needsNewline = size > 0 && !(await endsWithLineFeed(path, size));
      fd = openSync(path, "a");
    } catch (error) {
      lock?.release();
      throw error;
    }
    const store = new JsonlTranscriptStore(path, fd, options.writeSync ?? writeSync);
    store.#lock = lock;
    if (size === 0) store.#queue.push(JSON.stringify(createHeader(options.sessionId, options.cwd, options.now)));
    try {
      if (needsNewline) {
        // The torn fragment keeps a line of its own (the loader reports and skips it); the next entry is whole.
        writeAll(store.#write, fd, Buffer.from("\n"));
        store.#size = size + 1;
        store.repairs.push(`${path}: the last line was torn (no newline); it was closed off and will be skipped.`);
      }
      store.flushSync();
    } catch (error) {
      closeSync(fd);
      lock?.release();
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
      // Reported now: the same failure is not reported again by a later flush.
      this.#backgroundError = undefined;
      return Promise.reject(error);
    }
    if (this.#backgroundError !== undefined) {
      const error = this.#backgroundError;
      this.#backgroundError = undefined;
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  /**
   * Writes everything queued now, all or nothing: on a write error the bytes that did land are cut off again
   * (a torn line would make the retried entry unparseable) and the batch stays queued for the next flush.
   */
  flushSync(): void {
    const fd = this.#fd;
    if (this.#queue.length === 0 || fd === undefined) return;
    const lines = this.#queue;
    this.#queue = [];
    const data = Buffer.from(lines.join("\n") + "\n", "utf8");
    try {
      if (this.#torn) this.#cutBack(fd);
      writeAll(this.#write, fd, data);
      this.#size += data.length;
    } catch (error) {
      this.#queue = lines.concat(this.#queue);
      this.#torn = true;
      try {
        this.#cutBack(fd);
      } catch {
        // Cut before the next write instead (it will not go ahead until that succeeds).
      }
      throw error;
    }
    // Whatever failed before is mended: its entries are on disk now.
    this.#backgroundError = undefined;
  }

  /** Cuts the file back to its whole lines. */
  #cutBack(fd: number): void {
    if (fstatSync(fd).size !== this.#size) ftruncateSync(fd, this.#size);
    this.#torn = false;
  }

  async close(): Promise<void> {
    if (this.#fd === undefined) return;
    try {
      await this.flush();
    } finally {
      unregisterFromExitFlush(this);
      closeSync(this.#fd);
      this.#fd = undefined;
      this.#lock?.release();
    }
  }
}

function writeAll(write: WriteFunction, fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += write(fd, data, offset, data.length - offset);
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
