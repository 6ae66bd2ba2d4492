/**
 * Files a reading tool must not open: a FIFO blocks until some writer comes (forever, in print mode), a device
 * may never end (`/dev/zero`) or consume input (`/dev/tty`), a socket cannot be opened at all. Read and Grep
 * refuse them in one line before opening anything.
 */
import type { Stats } from "node:fs";

/** One line refusing `filePath` when `info` says it is no regular file or directory; undefined otherwise. */
export function specialFileRefusal(tool: string, filePath: string, info: Stats): string | undefined {
  const kind = info.isFIFO()
    ? "a FIFO (named pipe)"
    : info.isCharacterDevice()
      ? "a character device"
      : info.isBlockDevice()
        ? "a block device"
        : info.isSocket()
          ? "a socket"
          : undefined;
  if (kind === undefined) return undefined;
  return `${tool} refused ${filePath}: it is ${kind}, not a regular file; opening it could wait forever. Nothing was read.`;
}
