/**
 * Background finish after each turn: flush the transcript, then run the registered hooks (collapse
 * ctx-agent, session memory, metrics) without making the person wait for them.
 */

import type { TurnUsage } from "../loop/events.js";
import type { TimelineEntry } from "../messages/index.js";

export interface FinishContext {
  sessionId: string;
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

  /** Starts the hooks; they run after any still pending from the previous turn. */
  start(context: FinishContext): void {
    const hooks = this.#hooks.slice();
    this.#pending = this.#pending.then(() =>
      Promise.all(hooks.map((hook) => hook(context).catch((error: unknown) => this.#onError(error)))),
    );
  }

  /** Resolves when every started hook has finished. */
  async idle(): Promise<void> {
    await this.#pending;
  }
}
