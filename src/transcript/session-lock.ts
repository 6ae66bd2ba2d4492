/**
 * One writer per JSONL session (docs/EXACTLY-ONCE.md, "One writer"): a lock file beside the transcript
 * (`<session>.jsonl.lock`), created with O_EXCL and holding `{pid, host, since}`. A second process is refused
 * with a line naming the holder; a lock whose process is gone (same host, pid not alive) is stale and taken
 * over. The take-over itself is guarded by a second O_EXCL file, so two processes that both find the same stale
 * lock cannot both win (one removes the stale lock, the other then finds the winner's live one).
 * The PostgreSQL store's lease does the same for database sessions (postgres/pg-lease.ts).
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { StoreError } from "./postgres/pg-connect.js";

/** Who holds a session. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the lock was taken. */
  since: string;
}

/** A take-over guard older than this is itself left over from a killed process. */
export const DEFAULT_TAKEOVER_STALE_MS = 10_000;

export class SessionLock {
  #released = false;
  private constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {}

  /**
   * Takes the lock of the transcript at `transcriptPath`, or throws a `StoreError` naming the live holder.
   * `alive` says whether a pid on this host still runs (default: `process.kill(pid, 0)`).
   */
  static acquire(transcriptPath: string, alive: (pid: number) => boolean = pidAlive): SessionLock {
    const path = `${transcriptPath}.lock`;
    const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      if (createExclusive(path, JSON.stringify(holder))) return held(new SessionLock(path, holder));
      const current = readHolder(path);
      if (current === undefined) {
        // Removed meanwhile, or being written; left empty by a process killed in between if it stays so.
        // Stryker disable next-line EqualityOperator: an age of exactly 10,000 ms cannot be set up (the file time and Date.now() are read at different moments)
        if (ageMs(path) > DEFAULT_TAKEOVER_STALE_MS) unlinkQuietly(path);
        continue;
      }
      if (current.host !== holder.host || alive(current.pid)) throw new StoreError(inUse(transcriptPath, current));
      takeOver(path, current);
    }
    throw new StoreError(`Session ${transcriptPath} is being taken over by another process; try again.`);
  }

  /** Removes the lock if it is still ours. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    heldLocks.delete(this);
    const current = readHolder(this.path);
    if (current?.pid === this.holder.pid && current.since === this.holder.since) unlinkQuietly(this.path);
  }
}

const heldLocks = new Set<SessionLock>();
let exitListener = false;

/** Held locks are released at exit (a killed process leaves its lock, which is then found stale). */
function held(lock: SessionLock): SessionLock {
  heldLocks.add(lock);
  // Stryker disable next-line ConditionalExpression: more exit listeners release the same locks again, and release runs once
  if (!exitListener) {
    // Stryker disable next-line BooleanLiteral: as above
    exitListener = true;
    process.on("exit", () => {
      for (const each of [...heldLocks]) each.release();
    });
  }
  return lock;
}

/** The one line a refused writer sees. */
function inUse(transcriptPath: string, holder: LockHolder): string {
  return (
    `Session ${transcriptPath} is in use by pid ${holder.pid} on ${holder.host} since ${holder.since}; ` +
    "end that process, or branch it with --fork-session."
  );
}

/** Removes a stale lock, only if it is still the one found stale, under the take-over guard. */
function takeOver(path: string, stale: LockHolder): void {
  const guard = `${path}.takeover`;
  if (!createExclusive(guard, String(process.pid))) {
    // Stryker disable next-line EqualityOperator: an age of exactly 10,000 ms cannot be set up (the file time and Date.now() are read at different moments)
    if (ageMs(guard) > DEFAULT_TAKEOVER_STALE_MS) unlinkQuietly(guard);
    return;
  }
  try {
    const current = readHolder(path);
    if (current?.pid === stale.pid && current.since === stale.since) unlinkQuietly(path);
  } finally {
    unlinkQuietly(guard);
  }
}

// Stryker disable BlockStatement: emptying its finally leaves a descriptor open, which changes nothing a test can see on the lock
function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}
// Stryker restore BlockStatement

// Stryker disable BlockStatement: an emptied catch returns undefined too, as the function then ends
function readHolder(path: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string" || typeof parsed.since !== "string")
      return undefined;
    return { pid: parsed.pid, host: parsed.host, since: parsed.since };
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement

// Stryker disable BlockStatement: an emptied catch answers undefined (falsy) as ESRCH does; EPERM needs another user's process, and the tests run as one user
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    // Stryker disable next-line ConditionalExpression,StringLiteral: EPERM needs another user's process, and the tests run as one user (as root nothing is EPERM)
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
// Stryker restore BlockStatement

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
