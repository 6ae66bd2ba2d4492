/**
 * A fast-check model of a session: operations that an engine would perform, built into timeline entries
 * with the engine's parent rule (each main-chain message points at the previous main-chain message).
 */
import fc from "fast-check";
import type { MessageEntry, SystemEntry, TimelineEntry } from "../../src/messages/index.js";
import {
  createApiErrorEntry,
  createAssistantEntry,
  createAttachmentEntry,
  createProgressEntry,
  createSystemEntry,
  createToolResultEntry,
  createUserEntry,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "../../src/messages/index.js";
import { testUuid } from "../../support/timeline-builder.js";

/** Strings that stress JSONL framing: line separators, lone surrogates, newlines, quotes, escapes. */
const SPECIAL = ["\u2028", "\u2029", "\ud800", "\udfff", "\udc00x\ud83d", "\n", "\r\n", '"', "\\", "\u0000", "é", "😀"];

export const textArbitrary: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...SPECIAL), fc.string({ unit: "binary", maxLength: 6 })),
    {
      minLength: 1,
      maxLength: 5,
    },
  )
  .map((parts) => parts.join(""));

export type Operation =
  | { kind: "user"; text: string; meta: boolean }
  | { kind: "response"; blocks: Array<"text" | "thinking" | "tool_use">; text: string; results: boolean }
  | { kind: "attachment"; text: string }
  | { kind: "system"; subtype: "informational" | "local_command" | "api_error"; text: string }
  | { kind: "api-error" }
  | { kind: "virtual"; text: string }
  | { kind: "sidechain"; agent: "a" | "b"; text: string }
  | { kind: "record"; which: "latches" | "custom-title" | "collapse-commit" | "collapse-snapshot" | "cache-edit-pin" }
  | { kind: "compact"; detached: boolean }
  | { kind: "microcompact" }
  | { kind: "superseded"; count: number }
  | { kind: "snip"; picks: number[] };

export const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("user" as const), text: textArbitrary, meta: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("response" as const),
      blocks: fc.array(fc.constantFrom("text" as const, "thinking" as const, "tool_use" as const), {
        minLength: 1,
        maxLength: 3,
      }),
      text: textArbitrary,
      results: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("attachment" as const), text: textArbitrary }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("system" as const),
      subtype: fc.constantFrom("informational" as const, "local_command" as const, "api_error" as const),
      text: textArbitrary,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "api-error" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("virtual" as const), text: textArbitrary }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("sidechain" as const),
      agent: fc.constantFrom("a" as const, "b" as const),
      text: textArbitrary,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("record" as const),
      which: fc.constantFrom(
        "latches" as const,
        "custom-title" as const,
        "collapse-commit" as const,
        "collapse-snapshot" as const,
        "cache-edit-pin" as const,
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("compact" as const), detached: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "microcompact" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("superseded" as const), count: fc.integer({ min: 1, max: 2 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("snip" as const),
      picks: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 4 }),
    }),
  },
);

export const SESSION_ID = "11111111-2222-4333-8444-555555555555";
const MODEL = "claude-sonnet-4-5";

/** Builds the entries the operations describe, with deterministic uuids and times. */
export function buildTimeline(operations: readonly Operation[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const messages: MessageEntry[] = [];
  let counter = 0;
  let mainLast: string | null = null;
  const sidechainLast = new Map<string, string>();
  const nextUuid = (): string => testUuid(++counter);
  const context = (sidechain?: "a" | "b") => {
    const parentUuid = sidechain === undefined ? mainLast : (sidechainLast.get(sidechain) ?? null);
    const base = {
      sessionId: SESSION_ID,
      parentUuid,
      uuid: nextUuid(),
      now: new Date(1_700_000_000_000 + counter * 1000),
    };
    return sidechain === undefined ? base : { ...base, isSidechain: true, agentId: `agent-${sidechain}` };
  };
  const push = (entry: TimelineEntry): void => {
    entries.push(entry);
    if (
      entry.type === "user" ||
      entry.type === "assistant" ||
      entry.type === "progress" ||
      entry.type === "system" ||
      entry.type === "attachment"
    ) {
      messages.push(entry);
      if (entry.isSidechain) sidechainLast.set(entry.agentId === "agent-a" ? "a" : "b", entry.uuid);
      else mainLast = entry.uuid;
    }
  };
  const timestamp = (): string => new Date(1_700_000_000_000 + counter * 1000).toISOString();

  for (const operation of operations) {
    switch (operation.kind) {
      case "user":
        push(createUserEntry(context(), operation.text, operation.meta ? { isMeta: true } : {}));
        break;
      case "response": {
        const messageId = `msg_${counter}`;
        const toolIds: string[] = [];
        let assistantUuid = "";
        operation.blocks.forEach((kind, index) => {
          const last = index === operation.blocks.length - 1;
          const block =
            kind === "text"
              ? textBlock(operation.text)
              : kind === "thinking"
                ? { type: "thinking" as const, thinking: operation.text, signature: "sig" }
                : toolUseBlock(`toolu_${counter}_${index}`, "Read", { file_path: `/tmp/${operation.text}` });
          if (block.type === "tool_use") toolIds.push(block.id);
          const entry = createAssistantEntry(context(), block, {
            messageId,
            model: MODEL,
            stopReason: last ? (toolIds.length > 0 ? "tool_use" : "end_turn") : null,
            ...(last ? { usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3 } } : {}),
          });
          assistantUuid = entry.uuid;
          push(entry);
        });
        if (operation.results && toolIds.length > 0) {
          for (const id of toolIds) push(createProgressEntry(context(), id, `reading ${operation.text}`));
          push(
            createToolResultEntry(
              context(),
              toolIds.map((id) => toolResultBlock(id, `contents of ${operation.text}\n\u2028line`)),
              assistantUuid,
              { type: "text", file: { filePath: operation.text, numLines: 2 } },
            ),
          );
        }
        break;
      }
      case "attachment":
        push(createAttachmentEntry(context(), "file", operation.text, { filename: "notes.md" }));
        break;
      case "system":
        push(createSystemEntry(context(), operation.subtype, operation.text, { level: "info" }));
        break;
      case "api-error":
        push(createApiErrorEntry(context(), "Image was too large. Try resizing the image or removing it."));
        break;
      case "virtual":
        push(createUserEntry(context(), operation.text, { isVirtual: true }));
        break;
      case "sidechain":
        push(createUserEntry(context(operation.agent), operation.text));
        break;
      case "record":
        push(recordOf(operation.which, timestamp(), counter));
        break;
      case "compact": {
        const last = mainLast;
        const entryContext = context();
        const boundary = createSystemEntry(
          operation.detached ? { ...entryContext, parentUuid: null } : entryContext,
          "compact_boundary",
          "Conversation compacted",
          { logicalParentUuid: last, compactMetadata: { trigger: "auto", preTokens: 1000, postTokens: 100 } },
        );
        push(boundary);
        push(
          createUserEntry(context(), "This session is being continued from a previous conversation…", {
            isCompactSummary: true,
          }),
        );
        break;
      }
      case "microcompact":
        push(
          createSystemEntry(context(), "microcompact_boundary", "cleared", {
            microcompactMetadata: { trigger: "time", preTokens: 100, tokensSaved: 50, compactedToolIds: [] },
          }),
        );
        break;
      case "superseded": {
        const partial: string[] = [];
        for (let index = 0; index < operation.count; index++) {
          const entry = createAssistantEntry(context(), textBlock(`partial ${index}`), {
            messageId: `msg_dead_${counter}`,
            model: MODEL,
          });
          partial.push(entry.uuid);
          push(entry);
        }
        push(createSystemEntry(context(), "stream_superseded", "retried", { supersededUuids: partial }));
        break;
      }
      case "snip": {
        if (messages.length === 0) break;
        const removed = [...new Set(operation.picks.map((pick) => messages[pick % messages.length]!.uuid))];
        const boundary: SystemEntry = createSystemEntry(context(), "snip_boundary", "snipped", {
          snipMetadata: { removedUuids: removed },
        });
        push(boundary);
        break;
      }
    }
  }
  return entries;
}

function recordOf(
  which: Extract<Operation, { kind: "record" }>["which"],
  timestamp: string,
  counter: number,
): TimelineEntry {
  switch (which) {
    case "latches":
      return { type: "latches", betas: [`beta-${counter}`], timestamp, sessionId: SESSION_ID };
    case "custom-title":
      return { type: "custom-title", customTitle: `title \u2028 ${counter}`, sessionId: SESSION_ID };
    case "collapse-commit":
      return {
        type: "collapse-commit",
        collapseId: `c${counter}`,
        summaryUuid: `s${counter}`,
        summary: "folded",
        firstArchivedUuid: "a",
        lastArchivedUuid: "b",
        timestamp,
        sessionId: SESSION_ID,
      };
    case "collapse-snapshot":
      return {
        type: "collapse-snapshot",
        staged: [{ startUuid: "a", endUuid: "b", summary: "x", stagedAt: timestamp }],
        timestamp,
        sessionId: SESSION_ID,
      };
    case "cache-edit-pin":
      return {
        type: "cache-edit-pin",
        messageIndex: counter % 7,
        block: { type: "cache_edits", edits: [{ type: "delete", cache_reference: `toolu_${counter}` }] },
        timestamp,
        sessionId: SESSION_ID,
      };
  }
}
