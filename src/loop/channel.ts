/**
 * A tiny unbounded async queue: callbacks push, one consumer iterates. Lets tool progress reported from
 * callbacks flow out of the loop's async generator as it happens.
 */
export class Channel<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #closed = false;
  #waiter: (() => void) | undefined;

  push(item: T): void {
    this.#items.push(item);
    this.#notify();
  }

  close(): void {
    this.#closed = true;
    this.#notify();
  }

  /** Takes everything queued right now without waiting. */
  drain(): T[] {
    return this.#items.splice(0, this.#items.length);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      if (this.#items.length > 0) {
        yield this.#items.shift() as T;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
      });
    }
  }

  #notify(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}
