/**
 * The person's pauses carried from one session to the next (docs/PROMPT-CACHE.md, "Pauses across sessions"):
 * a `-p` session has one prompt, so it never sees a gap of its own, and without earlier ones the pause policy
 * starts every session from its prior. One small file per project under threadline's home,
 * `<home>/projects/<cwd-slug>/pause-habits.json`, holding numbers only (gaps in ms and when the last response
 * came): no prompt, path or credential. A missing or unreadable file is an empty history; a failed write is
 * dropped (the next session starts from the prior, nothing else changes).
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pauseHistory } from "../cache/index.js";
import type { TimelineEntry } from "../messages/index.js";
import { projectDir } from "../transcript/index.js";

/** The file's name inside the project folder. */
export const PAUSE_HABITS_FILE = "pause-habits.json";
/** Gaps kept in the file (the policy weighs the last 12: cache/pause-policy.ts MAX_GAPS_WEIGHED). */
export const PAUSE_HABITS_KEPT = 24;

export interface PauseHabits {
  /** Earlier gaps between a response and the person's next prompt, oldest first, in ms. */
  gapsMs: number[];
  /** When the last response of any earlier session came (ms since the epoch). */
  lastResponseAt?: number;
}

/** Where a working directory's habits live. */
export function pauseHabitsPath(cwd: string, home?: string): string {
  return join(home === undefined ? projectDir(cwd) : projectDir(cwd, home), PAUSE_HABITS_FILE);
}

function isGap(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** The habits on disk, or an empty history. */
export async function loadPauseHabits(path: string): Promise<PauseHabits> {
  try {
    const data = JSON.parse(await readFile(path, "utf8")) as { gapsMs?: unknown; lastResponseAt?: unknown };
    const gapsMs = Array.isArray(data.gapsMs) ? data.gapsMs.filter(isGap).slice(-PAUSE_HABITS_KEPT) : [];
    return isGap(data.lastResponseAt) ? { gapsMs, lastResponseAt: data.lastResponseAt } : { gapsMs };
  } catch {
    return { gapsMs: [] };
  }
}

/**
 * What a session opening at `now` starts from: the earlier gaps, and — for a new session — the pause since the
 * last response of any earlier one (a resumed session measures that pause from its own records instead).
 */
export function earlierGaps(habits: PauseHabits, now: number, resuming: boolean): number[] {
  const gaps = [...habits.gapsMs];
  if (!resuming && habits.lastResponseAt !== undefined && now >= habits.lastResponseAt)
    gaps.push(now - habits.lastResponseAt);
  return gaps.slice(-PAUSE_HABITS_KEPT);
}

/**
 * Records a finished session: `startGaps` (what it started from) plus the gaps its own records added from
 * `openedAt` on (a resumed session's older gaps are in the file already), and its last response time.
 */
export async function savePauseHabits(
  path: string,
  habits: PauseHabits,
  startGaps: readonly number[],
  openedAt: number,
  entries: readonly TimelineEntry[],
): Promise<void> {
  const history = pauseHistory(entries);
  const before = entries.filter((entry) => "timestamp" in entry && Date.parse(entry.timestamp) < openedAt);
  const ownGapsAtOpen = pauseHistory(before).gapsMs.length;
  const lastResponseAt = history.lastResponseAt ?? habits.lastResponseAt;
  const next: PauseHabits = {
    gapsMs: [...startGaps, ...history.gapsMs.slice(ownGapsAtOpen)].slice(-PAUSE_HABITS_KEPT),
    ...(lastResponseAt !== undefined ? { lastResponseAt } : {}),
  };
  try {
    await mkdir(join(path, ".."), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next)}\n`);
    await rename(temporary, path);
  } catch {
    // Best effort: without the file the next session starts from the prior.
  }
}

/** One CLI session's use of the file: what it starts from, and the save when it ends. */
export class PauseHabitsRecorder {
  readonly #path: string;
  readonly #habits: PauseHabits;
  /** Gaps the session starts from (PauseOptions.earlierGapsMs). */
  readonly earlierGapsMs: readonly number[];
  readonly #openedAt: number;

  private constructor(path: string, habits: PauseHabits, earlierGapsMs: readonly number[], openedAt: number) {
    this.#path = path;
    this.#habits = habits;
    this.earlierGapsMs = earlierGapsMs;
    this.#openedAt = openedAt;
  }

  /** Reads the habits of `cwd`'s project for a session opening now (`resuming`: --resume / --continue). */
  static async open(cwd: string, resuming: boolean, now: number = Date.now()): Promise<PauseHabitsRecorder> {
    const path = pauseHabitsPath(cwd);
    const habits = await loadPauseHabits(path);
    return new PauseHabitsRecorder(path, habits, earlierGaps(habits, now, resuming), now);
  }

  /** Writes the file from the session's records as it closes (none: nothing to add). */
  async save(entries: readonly TimelineEntry[] | undefined): Promise<void> {
    if (entries !== undefined)
      await savePauseHabits(this.#path, this.#habits, this.earlierGapsMs, this.#openedAt, entries);
  }
}
