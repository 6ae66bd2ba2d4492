/**
 * Making a summary request fit (docs/ARCHITECTURE.md "Compaction target"). First the cache-safe fork: the view
 * as the main loop sent it plus the instruction, when it fits the window with the summary's max_tokens
 * (summary-fork.ts); only when it cannot (or the server refused it as too long) is it rewritten: media become
 * placeholders; a conversation over DEFAULT_SUMMARY_BUDGET_SLACK of the budget has its old tool results cleared
 * and its big recent ones cut; then an over-budget conversation is summarised in chunks (each chunk carrying the previous
 * chunk's summary), dropping the oldest rounds only when even `DEFAULT_MAX_SUMMARY_CHUNKS` chunks cannot
 * hold it. After a "prompt is too long" answer: drop the oldest API rounds covering the reported gap
 * (20 % when unreadable), keep at least one, at most `DEFAULT_MAX_PTL_RETRIES` retries.
 * No request the client's own estimate puts over the budget is ever sent.
 */
import { createUserEntry, estimateTextTokens, type MessageEntry, textBlock, type Usage } from "../../messages/index.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import { applyClearedToolResults, collectToolResults } from "../results/compactable-results.js";
import { DEFAULT_KEEP_RECENT } from "../settings.js";
import { type ApiRound, groupByApiRound, startsWithResponse } from "../tail/api-rounds.js";
import { cutResults } from "../tail/tail-budget.js";
import type { ForkRunner } from "./fork-runner.js";
import { cacheSafeForkMessages, forkInputRoom, forkTooBig } from "./summary-fork.js";
import { DEFAULT_SUMMARY_MAX_TOKENS, extractSummary, replaceMediaWithPlaceholders } from "./summary-request.js";

/** Share of the conversation dropped per retry when the server's numbers cannot be read: 20 %. */
export const DEFAULT_PTL_DROP_RATIO = 0.2;

/** Retries of a summary request the server found too long: 3. */
export const DEFAULT_MAX_PTL_RETRIES = 3;

/** Most chunks an over-budget conversation is summarised in (each is one model call): 3. */
export const DEFAULT_MAX_SUMMARY_CHUNKS = 3;

/**
 * Share of the budget the client's estimate may fill when the summary cannot be a cache-safe fork: 95 %. The
 * server counts a little differently (the emulator counts the JSON body); without the slack a request the
 * estimate put just under the window may come back 400. A conversation that fits the window with the summary's
 * max_tokens never gets here: it is sent as the main loop sent it (summary-fork.ts).
 */
export const DEFAULT_SUMMARY_BUDGET_SLACK = 0.95;

/** Estimate slack per chunk, so the normalised request stays under the budget: 5 %. */
const CHUNK_SLACK_RATIO = 0.95;

/** Fixed uuid of the synthetic entries below: only their content reaches the request, and it must be stable. */
const SYNTHETIC_UUID = "00000000-0000-4000-8000-00000000c0de";

function syntheticUser(sessionId: string, text: string): MessageEntry {
  return createUserEntry({ sessionId, parentUuid: null, uuid: SYNTHETIC_UUID }, [textBlock(text)], { isMeta: true });
}

/** Rounds to a request prefix: a conversation must start with a user message. */
function fromRounds(rounds: readonly ApiRound[], sessionId: string, lead?: string): MessageEntry[] {
  const entries = rounds.flatMap((round) => round.entries);
  if (lead !== undefined) return [syntheticUser(sessionId, lead), ...entries];
  if (entries[0]?.type !== "user") return [syntheticUser(sessionId, "[Earlier conversation omitted]"), ...entries];
  return entries;
}

/**
 * `messages` minus their oldest API rounds, enough to cover `gapTokens` (DEFAULT_PTL_DROP_RATIO of the total
 * when undefined); at least one round is kept. Undefined when nothing can be dropped.
 */
export function dropOldestRounds(
  messages: readonly MessageEntry[],
  gapTokens: number | undefined,
  sessionId: string,
): MessageEntry[] | undefined {
  const rounds = groupByApiRound(messages);
  if (rounds.length <= 1) return undefined;
  const total = rounds.reduce((sum, round) => sum + round.tokens, 0);
  const target = gapTokens !== undefined && gapTokens > 0 ? gapTokens : Math.ceil(total * DEFAULT_PTL_DROP_RATIO);
  let dropped = 0;
  let count = 0;
  while (count < rounds.length - 1 && dropped < target) dropped += rounds[count++]!.tokens;
  return fromRounds(rounds.slice(count), sessionId);
}

/** The view with every tool result but the `keepRecent` most recent cleared (a summary needs the gist). */
function clearOldResults(view: readonly MessageEntry[], keepRecent: number): MessageEntry[] {
  const results = collectToolResults(view);
  const old = results.slice(0, Math.max(0, results.length - keepRecent));
  return applyClearedToolResults(view, new Set(old.map((result) => result.toolUseId)));
}

export interface SummarizeOptions {
  fork: ForkRunner;
  instruction: string;
  /** Largest input of any request sent (the estimate is kept under DEFAULT_SUMMARY_BUDGET_SLACK of it). */
  budget: number;
  /** Output cap of each summary request. Default DEFAULT_SUMMARY_MAX_TOKENS. */
  maxTokens?: number;
  sessionId: string;
  /** Called once per model call made (for counting). */
  onCall?: () => void;
  /**
   * Why the request cannot be a cache-safe fork of the main loop's prefix, known before trying (a server that
   * refused the main request as too long). Default none: the fork is tried first (summary-fork.ts).
   */
  notCacheSafe?: string;
}

export interface SummarizeResult {
  summary: string;
  /** Model calls made, retries included. */
  calls: number;
  /** API rounds left out of every request (only when even the chunks could not hold them). */
  droppedRounds: number;
  /** The usage of every request that got an answer, in order (what the summary cost). */
  usages: Usage[];
  /** Why the summary was not a cache-safe fork of the main loop's prefix (absent: it was). */
  notCacheSafe?: string;
}

/** Sends one summary request, retrying after "prompt is too long" with the oldest rounds dropped. */
/** A summary under this many tokens may be far too short (see `summaryTooShort`): 100. */
export const MIN_SUMMARY_TOKENS = 100;

/** A summary shorter than this share of what it replaces may be far too short: 1 %. */
export const MIN_SUMMARY_SHARE = 0.01;

/**
 * A summary is noise, not the conversation, when it is both under MIN_SUMMARY_TOKENS and under MIN_SUMMARY_SHARE
 * of what it replaces (a model's stray "OK" for 10,000 tokens of work): a failed compaction, never the new
 * history (docs/CONTEXT-BUDGET.md).
 */
export function summaryTooShort(summaryTokens: number, replacedTokens: number): boolean {
  return summaryTokens < MIN_SUMMARY_TOKENS && summaryTokens < replacedTokens * MIN_SUMMARY_SHARE;
}

/** An answer that holds no usable summary (none, or far too short); `cutOff` when it ended at max_tokens. */
class UnusableSummaryError extends Error {
  constructor(
    message: string,
    readonly cutOff: boolean,
  ) {
    super(message);
  }
}

async function summarizeWithRetries(
  messages: readonly MessageEntry[],
  options: SummarizeOptions,
  counter: { calls: number; usages: Usage[] },
  maxRetries = DEFAULT_MAX_PTL_RETRIES,
): Promise<string> {
  let current = messages;
  for (let retry = 0; ; retry++) {
    counter.calls++;
    options.onCall?.();
    try {
      const result = await options.fork.run({
        messages: current,
        instruction: options.instruction,
        maxTokens: options.maxTokens ?? DEFAULT_SUMMARY_MAX_TOKENS,
      });
      counter.usages.push(result.usage);
      const summary = extractSummary(result.text);
      const cutOff = result.stopReason === "max_tokens";
      if (summary === "") throw new UnusableSummaryError("the summary request returned no summary", cutOff);
      const replaced = estimateEntriesTokens(current);
      const tokens = estimateTextTokens(summary);
      if (summaryTooShort(tokens, replaced))
        throw new UnusableSummaryError(
          `the summary (~${tokens} tokens) is far too short for the ~${replaced.toLocaleString("en-US")} tokens it replaces`,
          cutOff,
        );
      return summary;
    } catch (error) {
      const failure = options.fork.failure?.(error);
      if (failure?.kind !== "prompt_too_long" || retry >= maxRetries) throw error;
      const { actualTokens, maxTokens } = failure;
      const gap = actualTokens !== undefined && maxTokens !== undefined ? actualTokens - maxTokens : undefined;
      const smaller = dropOldestRounds(current, gap, options.sessionId);
      if (smaller === undefined) throw error;
      current = smaller;
    }
  }
}

/** Partitions rounds greedily into chunks of at most `capacity` tokens (a round larger than that is alone). */
function partition(rounds: readonly ApiRound[], capacity: number): ApiRound[][] {
  const chunks: ApiRound[][] = [];
  let current: ApiRound[] = [];
  let size = 0;
  for (const round of rounds) {
    if (current.length > 0 && size + round.tokens > capacity) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(round);
    size += round.tokens;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The summary of `view`: one request when it fits `budget`, else chunks. Throws when a request fails
 * (after its retries) or when no arrangement fits.
 */
export async function summarizeConversation(
  view: readonly MessageEntry[],
  options: SummarizeOptions,
): Promise<SummarizeResult> {
  const counter = { calls: 0, usages: [] as Usage[] };
  const maxTokens = options.maxTokens ?? DEFAULT_SUMMARY_MAX_TOKENS;
  const estimate = (messages: readonly MessageEntry[]): number =>
    options.fork.estimate({ messages, instruction: options.instruction, maxTokens });
  // First the cache-safe fork: the main loop's prefix as sent, read from the cache (summary-fork.ts).
  let notCacheSafe = options.notCacheSafe;
  if (notCacheSafe === undefined) {
    const window = options.fork.estimateWindow;
    const forked = cacheSafeForkMessages(view, forkInputRoom(window, maxTokens), estimate);
    if (forked === undefined) notCacheSafe = forkTooBig(view, maxTokens, window);
    else {
      try {
        const summary = await summarizeWithRetries(forked, options, counter, 0);
        return { summary, calls: counter.calls, droppedRounds: 0, usages: counter.usages };
      } catch (error) {
        // An answer cut off at a small max_tokens (a long conversation to name in a small window) may fit when
        // the conversation is shorter: the cleared way is tried once more before the compaction fails. A model
        // that answered with no summary and was not cut off would only do it again (issue 58): not asked twice.
        if (error instanceof UnusableSummaryError && error.cutOff)
          notCacheSafe = `the forked summary was unusable (${error.message})`;
        else if (options.fork.failure?.(error).kind === "prompt_too_long")
          notCacheSafe = "the server found the forked summary request too long";
        else throw error;
      }
    }
  }
  const why = notCacheSafe;
  const done = (result: Omit<SummarizeResult, "notCacheSafe">): SummarizeResult => ({ ...result, notCacheSafe: why });
  const budget = Math.floor(options.budget * DEFAULT_SUMMARY_BUDGET_SLACK);
  options = { ...options, budget };
  let messages = replaceMediaWithPlaceholders(view);
  if (estimate(messages) > budget) messages = clearOldResults(messages, DEFAULT_KEEP_RECENT);
  // The recent results that stay get an equal share of what is left; bigger ones are cut with a note.
  if (estimate(messages) > budget) messages = cutRecentResults(messages, budget - estimate([]));
  if (estimate(messages) <= budget) {
    const summary = await summarizeWithRetries(messages, options, counter);
    return done({ summary, calls: counter.calls, droppedRounds: 0, usages: counter.usages });
  }

  // Chunked: each chunk's request is [previous summary] + its rounds + the instruction.
  let rounds = groupByApiRound(messages);
  const overhead = estimate([syntheticUser(options.sessionId, "x")]);
  // Room for the carried summary: what one summary may grow to, capped at a quarter of the budget.
  // one-ruler: a share of a token budget, not characters ÷ 4.
  const carry = Math.min(DEFAULT_SUMMARY_MAX_TOKENS, Math.floor(options.budget / 4));
  const capacity = Math.floor((options.budget - overhead - carry) * CHUNK_SLACK_RATIO);
  if (capacity <= 0) throw new Error(`the summary budget (${options.budget} tokens) leaves no room for conversation`);
  // A round that cannot fit any chunk loses its tool results; one that still cannot is left out.
  rounds = rounds
    .map((round) => (round.tokens <= capacity ? round : clearedRound(round)))
    .filter((round) => round.tokens <= capacity);
  let droppedRounds = groupByApiRound(messages).length - rounds.length;
  let chunks = partition(rounds, capacity);
  while (chunks.length > DEFAULT_MAX_SUMMARY_CHUNKS && rounds.length > 1) {
    rounds = rounds.slice(1);
    droppedRounds++;
    chunks = partition(rounds, capacity);
  }
  let summary: string | undefined;
  for (const chunk of chunks) {
    const lead =
      summary === undefined
        ? startsWithResponse(chunk[0]!)
          ? "[Earlier conversation omitted]"
          : undefined
        : `Summary of the earlier part of this session:\n\n${summary}`;
    let chunkMessages = fromRounds(chunk, options.sessionId, lead);
    if (estimate(chunkMessages) > options.budget) chunkMessages = clearOldResults(chunkMessages, 0);
    if (estimate(chunkMessages) > options.budget)
      throw new Error(`a summary chunk is still over the budget of ${options.budget} tokens`);
    summary = await summarizeWithRetries(chunkMessages, options, counter);
  }
  if (summary === undefined) throw new Error("nothing to summarise");
  return done({ summary, calls: counter.calls, droppedRounds, usages: counter.usages });
}

/** `view` with each of its last DEFAULT_KEEP_RECENT results above an equal share of `room` cut to that share. */
function cutRecentResults(view: readonly MessageEntry[], room: number): MessageEntry[] {
  const results = collectToolResults(view);
  const recent = results.slice(-DEFAULT_KEEP_RECENT);
  const rest = estimateEntriesTokens(view) - recent.reduce((sum, result) => sum + result.tokens, 0);
  const share = Math.floor((room - rest) / Math.max(1, recent.length));
  if (share <= 0) return view.slice();
  const caps = new Map(recent.filter((result) => result.tokens > share).map((result) => [result.toolUseId, share]));
  return cutResults(view, caps).entries;
}

function clearedRound(round: ApiRound): ApiRound {
  const entries = clearOldResults(round.entries, 0);
  return { entries, tokens: estimateEntriesTokens(entries) };
}
