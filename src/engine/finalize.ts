/**
 * Background finish after each turn: flush the transcript, then run the registered hooks (collapse
 * ctx-agent, compaction notes, metrics) without making the person wait for them — not even when the next
 * prompt comes while they still run: each hook gets a copy of the timeline as it stood when it began, and
 * the records it appends (a collapse snapshot) are parentless, so they may land in the middle of a turn.
 */

import type { TimelineEntry, TurnUsage } from "../messages/index.js";

export interface FinishContext {
  sessionId: string;
  /** The timeline when the hooks began (a copy: the next turn may already be appending). */
  entries: readonly TimelineEntry[];
  usage: TurnUsage;
}

/** A background task run after each turn; failures are reported, never thrown into the turn. */
export type BackgroundHook = (context: FinishContext) => Promise<void>;

export class BackgroundFinisher {
  readonly #hooks: BackgroundHook[] = [];
  #pending: Promise<unknown> = Promise.resolve();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  add(hook: BackgroundHook): void {
    this.#hooks.push(hook);
  }

  /** Starts the hooks once any still pending from the previous turn are done; `context` is read then. */
  start(context: () => FinishContext): void {
    const hooks = this.#hooks.slice();
    this.#pending = this.#pending.then(() => {
      const now = context();
      return Promise.all(hooks.map((hook) => hook(now).catch((error: unknown) => this.#onError(error))));
    });
  }

  /** Resolves when every started hook has finished. */
  async idle(): Promise<void> {
    await this.#pending;
  }
}
