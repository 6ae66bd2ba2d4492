/**
 * A streaming LF splitter for JSONL files. It splits bytes on 0x0A only: `readline` would also split on
 * U+2028/U+2029, which are legal inside JSON strings. LF never occurs inside a multi-byte UTF-8 sequence, so
 * splitting bytes before decoding keeps characters that straddle two chunks whole. Memory stays bounded by
 * one chunk plus the longest line.
 */
import { open } from "node:fs/promises";

/** Bytes read from disk per chunk. */
export const DEFAULT_READ_CHUNK_BYTES = 1 << 20;

const LINE_FEED = 0x0a;

/**
 * Called once per line, without its LF. `terminated` is false only for a final line with no LF after it
 * (a torn write, or a file whose writer omitted the last newline). Return `false` to stop reading early
 * (any other value, or none, reads on).
 */
export type JsonlLineHandler = (line: string, lineNumber: number, terminated: boolean) => unknown;

export interface ForEachJsonlLineOptions {
  /** Called after each chunk with bytes read so far and the file size at open. Default: none. */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Chunk size in bytes. Default `DEFAULT_READ_CHUNK_BYTES` (1 MiB). */
  chunkBytes?: number;
}

/** Calls `onLine` for every LF-separated line of the file at `path`, in order, 1-based line numbers. */
export async function forEachJsonlLine(
  path: string,
  onLine: JsonlLineHandler,
  options: ForEachJsonlLineOptions = {},
): Promise<void> {
  const handle = await open(path, "r");
  try {
    const totalBytes = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(options.chunkBytes ?? DEFAULT_READ_CHUNK_BYTES);
    // Pieces of a line that began in an earlier chunk; joined once when its LF arrives (no quadratic concat).
    let pending: Buffer[] = [];
    let lineNumber = 0;
    let bytesRead = 0;
    for (;;) {
      const { bytesRead: count } = await handle.read(buffer, 0, buffer.length, null);
      if (count === 0) break;
      bytesRead += count;
      const chunk = buffer.subarray(0, count);
      let start = 0;
      for (let newline = chunk.indexOf(LINE_FEED, start); newline !== -1; newline = chunk.indexOf(LINE_FEED, start)) {
        lineNumber++;
        let line: string;
        if (pending.length > 0) {
          pending.push(chunk.subarray(start, newline));
          line = Buffer.concat(pending).toString("utf8");
          pending = [];
        } else {
          line = chunk.toString("utf8", start, newline);
        }
        start = newline + 1;
        if (onLine(line, lineNumber, true) === false) return;
      }
      // The buffer is reused for the next read, so the unterminated tail must be copied out.
      if (start < count) pending.push(Buffer.from(chunk.subarray(start)));
      options.onProgress?.(bytesRead, totalBytes);
    }
    if (pending.length > 0) onLine(Buffer.concat(pending).toString("utf8"), lineNumber + 1, false);
  } finally {
    await handle.close();
  }
}
