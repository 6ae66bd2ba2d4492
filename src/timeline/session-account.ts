/**
 * The one account of a session (cost, tokens, requests, prompts, tool calls) that `QueryEngine.account()`
 * gives a library user and `/cost`, the status line, the demo summary and the resume recap format: a pure
 * function of the recorded timeline entries, so a resumed session, a `/clear` and a `/compact` give the same
 * figures as `inspect`, which reads the same records from the transcript file (docs/ARCHITECTURE.md, "One
 * account of a session").
 */
import {
  type AssistantEntry,
  addResponseUsage,
  emptyUsage,
  type ModelLimits,
  modelLimits,
  type TimelineEntry,
  type TurnUsage,
  type Usage,
} from "../messages/index.js";

/** Tokens a response's usage says the context held (input, cache read and write, output). */
export function usageContextTokens(usage: Usage): number {
  return (
    usage.input_tokens +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    usage.output_tokens
  );
}

/** What a session has cost and done so far. */
export interface SessionAccount {
  /** Every request the server answered: each response once (by message id), and every side request. */
  usage: TurnUsage;
  /** Prompts a person typed (not tool results, meta notes, summaries, or compaction's copies). */
  prompts: number;
  toolCalls: number;
  /** Tool results marked as errors. */
  toolErrors: number;
  /** From each prompt to the last response or tool result of its turn, by the entries' timestamps. */
  turnMillis: number;
  /** Tokens the last response said the context held, or undefined when a compaction came after it. */
  lastContextTokens: number | undefined;
}

/** The shape `CompactionCopies` needs: a record's type, subtype and timestamp (raw JSON or an entry). */
interface RecordShape {
  type?: unknown;
  subtype?: unknown;
  timestamp?: unknown;
  isSidechain?: unknown;
}

/**
 * Tells compaction's copies apart from what happened. A compaction writes, at one instant, its boundary,
 * the summary and copies of the messages it keeps (new uuids, same text, same message ids, no usage); those
 * copies are the kept tail again, not new prompts or answers. They are the records right after a main-chain
 * compact boundary that carry its timestamp.
 */
export class CompactionCopies {
  #boundaryTime: string | undefined;

  /** Feed every record in order; true when this one is part of a compaction's block (boundary included). */
  observe(record: RecordShape): boolean {
    if (record.type === "system" && record.subtype === "compact_boundary" && record.isSidechain !== true) {
      this.#boundaryTime = typeof record.timestamp === "string" ? record.timestamp : undefined;
      return true;
    }
    if (this.#boundaryTime !== undefined && record.timestamp === this.#boundaryTime) return true;
    // Parentless records (side requests, pins) may be written in between; they do not end the block.
    if (record.type === "user" || record.type === "assistant" || record.type === "system")
      this.#boundaryTime = undefined;
    return false;
  }
}

/** Whether a user entry is a prompt a person typed. */
export function isTypedPrompt(entry: TimelineEntry): boolean {
  if (entry.type !== "user") return false;
  if (entry.isMeta === true || entry.isCompactSummary === true || entry.isVirtual === true) return false;
  if (entry.isSidechain === true) return false;
  const content = entry.message.content;
  if (typeof content === "string") return content.trim() !== "";
  return content.some((block) => block.type === "text") && !content.some((block) => block.type === "tool_result");
}

/** The account of `entries` (a timeline's, in order). `overrides`: the session's model-limit overrides. */
export function accountSession(entries: readonly TimelineEntry[], overrides?: Partial<ModelLimits>): SessionAccount {
  const usage = emptyUsage();
  const priced = (model: string) => modelLimits(model, overrides);
  // A response is recorded as one entry per content block, each with the message's usage: count it once.
  const responses = new Map<string, AssistantEntry>();
  const copies = new CompactionCopies();
  const toolUses = new Set<string>();
  let prompts = 0;
  let toolErrors = 0;
  let turnMillis = 0;
  let turnStart: number | undefined;
  let turnEnd: number | undefined;
  let lastContext: number | undefined;
  const closeTurn = () => {
    if (turnStart !== undefined && turnEnd !== undefined) turnMillis += Math.max(0, turnEnd - turnStart);
    turnStart = undefined;
    turnEnd = undefined;
  };
  for (const entry of entries) {
    if (entry.type === "side-request") {
      addResponseUsage(usage, entry.usage, priced(entry.model));
      continue;
    }
    if (copies.observe(entry)) {
      if (entry.type === "system") lastContext = undefined; // the last response no longer describes it
      continue;
    }
    if (entry.type !== "user" && entry.type !== "assistant") continue;
    if (entry.isSidechain === true) continue;
    const at = Date.parse(entry.timestamp);
    if (isTypedPrompt(entry)) {
      closeTurn();
      prompts++;
      turnStart = Number.isFinite(at) ? at : undefined;
      continue;
    }
    if (Number.isFinite(at)) turnEnd = at;
    if (entry.type === "user") {
      const content = entry.message.content;
      if (typeof content !== "string")
        for (const block of content) if (block.type === "tool_result" && block.is_error === true) toolErrors++;
      continue;
    }
    if (entry.isApiErrorMessage === true || entry.isVirtual === true) continue;
    for (const block of entry.message.content) if (block.type === "tool_use") toolUses.add(block.id);
    const reported = entry.message.usage;
    if (reported === undefined) continue;
    responses.set(entry.message.id, entry);
    lastContext = usageContextTokens(reported);
  }
  closeTurn();
  for (const response of responses.values()) {
    if (response.message.usage !== undefined)
      addResponseUsage(usage, response.message.usage, priced(response.message.model));
  }
  return { usage, prompts, toolCalls: toolUses.size, toolErrors, turnMillis, lastContextTokens: lastContext };
}
