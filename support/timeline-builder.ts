/**
 * The one timeline builder for tests and benchmarks: deterministic uuids and a manual clock, entries made by
 * the real constructors and appended to a real Timeline. Driven by hand here, or by the messy ops of
 * `messy-timeline.ts` (which plays them onto a builder).
 */
import type {
  AssistantEntry,
  EntryContext,
  MessageEntry,
  TimelineEntry,
  ToolResultBlock,
  UserEntry,
} from "../src/messages/index.js";
import {
  createAssistantEntry,
  createToolResultEntry,
  createUserEntry,
  isMessageEntry,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "../src/messages/index.js";
import { Timeline } from "../src/timeline/index.js";
import type { ToolContext, ToolSessionAccess } from "../src/tools/types.js";

export const SESSION_ID = "session-test";
export const MODEL = "claude-sonnet-4-5";
export const COMPACTABLE_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Bash",
  "Grep",
  "Glob",
  "Edit",
  "Write",
  "WebSearch",
  "WebFetch",
]);

/** A uuid whose first 10 hex digits come from `seed` (so short ids are distinct and predictable). */
export function testUuid(seed: number): string {
  const hex = seed.toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4000-8000-${hex.padStart(12, "0")}`;
}

/**
 * Between the seeds of consecutive uuids: a prime, so consecutive entries differ in the uuid digits their snip
 * ids come from (compaction tests snip by id).
 */
export const DEFAULT_UUID_STRIDE = 7919;

export interface TimelineBuilderOptions {
  /** The clock before the first entry (each entry is one second later). Default 2025-01-01T00:00:00Z. */
  start?: Date;
  /** Between the seeds of consecutive uuids. Default `DEFAULT_UUID_STRIDE`. */
  uuidStride?: number;
}

export class TimelineBuilder {
  #timeline: Timeline;
  clock: Date;
  #seed = 1;
  #messageSeed = 0;
  readonly #uuidStride: number;

  constructor(options: TimelineBuilderOptions = {}) {
    this.#timeline = new Timeline();
    this.clock = options.start ?? new Date("2025-01-01T00:00:00.000Z");
    this.#uuidStride = options.uuidStride ?? DEFAULT_UUID_STRIDE;
  }

  /** The real Timeline the entries are appended to (tools given `toolContext` append to it too). */
  get timeline(): Timeline {
    return this.#timeline;
  }

  get entries(): readonly TimelineEntry[] {
    return this.#timeline.entries;
  }

  /** The message entries (what request assembly takes), in order. */
  get messages(): MessageEntry[] {
    return this.#timeline.entries.filter(isMessageEntry);
  }

  /** The seed the next entry's uuid is made from (1 for the first entry, then one more per entry). */
  get seed(): number {
    return this.#seed;
  }

  advance(ms: number): this {
    this.clock = new Date(this.clock.getTime() + ms);
    return this;
  }

  /** The next entry's context: one second later, the next uuid, the last message as parent. */
  context(): EntryContext {
    this.advance(1_000);
    return {
      sessionId: SESSION_ID,
      parentUuid: this.#timeline.lastMessage?.uuid ?? null,
      now: this.clock,
      uuid: testUuid(this.#seed++ * this.#uuidStride),
    };
  }

  /** Appends an entry made elsewhere (with `context()`). */
  append(entry: TimelineEntry): void {
    this.#timeline.append(entry);
  }

  /** Removes the entry before the last (what a snip or a superseded stream leaves: a gap in the API view). */
  dropBeforeLast(): void {
    const entries = this.#timeline.entries;
    if (entries.length <= 1) return;
    this.#timeline = new Timeline([...entries.slice(0, -2), entries[entries.length - 1]!]);
  }

  user(text: string, isMeta = false): UserEntry {
    const entry = createUserEntry(this.context(), [textBlock(text)], { isMeta });
    this.#timeline.append(entry);
    return entry;
  }

  nextMessageId(): string {
    return `msg_${++this.#messageSeed}`;
  }

  assistantText(text: string, messageId = this.nextMessageId()): AssistantEntry {
    const entry = createAssistantEntry(this.context(), textBlock(text), {
      messageId,
      model: MODEL,
      stopReason: "end_turn",
    });
    this.#timeline.append(entry);
    return entry;
  }

  /** One assistant entry holding a tool_use; returns the entry (its block id is the tool_use id). */
  toolUse(name: string, input: unknown, messageId = this.nextMessageId()): AssistantEntry {
    const id = `toolu_${String(this.#seed).padStart(6, "0")}`;
    const entry = createAssistantEntry(this.context(), toolUseBlock(id, name, input), {
      messageId,
      model: MODEL,
      stopReason: "tool_use",
    });
    this.#timeline.append(entry);
    return entry;
  }

  /** A user entry with results for the given tool_use entries (in order). */
  toolResults(uses: readonly AssistantEntry[], contents: readonly string[]): UserEntry {
    const blocks: ToolResultBlock[] = uses.map((use, index) => {
      const block = use.message.content[0];
      if (block.type !== "tool_use") throw new Error("not a tool_use entry");
      return toolResultBlock(block.id, contents[index] ?? "ok");
    });
    const entry = createToolResultEntry(this.context(), blocks, uses[0]?.uuid);
    this.#timeline.append(entry);
    return entry;
  }

  /** A full round: text + one tool call, then its result. Returns the tool_use entry and result entry. */
  round(name: string, result: string, text = "Working on it."): { use: AssistantEntry; result: UserEntry } {
    const messageId = this.nextMessageId();
    this.assistantText(text, messageId);
    const use = this.toolUse(name, { arg: name }, messageId);
    return { use, result: this.toolResults([use], [result]) };
  }
}

export function toolUseId(entry: AssistantEntry): string {
  const block = entry.message.content[0];
  if (block.type !== "tool_use") throw new Error("not a tool_use entry");
  return block.id;
}

/** A ToolContext whose session is the builder's real Timeline. */
export function toolContext(timeline: Timeline, toolUseIdValue: string): ToolContext {
  const session: ToolSessionAccess = {
    sessionId: SESSION_ID,
    entries: () => timeline.entries,
    append: (entry) => timeline.append(entry),
  };
  return {
    cwd: process.cwd(),
    additionalDirectories: [],
    signal: new AbortController().signal,
    toolUseId: toolUseIdValue,
    onProgress: () => {},
    session,
  };
}
