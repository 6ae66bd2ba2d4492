/**
 * The lines Monitor commands printed that the model has not seen yet (docs/TOOLS.md "Monitor"). Each complete
 * stdout line is an event; the loop takes them at the start of its next request and sends one
 * `<task-notification>` per monitor holding every line since the last one (loop/side/task-notifications.ts), so a
 * burst of lines is one message, as Claude Code batches lines that arrive together.
 */

/** Lines longer than this are cut (the whole line stays in the output file). */
export const MONITOR_LINE_LIMIT = 2000;
/** At most this many lines per monitor per notification; the rest are counted, and left in the output file. */
export const MONITOR_EVENT_LINES_LIMIT = 100;

export interface MonitorBatch {
  readonly taskId: string;
  readonly description: string;
  readonly lines: readonly string[];
  /** Lines beyond MONITOR_EVENT_LINES_LIMIT left out of this batch. */
  readonly omitted: number;
}

interface Pending {
  description: string;
  /** The text after the last newline, not yet a line. */
  partial: string;
  lines: string[];
  omitted: number;
  /** Every line so far, for the notice when the monitor ends. */
  total: number;
}

export class MonitorEvents {
  readonly #pending = new Map<string, Pending>();

  /** A monitor started: its lines are collected under `taskId`. */
  open(taskId: string, description: string): void {
    this.#pending.set(taskId, { description, partial: "", lines: [], omitted: 0, total: 0 });
  }

  /** A stdout chunk of a monitor: complete lines become events, a trailing piece waits for its newline. */
  push(taskId: string, chunk: string): void {
    const pending = this.#pending.get(taskId);
    if (pending === undefined) return;
    const pieces = (pending.partial + chunk).split("\n");
    pending.partial = pieces.pop() ?? "";
    for (const line of pieces) this.#add(pending, line.replace(/\r$/, ""));
  }

  /** How many lines a monitor has printed so far. */
  count(taskId: string): number {
    return this.#pending.get(taskId)?.total ?? 0;
  }

  /**
   * The lines not taken yet, one batch per monitor with any. `ended` names monitors whose command is gone: their
   * last piece without a newline counts as a line too.
   */
  take(ended: ReadonlySet<string> = new Set()): MonitorBatch[] {
    const batches: MonitorBatch[] = [];
    for (const [taskId, pending] of this.#pending) {
      if (ended.has(taskId) && pending.partial !== "") {
        this.#add(pending, pending.partial);
        pending.partial = "";
      }
      if (pending.lines.length === 0 && pending.omitted === 0) continue;
      batches.push({ taskId, description: pending.description, lines: pending.lines, omitted: pending.omitted });
      pending.lines = [];
      pending.omitted = 0;
    }
    return batches;
  }

  #add(pending: Pending, line: string): void {
    pending.total++;
    if (pending.lines.length >= MONITOR_EVENT_LINES_LIMIT) {
      pending.omitted++;
      return;
    }
    pending.lines.push(line.length > MONITOR_LINE_LIMIT ? `${line.slice(0, MONITOR_LINE_LIMIT)}…` : line);
  }
}
