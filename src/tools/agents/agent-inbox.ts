/**
 * The inbox of a background agent run (SendMessage, docs/TOOLS.md "SendMessage"): messages wait here until the
 * run's loop takes them at the start of its next iteration (loop/side/inbox-messages.ts) and sends them as user
 * messages. Once the run has nothing left to do the inbox closes, so a message is either delivered or refused,
 * never queued for a run that will not read it.
 */
export class AgentInbox {
  #messages: string[] = [];
  #closed = false;

  /** Whether the run has finished reading (no message can be queued). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Queues `message`; false when the inbox is closed (nothing was queued). */
  send(message: string): boolean {
    if (this.#closed) return false;
    this.#messages.push(message);
    return true;
  }

  /** The messages queued since the last take, oldest first. */
  take(): string[] {
    return this.#messages.splice(0);
  }

  /**
   * The run is about to end: closes the inbox when nothing is waiting (returns []), otherwise returns what waits
   * and stays open (the run answers those first). Synchronous, so no send falls between the check and the close.
   */
  closeIfEmpty(): string[] {
    const waiting = this.take();
    if (waiting.length === 0) this.#closed = true;
    return waiting;
  }

  /** Closes it whatever waits (a stopped or failed run); what waited is dropped. */
  close(): void {
    this.#closed = true;
    this.#messages = [];
  }
}
