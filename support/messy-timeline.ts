/**
 * fast-check arbitraries for messy timelines: streams cut after any block, orphan and trailing thinking,
 * whitespace-only text, consecutive users and attachments, tool_use without result and results without
 * use, synthetic error messages, oversize images, virtual/progress/system noise, snipped-out entries.
 * Shared by the contract property test and bench/request-contract.ts. The entries are made by the one
 * `TimelineBuilder` (uuids, clock, parents); `MessyTimeline` only plays the ops onto it.
 */

import { signThinking } from "@threadline/emulator";
import fc from "fast-check";
import type {
  AssistantContentBlock,
  EntryContext,
  MessageEntry,
  ToolResultBlock,
  ToolResultContentBlock,
  UserContentBlock,
} from "../src/messages/index.js";
import {
  API_ERROR_TEXT,
  createApiErrorEntry,
  createAssistantEntry,
  createAttachmentEntry,
  createProgressEntry,
  createSystemEntry,
  createUserEntry,
  imageBlock,
  toolResultBlock,
} from "../src/messages/index.js";
import type { CacheEditPin, RequestSettings } from "../src/request/index.js";
import { TimelineBuilder, type TimelineBuilderOptions } from "./timeline-builder.js";

export const SIGNATURE_SECRET = "request-contract-secret";
/** A valid 1×1 PNG. */
export const TINY_PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
/** One shared oversize payload (5 MB + 1), so generating it costs nothing per case. */
export const OVERSIZE_IMAGE = "A".repeat(5 * 1024 * 1024 + 1);

const texts = fc.constantFrom("hello", "  padded  ", "", " ", "\n", "\n\t ", "line one\nline two", "trailing  ");
const meaningful = fc.constantFrom(
  "read the file",
  "ok",
  "fix it please",
  "<system-reminder>\nnote\n</system-reminder>",
);

export type TimelineOp =
  | { kind: "user"; text: string; meta: boolean }
  | { kind: "user-blocks"; texts: string[]; image: "none" | "small" | "oversize"; document: boolean; meta: boolean }
  | { kind: "attachment"; text: string }
  | {
      kind: "response";
      thinking: number;
      redacted: boolean;
      text: string | undefined;
      tools: number;
      cutAfter: number | undefined;
    }
  | {
      kind: "results";
      answer: number;
      shuffle: boolean;
      error: boolean;
      image: boolean;
      orphan: boolean;
      reminder: boolean;
    }
  | { kind: "api-error"; text: string }
  | { kind: "noise"; which: "progress" | "informational" | "local_command" | "virtual" }
  | { kind: "drop-previous" };

const op: fc.Arbitrary<TimelineOp> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("user" as const), text: fc.oneof(texts, meaningful), meta: fc.boolean() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("user-blocks" as const),
      texts: fc.array(fc.oneof(texts, meaningful), { maxLength: 3 }),
      image: fc.constantFrom("none" as const, "small" as const, "oversize" as const),
      document: fc.boolean(),
      meta: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("attachment" as const), text: fc.oneof(texts, meaningful) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("response" as const),
      thinking: fc.nat(2),
      redacted: fc.boolean(),
      text: fc.option(fc.oneof(texts, meaningful), { nil: undefined }),
      tools: fc.nat(3),
      cutAfter: fc.option(fc.nat(5), { nil: undefined }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("results" as const),
      answer: fc.nat(3),
      shuffle: fc.boolean(),
      error: fc.boolean(),
      image: fc.boolean(),
      orphan: fc.boolean(),
      reminder: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("api-error" as const),
      text: fc.constantFrom(...Object.values(API_ERROR_TEXT)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("noise" as const),
      which: fc.constantFrom(
        "progress" as const,
        "informational" as const,
        "local_command" as const,
        "virtual" as const,
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop-previous" as const) }) },
);

export const timelineOps: fc.Arbitrary<TimelineOp[]> = fc.array(op, { minLength: 1, maxLength: 24 });

/**
 * How messy timelines are built: uuid seeds one apart, so the first 256 entries share the snip id `0` the
 * request snapshots were recorded with (see `TimelineBuilderOptions.uuidStride`).
 */
export const MESSY_OPTIONS: TimelineBuilderOptions = { uuidStride: 1 };

/** Plays ops onto a TimelineBuilder; keeps what the next op needs, so a timeline can be grown op by op. */
export class MessyTimeline {
  readonly builder = new TimelineBuilder(MESSY_OPTIONS);
  /** The entries played so far (all message entries), in order. */
  readonly entries: MessageEntry[] = [];
  private pendingToolIds: string[] = [];
  private lastAssistantUuid: string | undefined;

  /** The seed the next entry's uuid comes from: ids made from it line up with that entry. */
  private get counter(): number {
    return this.builder.seed;
  }

  private context(): EntryContext {
    return this.builder.context();
  }

  private push(entry: MessageEntry): void {
    this.builder.append(entry);
    this.entries.push(entry);
  }

  apply(step: TimelineOp): void {
    switch (step.kind) {
      case "user":
        this.push(createUserEntry(this.context(), step.text, { isMeta: step.meta }));
        return;
      case "user-blocks": {
        const blocks: UserContentBlock[] = step.texts.map((text) => ({ type: "text", text }));
        if (step.image !== "none")
          blocks.push(imageBlock("image/png", step.image === "small" ? TINY_PNG : OVERSIZE_IMAGE));
        if (step.document) {
          blocks.push({ type: "document", source: { type: "text", media_type: "text/plain", data: "doc body" } });
        }
        this.push(createUserEntry(this.context(), blocks, { isMeta: step.meta }));
        return;
      }
      case "attachment":
        this.push(createAttachmentEntry(this.context(), "memory", step.text));
        return;
      case "response":
        this.response(step);
        return;
      case "results":
        this.results(step);
        return;
      case "api-error":
        this.push(createApiErrorEntry(this.context(), step.text));
        return;
      case "noise":
        this.noise(step.which);
        return;
      case "drop-previous":
        // What a snip or a superseded stream leaves: an entry missing from the API view.
        if (this.entries.length > 1) {
          this.entries.splice(this.entries.length - 2, 1);
          this.builder.dropBeforeLast();
        }
        return;
    }
  }

  private response(step: Extract<TimelineOp, { kind: "response" }>): void {
    const messageId = `msg_${this.counter}`;
    const blocks: AssistantContentBlock[] = [];
    for (let index = 0; index < step.thinking; index++) {
      const thinking = `thinking ${this.counter}.${index}`;
      blocks.push({ type: "thinking", thinking, signature: signThinking(thinking, SIGNATURE_SECRET) });
    }
    if (step.redacted) blocks.push({ type: "redacted_thinking", data: `redacted-${this.counter}` });
    if (step.text !== undefined) blocks.push({ type: "text", text: step.text });
    const toolIds: string[] = [];
    for (let index = 0; index < step.tools; index++) {
      const id = `toolu_${this.counter}_${index}`;
      toolIds.push(id);
      blocks.push({
        type: "tool_use",
        id,
        name: index % 2 === 0 ? "Read" : "Bash",
        input: { file_path: `/f${index}` },
      });
    }
    const kept = step.cutAfter === undefined ? blocks : blocks.slice(0, step.cutAfter);
    kept.forEach((block, index) => {
      const last = index === kept.length - 1;
      const entry = createAssistantEntry(this.context(), block, {
        messageId,
        model: "claude-sonnet-4-5",
        stopReason: last && step.cutAfter === undefined ? (toolIds.length > 0 ? "tool_use" : "end_turn") : null,
      });
      this.lastAssistantUuid = entry.uuid;
      this.push(entry);
    });
    this.pendingToolIds = kept.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
  }

  private results(step: Extract<TimelineOp, { kind: "results" }>): void {
    let ids = this.pendingToolIds.slice(0, Math.max(step.answer, 0) || this.pendingToolIds.length);
    if (step.shuffle) ids = ids.slice().reverse();
    const results: ToolResultBlock[] = ids.map((id, index) => {
      const content: ToolResultContentBlock[] = [
        { type: "text", text: index === 0 && step.error ? " " : `result of ${id}` },
      ];
      if (step.image && index === 0) content.push(imageBlock("image/png", TINY_PNG));
      return toolResultBlock(id, step.error && index === 0 ? content : content, step.error && index === 0);
    });
    if (step.orphan) results.push(toolResultBlock(`toolu_orphan_${this.counter}`, "stray"));
    if (results.length === 0) return;
    const blocks: UserContentBlock[] = [...results];
    if (step.reminder) blocks.push({ type: "text", text: "<system-reminder>\nfile changed\n</system-reminder>" });
    const options = this.lastAssistantUuid === undefined ? {} : { sourceToolAssistantUUID: this.lastAssistantUuid };
    this.push(createUserEntry(this.context(), blocks, options));
    this.pendingToolIds = [];
  }

  private noise(which: "progress" | "informational" | "local_command" | "virtual"): void {
    const context = this.context();
    switch (which) {
      case "progress":
        this.push(createProgressEntry(context, "toolu_x", "working"));
        return;
      case "informational":
        this.push(createSystemEntry(context, "informational", "notice"));
        return;
      case "local_command":
        this.push(createSystemEntry(context, "local_command", "<local-command-stdout>done</local-command-stdout>"));
        return;
      case "virtual":
        this.push(createUserEntry(context, "virtual call", { isVirtual: true }));
        return;
    }
  }

  /** Every tool_use id in the timeline (for generated cache edits). */
  toolUseIds(): string[] {
    const ids: string[] = [];
    for (const entry of this.entries) {
      if (entry.type !== "assistant") continue;
      const block = entry.message.content[0];
      if (block.type === "tool_use") ids.push(block.id);
    }
    return ids;
  }
}

export function buildTimeline(ops: readonly TimelineOp[]): MessyTimeline {
  const builder = new MessyTimeline();
  for (const step of ops) builder.apply(step);
  return builder;
}

export interface SettingsChoice {
  /** An older model (prefill allowed) or a newer one (prefill rejected). */
  model: "claude-sonnet-4-5" | "claude-sonnet-4-6";
  thinking: "off" | "adaptive" | "budget";
  budget: number;
  tools: boolean;
  toolChoice: "none" | "auto" | "any" | "tool";
  snipTags: boolean;
  cacheEditing: boolean;
  skipCacheWrite: boolean;
  ttl: "5m" | "1h";
  systemSegments: string[];
  contextManagement: boolean;
  maxTokens: number | undefined;
  pinIndexes: number[];
  newEdits: number;
}

export const settingsChoice: fc.Arbitrary<SettingsChoice> = fc.record({
  model: fc.constantFrom("claude-sonnet-4-5" as const, "claude-sonnet-4-6" as const),
  thinking: fc.constantFrom("off" as const, "adaptive" as const, "budget" as const),
  budget: fc.integer({ min: 0, max: 70_000 }),
  tools: fc.boolean(),
  toolChoice: fc.constantFrom("none" as const, "auto" as const, "any" as const, "tool" as const),
  snipTags: fc.boolean(),
  cacheEditing: fc.boolean(),
  skipCacheWrite: fc.boolean(),
  ttl: fc.constantFrom("5m" as const, "1h" as const),
  systemSegments: fc.array(fc.constantFrom("You are threadline.", "", "  ", "Environment: linux", "Memory: none"), {
    maxLength: 6,
  }),
  contextManagement: fc.boolean(),
  maxTokens: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
  pinIndexes: fc.array(fc.nat(30), { maxLength: 3 }),
  newEdits: fc.nat(3),
});

export const TOOLS = [
  {
    name: "Read",
    description: "Read a file",
    input_schema: { type: "object", properties: { file_path: { type: "string" } } },
  },
  {
    name: "Bash",
    description: "Run a command",
    input_schema: { type: "object", properties: { command: { type: "string" } } },
  },
];

export function settingsFrom(choice: SettingsChoice): RequestSettings {
  const settings: RequestSettings = {
    model: choice.model,
    systemPrompt: choice.systemSegments,
    tools: choice.tools ? TOOLS : [],
    snipTags: choice.snipTags,
    cacheEditing: choice.cacheEditing,
    skipCacheWrite: choice.skipCacheWrite,
    cacheTtl: choice.ttl,
  };
  if (choice.toolChoice !== "none") {
    settings.toolChoice = choice.toolChoice === "tool" ? { type: "tool", name: "Read" } : { type: choice.toolChoice };
  }
  if (choice.thinking === "adaptive") settings.thinking = { type: "adaptive" };
  if (choice.thinking === "budget") settings.thinking = { type: "enabled", budgetTokens: choice.budget };
  if (choice.contextManagement) settings.contextManagement = { edits: [{ type: "clear_tool_uses_20250919" }] };
  if (choice.maxTokens !== undefined) settings.maxTokens = choice.maxTokens;
  return settings;
}

/** Pins and new edits referring to the timeline's tool ids (some stale or duplicated on purpose). */
export function editsFrom(
  choice: SettingsChoice,
  toolIds: readonly string[],
): {
  pins: CacheEditPin[];
  newCacheEdits: { type: "delete"; cache_reference: string }[];
} {
  const pins = choice.pinIndexes.map((messageIndex, index) => ({
    messageIndex,
    block: {
      type: "cache_edits" as const,
      edits: [{ type: "delete" as const, cache_reference: toolIds[index] ?? `toolu_gone_${index}` }],
    },
  }));
  const newCacheEdits = toolIds
    .slice(0, choice.newEdits)
    .concat(choice.newEdits > 2 ? ["toolu_unknown"] : [])
    .map((id) => ({ type: "delete" as const, cache_reference: id }));
  return { pins, newCacheEdits };
}
