/**
 * Builds realistic timelines for compaction tests: deterministic uuids and a manual clock, entries made by
 * the real constructors and appended to a real Timeline.
 */
import type { AssistantEntry, TimelineEntry, ToolResultBlock, UserEntry } from "../../src/messages/index.js";
import {
  createAssistantEntry,
  createToolResultEntry,
  createUserEntry,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "../../src/messages/index.js";
import { Timeline } from "../../src/timeline/index.js";
import type { ToolContext, ToolSessionAccess } from "../../src/tools/types.js";

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

export class TimelineBuilder {
  readonly timeline: Timeline;
  clock: Date;
  #seed: number;
  #messageSeed = 0;

  constructor(start = new Date("2025-01-01T00:00:00.000Z"), entries: TimelineEntry[] = [], seed = 1) {
    this.timeline = new Timeline(entries);
    this.clock = start;
    this.#seed = seed;
  }

  get entries(): readonly TimelineEntry[] {
    return this.timeline.entries;
  }

  advance(ms: number): this {
    this.clock = new Date(this.clock.getTime() + ms);
    return this;
  }

  #context() {
    this.advance(1_000);
    return {
      sessionId: SESSION_ID,
      parentUuid: this.timeline.lastMessage?.uuid ?? null,
      now: this.clock,
      uuid: testUuid(this.#seed++ * 7919),
    };
  }

  user(text: string, isMeta = false): UserEntry {
    const entry = createUserEntry(this.#context(), [textBlock(text)], { isMeta });
    this.timeline.append(entry);
    return entry;
  }

  nextMessageId(): string {
    return `msg_${++this.#messageSeed}`;
  }

  assistantText(text: string, messageId = this.nextMessageId()): AssistantEntry {
    const entry = createAssistantEntry(this.#context(), textBlock(text), {
      messageId,
      model: MODEL,
      stopReason: "end_turn",
    });
    this.timeline.append(entry);
    return entry;
  }

  /** One assistant entry holding a tool_use; returns the entry (its block id is the tool_use id). */
  toolUse(name: string, input: unknown, messageId = this.nextMessageId()): AssistantEntry {
    const id = `toolu_${String(this.#seed).padStart(6, "0")}`;
    const entry = createAssistantEntry(this.#context(), toolUseBlock(id, name, input), {
      messageId,
      model: MODEL,
      stopReason: "tool_use",
    });
    this.timeline.append(entry);
    return entry;
  }

  /** A user entry with results for the given tool_use entries (in order). */
  toolResults(uses: readonly AssistantEntry[], contents: readonly string[]): UserEntry {
    const blocks: ToolResultBlock[] = uses.map((use, index) => {
      const block = use.message.content[0];
      if (block.type !== "tool_use") throw new Error("not a tool_use entry");
      return toolResultBlock(block.id, contents[index] ?? "ok");
    });
    const entry = createToolResultEntry(this.#context(), blocks, uses[0]?.uuid);
    this.timeline.append(entry);
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
