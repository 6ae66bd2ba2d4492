/**
 * A clock that moves only when told, with timers, for the pause policy's tests and bench: the emulator and the
 * engine read `now`, keep-warm schedules on `setTimeout`, and `advance` runs what falls due, in order.
 */
export class VirtualClock {
  #now: number;
  #timers: Array<{ id: number; at: number; callback: () => void }> = [];
  #nextId = 1;

  constructor(start = Date.parse("2026-12-01T09:00:00Z")) {
    this.#now = start;
  }

  readonly now = (): number => this.#now;
  readonly date = (): Date => new Date(this.#now);

  readonly setTimeout = (callback: () => void, ms: number): unknown => {
    const id = this.#nextId++;
    this.#timers.push({ id, at: this.#now + Math.max(0, ms), callback });
    return id;
  };

  readonly clearTimeout = (handle: unknown): void => {
    this.#timers = this.#timers.filter((timer) => timer.id !== handle);
  };

  /** Timers waiting. */
  get pending(): number {
    return this.#timers.length;
  }

  /**
   * Moves time forward by `ms`, running each timer that falls due at its own time; `settle` is awaited after
   * each (so a timer's asynchronous work, such as a request, finishes before time moves on).
   */
  async advance(ms: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.#timers[0];
      if (next === undefined || next.at > end) break;
      this.#timers.shift();
      this.#now = next.at;
      next.callback();
      await settle();
    }
    this.#now = end;
  }
}
