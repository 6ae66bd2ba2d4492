/** The shape of `threadline inspect`'s report (also its `--json` output). */
import type { CacheBreakKind } from "../cache/index.js";

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
  /** "notice": cause recorded by the live detector; "usage": derived from the usage sequence. */
  source: "notice" | "usage";
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
}

export interface MalformedLine {
  line: number;
  error: string;
}

export interface InspectReport {
  format: TranscriptFormat;
  /** Lines that parsed as JSON records. */
  records: number;
  requests: InspectRequest[];
  totals: TokenTotals;
  /** Totals per scope, main first. */
  scopes: Array<TokenTotals & { scope: string }>;
  breaks: InspectBreak[];
  compaction: CompactionSavings[];
  malformedLines: MalformedLine[];
  /** Records not used by the report, by type (summary, custom-title, file-history-snapshot, …). */
  skippedRecords: Record<string, number>;
}
