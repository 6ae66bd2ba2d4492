/**
 * Compaction notes (Claude Code calls the feature "session memory"; the class is named for what it holds, apart
 * from the memory files of memory/memory-files.ts): a summary of the session kept up to date in the background,
 * one file per session, so AutoCompact can use it instead of calling a model. It starts once the context reaches
 * DEFAULT_COMPACTION_NOTES_START_TOKENS and DEFAULT_COMPACTION_NOTES_START_SHARE of the autocompact threshold, and is refreshed after DEFAULT_COMPACTION_NOTES_UPDATE_TOKENS more
 * tokens of conversation and DEFAULT_COMPACTION_NOTES_UPDATE_TOOL_CALLS more tool calls. Each update is a
 * forked summary request (the parent's prefix, so it reads the cache).
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import {
  buildArtifactTrail,
  type CompactionNotesSnapshot,
  type ContextThresholds,
  DEFAULT_SUMMARY_MAX_TOKENS,
  estimateEntriesTokens,
  extractSummary,
  type ForkRunner,
  renderArtifactTrail,
  summaryInstruction,
  tokenCountWithEstimation,
} from "../compaction/index.js";
import { isMessageEntry, type MessageEntry, type TimelineEntry } from "../messages/index.js";
import { filterGrowing } from "../timeline/index.js";

/** Context size at which the compaction notes start: 10,000 tokens. */
export const DEFAULT_COMPACTION_NOTES_START_TOKENS = 10_000;

/**
 * Share of the autocompact threshold the context must reach before an update runs: 0.75. An update costs
 * about what the summary it replaces costs (it reads the context and writes a summary), so it only pays when
 * a compaction is near; while microcompact keeps the context small none is. Measured on the 220-step session
 * at 200K (bench/compaction-tiers.ts): updates from 10K tokens on ran 20 times in the defaults (127K of 2.51M,
 * no compaction ran) and made autocompact alone cost 3.727M, more than without compaction notes (3.709M); from
 * 0.6 of the threshold 3.645M, from 0.75 (and 0.8) 3.552M; above 0.8 the update would come too late to be
 * used by the compaction it prepares for.
 */
export const DEFAULT_COMPACTION_NOTES_START_SHARE = 0.75;

/** Conversation growth between updates: 5,000 tokens. */
export const DEFAULT_COMPACTION_NOTES_UPDATE_TOKENS = 5_000;

/** Tool calls between updates: 3. */
export const DEFAULT_COMPACTION_NOTES_UPDATE_TOOL_CALLS = 3;

/** The notes file's first line; its words are on disk in users' sessions, so they keep Claude Code's name. */
const HEADER = /^<!-- threadline session memory through=([0-9a-zA-Z-]+) tokens=(\d+) tools=(\d+) -->\n/;

export interface CompactionNotesOptions {
  /** File holding the memory. Default none (kept in memory only). */
  path?: string;
  /** Default DEFAULT_COMPACTION_NOTES_START_TOKENS. */
  startTokens?: number;
  /** Default DEFAULT_COMPACTION_NOTES_START_SHARE (of the autocompact threshold the session's budget holds). */
  startShare?: number;
  /** Default DEFAULT_COMPACTION_NOTES_UPDATE_TOKENS. */
  updateTokens?: number;
  /** Default DEFAULT_COMPACTION_NOTES_UPDATE_TOOL_CALLS. */
  updateToolCalls?: number;
}

function isMainChainMessage(entry: TimelineEntry): entry is MessageEntry {
  return isMessageEntry(entry) && !entry.isSidechain && entry.type !== "system";
}

function isToolCall(entry: TimelineEntry): boolean {
  return isMainChainMessage(entry) && entry.type === "assistant" && entry.message.content[0].type === "tool_use";
}

/**
 * Growth measures that only go up: every main-chain message's tokens, and every tool call. Measured after
 * every turn, so both lists continue from the previous turn's (filterGrowing) rather than rescanning.
 */
function progress(entries: readonly TimelineEntry[]): { tokens: number; toolCalls: number } {
  const messages = filterGrowing(entries, isMainChainMessage);
  return { tokens: estimateEntriesTokens(messages), toolCalls: filterGrowing(entries, isToolCall).length };
}

export class CompactionNotes {
  readonly #options: CompactionNotesOptions;
  #snapshot: CompactionNotesSnapshot | undefined;
  #at: { tokens: number; toolCalls: number } | undefined;

  constructor(options: CompactionNotesOptions = {}) {
    this.#options = options;
    const path = options.path;
    if (path !== undefined && existsSync(path)) {
      const text = readFileSync(path, "utf8");
      const header = HEADER.exec(text);
      if (header) {
        this.#snapshot = { throughUuid: header[1]!, summary: text.slice(header[0].length).trim() };
        this.#at = { tokens: Number(header[2]), toolCalls: Number(header[3]) };
      }
    }
  }

  /** The current memory, if one has been made. */
  snapshot(): CompactionNotesSnapshot | undefined {
    return this.#snapshot;
  }

  /** Whether the session has grown enough for a (first or next) update. */
  due(
    entries: readonly TimelineEntry[],
    view: readonly MessageEntry[],
    /** The session's calibration (context-budget.ts): reported usage in estimate units. Default 1. */
    ratio = 1,
  ): boolean {
    if (this.#at === undefined)
      return (
        tokenCountWithEstimation(view, ratio) >= (this.#options.startTokens ?? DEFAULT_COMPACTION_NOTES_START_TOKENS)
      );
    const now = progress(entries);
    return (
      now.tokens - this.#at.tokens >= (this.#options.updateTokens ?? DEFAULT_COMPACTION_NOTES_UPDATE_TOKENS) &&
      now.toolCalls - this.#at.toolCalls >=
        (this.#options.updateToolCalls ?? DEFAULT_COMPACTION_NOTES_UPDATE_TOOL_CALLS)
    );
  }

  /**
   * Refreshes the memory from `view` (the projected API view) with one forked request; false when skipped: the
   * view under DEFAULT_COMPACTION_NOTES_START_SHARE of the budget's autocompact threshold, or too big to fork (over its
   * effective window).
   */
  async update(
    entries: readonly TimelineEntry[],
    view: readonly MessageEntry[],
    fork: ForkRunner,
    /** The session's one context budget (compaction/budget/context-thresholds.ts): its threshold and effective window. */
    thresholds: ContextThresholds,
    /** The session's calibration (context-budget.ts). Default 1. */
    ratio = 1,
  ): Promise<boolean> {
    const { autocompact, effective: budget } = thresholds.estimate;
    const last = view.at(-1);
    if (last === undefined) return false;
    const share = this.#options.startShare ?? DEFAULT_COMPACTION_NOTES_START_SHARE;
    if (tokenCountWithEstimation(view, ratio) < share * autocompact) return false;
    const instruction = summaryInstruction(undefined, renderArtifactTrail(buildArtifactTrail(entries)));
    const request = {
      messages: view,
      instruction,
      maxTokens: DEFAULT_SUMMARY_MAX_TOKENS,
      purpose: "session-memory" as const,
    };
    if (fork.estimate(request) > budget) return false;
    const summary = extractSummary((await fork.run(request)).text);
    if (summary === "") return false;
    const at = progress(entries);
    this.#snapshot = { summary, throughUuid: last.uuid };
    this.#at = at;
    const path = this.#options.path;
    if (path !== undefined) {
      await mkdir(dirname(path), { recursive: true });
      const header = `<!-- threadline session memory through=${last.uuid} tokens=${at.tokens} tools=${at.toolCalls} -->\n`;
      await writeFile(path, `${header}${summary}\n`, "utf8");
    }
    return true;
  }
}
