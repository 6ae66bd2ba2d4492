/**
 * Assistant entries from a provider's neutral events, one per content block. A block's entry is made when
 * the next block starts, and the last block's at `message_end`, which is when it is known to be the last:
 * only that one carries the stop reason and the usage. A retry forgets the block still waiting.
 */

import type { AssistantEntry } from "../messages/index.js";
import { type AssistantContentBlock, createAssistantEntry, type EntryContext } from "../messages/index.js";
import type { ProviderEvent } from "../provider/index.js";

export class AssistantEntries {
  /** The finished block whose entry waits for the next block start or the message's end. */
  #pending: { block: AssistantContentBlock; messageId: string } | null = null;
  #model = "";
  #requestId: string | undefined;

  /** `context` gives the chain context of each entry, called once per entry, in order. */
  constructor(private readonly context: () => EntryContext) {}

  /** The entries `event` completes (zero or one), in order. */
  push(event: ProviderEvent): AssistantEntry[] {
    switch (event.type) {
      case "message_start":
        this.#model = event.model;
        this.#requestId = event.requestId;
        return [];
      case "block_start":
        return this.#flush();
      case "block_end":
        this.#pending = { block: event.block, messageId: event.messageId };
        return [];
      case "message_end":
        return this.#flush(event);
      case "retry":
        this.#pending = null;
        return [];
      default:
        return [];
    }
  }

  /** The stream was cut: the finished block still waiting becomes an entry (it has no stop reason or usage). */
  cut(): AssistantEntry[] {
    return this.#flush();
  }

  #flush(end?: Extract<ProviderEvent, { type: "message_end" }>): AssistantEntry[] {
    const pending = this.#pending;
    if (pending === null) return [];
    this.#pending = null;
    const entry = createAssistantEntry(this.context(), pending.block, {
      messageId: pending.messageId,
      model: this.#model,
      ...(end !== undefined ? { stopReason: end.stopReason, usage: end.usage } : {}),
      ...(this.#requestId !== undefined ? { requestId: this.#requestId } : {}),
    });
    if (end?.stopSequence != null) entry.message.stop_sequence = end.stopSequence;
    if (end?.cacheMiss !== undefined) entry.message.diagnostics = { cache_miss_reason: { ...end.cacheMiss } };
    if (end?.inputTransformations !== undefined)
      entry.message.input_transformations = end.inputTransformations.map((item) => ({ ...item }));
    return [entry];
  }
}
