/**
 * Records created in one compaction pass are chained: the first one's parent is the loop's current leaf,
 * each later one's parent is the record before it, so the transcript's parent chain stays a line.
 */
import type { EntryContext, TimelineEntry } from "../messages/index.js";
import { isMessageEntry } from "../messages/index.js";

export class RecordChain {
  readonly records: TimelineEntry[] = [];
  #parentUuid: string | null;

  constructor(
    readonly sessionId: string,
    parentUuid: string | null,
    readonly now: Date,
  ) {
    this.#parentUuid = parentUuid;
  }

  /** Context for the next record's constructor. */
  context(): EntryContext {
    return { sessionId: this.sessionId, parentUuid: this.#parentUuid, now: this.now };
  }

  push(record: TimelineEntry): void {
    this.records.push(record);
    if (isMessageEntry(record)) this.#parentUuid = record.uuid;
  }
}
