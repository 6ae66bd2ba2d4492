/**
 * The one writer of a session's entries. Every entry goes to the timeline (what the next request is built
 * from) and then to the transcript (what a resume reads), so the two can never disagree about order; the
 * chain context (parent = the timeline's last message, timestamp = now) is taken at the moment of writing.
 */
import {
  createSystemEntry,
  type EntryContext,
  type SystemEntry,
  type SystemSubtype,
  type TimelineEntry,
} from "../messages/index.js";
import type { Timeline } from "../timeline/index.js";
import type { TranscriptStore } from "../transcript/index.js";
import type { EngineEvent } from "./events.js";

/** The event that shows a recorded notice to the person. */
export type NoticeEvent = Extract<EngineEvent, { type: "notice" }>;

/** Extra fields of a system entry beyond its subtype, text and level. */
type SystemExtra = Parameters<typeof createSystemEntry>[3];

export class TurnRecorder {
  constructor(
    readonly sessionId: string,
    readonly timeline: Timeline,
    readonly transcript: TranscriptStore,
    readonly now: () => Date,
  ) {}

  /** Chain context for the next entry: parent = the timeline's last message, timestamp = now. */
  context(): EntryContext {
    return { sessionId: this.sessionId, parentUuid: this.timeline.lastMessage?.uuid ?? null, now: this.now() };
  }

  /** Appends to the timeline, then queues for the transcript (never blocks on I/O). */
  append(entry: TimelineEntry): void {
    this.timeline.append(entry);
    this.transcript.append(entry);
  }

  appendAll(entries: Iterable<TimelineEntry>): void {
    for (const entry of entries) this.append(entry);
  }

  /** Resolves once every entry appended so far is persisted. */
  flush(): Promise<void> {
    return this.transcript.flush();
  }

  /** Records a system entry (no event: bookkeeping such as `stream_superseded`). */
  system(subtype: SystemSubtype, content: string, extra: SystemExtra = {}): SystemEntry {
    const entry = createSystemEntry(this.context(), subtype, content, extra);
    this.append(entry);
    return entry;
  }

  /** Records a notice for the person (a system entry with its level) and returns the event that shows it. */
  notice(
    level: "warning" | "error",
    message: string,
    subtype: SystemSubtype = "informational",
    extra: SystemExtra = {},
  ): NoticeEvent {
    const entry = this.system(subtype, message, { level, ...extra });
    return { type: "notice", level, message, entry };
  }
}
