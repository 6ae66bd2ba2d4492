/** The shape of `threadline inspect`'s report (also its `--json` output). */

import type { CacheBreakKind, PauseSummary } from "../../cache/index.js";
import type { SideRequestPurpose } from "../../messages/index.js";

/** Which program wrote the transcript: threadline files start with a header line; Claude Code's do not. */
export type TranscriptFormat = "threadline" | "claude-code" | "unknown";

/** Token counts with their cost and hit ratio. */
export interface TokenTotals {
  requests: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  /** cache read / (input + cache read + cache write). */
  hitRatio: number;
  costUsd: number;
}

/**
 * What a request was for: a step of the conversation ("turn"), or a side request the transcript records
 * separately (a compaction summary, a ctx-agent collapse summary, a compaction-notes update).
 */
export type RequestPurpose = "turn" | SideRequestPurpose;

/** Why the server says the prompt cache missed (the API's cache diagnostics), when the response said. */
export interface ServerCacheMiss {
  /** `model_changed`, `system_changed`, `tools_changed`, `messages_changed`, `previous_message_not_found`, `unavailable`. */
  reason: string;
  /** Tokens that would have been read from the cache had the prefix matched, when given. */
  missedTokens: number | null;
}

/** One API request: one `message.id`, whatever number of records its blocks took. */
export interface InspectRequest {
  /** 1-based, in order of first appearance. */
  index: number;
  messageId: string;
  /** "main" or the subagent's id. */
  scope: string;
  model: string;
  /** Time of the response's first record, when the record had one. */
  timestamp: string | null;
  /** Line of the response's first record. */
  line: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  outputTokens: number;
  hitRatio: number;
  costUsd: number;
  purpose: RequestPurpose;
  /** Whether the model is in threadline's price table (else the cost uses fallback prices). */
  knownModel: boolean;
  /** Tool names the response called, in order (one per tool_use block). */
  tools: string[];
  /** 1-based user prompt this request answered (main scope), 0 before the first prompt. */
  prompt: number;
  /** What happened in the context just before this request (a compaction, a clear), in words; null if nothing. */
  after: string | null;
  serverCacheMiss: ServerCacheMiss | null;
  /**
   * Thinking blocks the server dropped from this request's input (`input_transformations` `thinking_dropped`): on a
   * model that binds thinking, what a rewritten prefix cost in reasoning the model no longer saw. 0 when none.
   */
  thinkingDropped: number;
}

/** The requests one user prompt caused (main scope; subagents' requests are counted by scope). */
export interface InspectPrompt {
  /** 1-based, in order. */
  index: number;
  timestamp: string | null;
  /** The prompt's first line, shortened. */
  text: string;
  /** Tool calls, by tool name. */
  tools: Record<string, number>;
  requests: number;
  costUsd: number;
  hitRatio: number;
  /** From the prompt to its last response, when both have times. */
  durationMs: number | null;
}

/** Something that changed the context, placed before the request it affected. */
export interface InspectEvent {
  /** Index of the first request after it (requests.length + 1 when none followed). */
  beforeRequest: number;
  kind: CompactionTier | "break";
  /** What happened, in words (a break's causes). */
  label: string;
}

/** "unknown": derived from usage alone; "expected": right after a compaction/snip record. */
export type InspectBreakKind = CacheBreakKind | "unknown" | "expected";

export interface InspectBreak {
  scope: string;
  /** Index of the request whose cache read dropped; null for a recorded notice no request matched. */
  requestIndex: number | null;
  previousCacheRead: number;
  cacheRead: number;
  drop: number;
  kind: InspectBreakKind;
  causes: string[];
  /** "server": the response's cache diagnostics; "notice": recorded by the live detector; "usage": derived here. */
  source: "server" | "notice" | "usage";
  /**
   * Beside a server-reported cause: what the live client detector found itself (its fingerprint causes) and
   * whether that names the server's reason. A disagreement is the client detector's bug.
   */
  client?: { causes: string[]; agrees: boolean };
  diffPath?: string;
  /** Time since the scope's previous request, when both had timestamps. */
  gapMs: number | null;
}

export type CompactionTier = "snip" | "microcompact" | "collapse" | "compact";

export interface CompactionSavings {
  tier: CompactionTier;
  /** Boundary or commit records of this tier. */
  events: number;
  /** Estimated tokens taken out of the context (characters / 4 where the record does not say). */
  tokensSaved: number;
  /**
   * Dollars at list prices: each saved token × the main requests after it × the model's cache-read price
   * (what carrying it would have cost at the cheapest rate).
   */
  savedUsd: number;
}

export interface MalformedLine {
  line: number;
  error: string;
}

/** One compact_boundary: what it bought and, when the record has it, what its summary requests cost. */
export interface InspectCompaction {
  trigger: string;
  preTokens: number;
  /** Null when the record has none (Claude Code's boundaries). */
  postTokens: number | null;
  /** Summed over its summary requests; null when not recorded (compaction notes, older transcripts). */
  summary: {
    requests: number;
    inputTokens: number;
    cacheReadInputTokens: number;
    cacheCreationInputTokens: number;
    outputTokens: number;
    costUsd: number;
  } | null;
}

/** A request the server refused or failed (docs/CONTEXT-BUDGET.md, "Refused requests"). */
export interface InspectRefusal {
  /** Line of the record that says so. */
  line: number;
  timestamp: string | null;
  /** "main" or the subagent's id. */
  scope: string;
  purpose: RequestPurpose;
  model: string;
  /** `prompt_too_long`, `rate_limited`, `overloaded`, `server`, … (the provider's classification). */
  kind: string;
  /** HTTP status, when known. */
  status: number | null;
  /** The request was sent again after this (the client retried it). */
  retried: boolean;
  message: string;
}

/** Every refusal, and how many of each kind. */
export interface InspectRefusals {
  requests: number;
  byKind: Record<string, number>;
  list: InspectRefusal[];
}

export interface InspectReport {
  format: TranscriptFormat;
  /** Lines that parsed as JSON records. */
  records: number;
  /** The requests that were answered (billed). */
  requests: InspectRequest[];
  /** The requests the server refused or failed: not billed, not in `requests` (issue 38). */
  refused: InspectRefusals;
  totals: TokenTotals;
  /** Totals per scope, main first. */
  scopes: Array<TokenTotals & { scope: string }>;
  breaks: InspectBreak[];
  compaction: CompactionSavings[];
  /** Every compaction in file order, main and subagent scopes alike. */
  compactions: InspectCompaction[];
  malformedLines: MalformedLine[];
  /** Records not used by the report, by type (summary, custom-title, file-history-snapshot, …). */
  skippedRecords: Record<string, number>;
  /** Main-scope requests grouped by the user prompt they answered. */
  prompts: InspectPrompt[];
  /** Compactions, clears and cache breaks in request order (for the page's timeline). */
  events: InspectEvent[];
  /** Models that are not in the price table: their cost uses fallback prices and may be wrong. */
  unknownModels: string[];
  /** How pauses between prompts were paid for (docs/PROMPT-CACHE.md, "Pauses"); absent when none was recorded. */
  pauses?: PauseSummary;
}
