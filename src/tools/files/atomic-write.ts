/**
 * Writes that keep what was there (docs/INVARIANTS.md #9): the new content goes to a temporary file beside the
 * target, is flushed to disk, takes the old file's mode bits (and owner, where the process may set it), and is
 * renamed over the target. A write that fails part-way (a full disk, a quota) removes the temporary file and
 * leaves the original byte for byte; the error is one line naming the file, the cause and what was kept.
 */
import { randomBytes } from "node:crypto";
import { type FileHandle, open, realpath, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";

/** Why a write failed, for the one line: the errno codes a person can act on, in words. */
const WRITE_FAILURE_REASONS: Readonly<Record<string, string>> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EFBIG: "the file is too large for this file system",
  EIO: "an input/output error from the device",
};

/** Thrown when a write did not land; the target is as it was (its message says so). */
export class FileWriteError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.code = code;
  }
}

/** The path the bytes really go to: a symlink (already checked to stay inside) is written through, not replaced. */
async function realTarget(filePath: string): Promise<string> {
  try {
    return await realpath(filePath);
  } catch {
    return filePath;
  }
}

/** The name of the temporary file beside `target`: hidden, unique to this process and call. */
export function temporaryNameFor(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.threadline-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
}

/**
 * Replaces the content of `filePath` with `data` all at once: after this resolves the file holds `data`; if it
 * rejects (a `FileWriteError`), the file holds what it held before and no temporary file is left.
 */
export async function writeFileAtomic(filePath: string, data: string | Uint8Array): Promise<void> {
  const target = await realTarget(filePath);
  const before = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  const temporary = temporaryNameFor(target);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temporary, "wx", before === undefined ? 0o666 : before.mode & 0o7777);
    await handle.writeFile(data);
    if (before !== undefined) {
      // open's mode passes through the umask; the old file's bits are put back exactly.
      await handle.chmod(before.mode & 0o7777);
      if (process.getuid?.() === 0) await handle.chown(before.uid, before.gid).catch(() => {});
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temporary, target);
  } catch (error) {
    await handle?.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    const reason = (code !== undefined ? WRITE_FAILURE_REASONS[code] : undefined) ?? (error as Error).message;
    const kept = before === undefined ? "nothing was written" : "the original file is unchanged";
    throw new FileWriteError(`Could not write ${filePath}: ${reason}${code ? ` (${code})` : ""}; ${kept}.`, code);
  }
}
