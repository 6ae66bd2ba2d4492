/** The contract between the agent loop and the compaction tiers. */
import type { CacheEditDelete, MessageEntry, TimelineEntry } from "../messages/index.js";
import type { ContextManagementEdit } from "../request/index.js";
import type { ContextThresholds } from "./budget/context-thresholds.js";
import type { CompactionSettings } from "./settings.js";
import type { ForkRunner } from "./summary/fork-runner.js";

/**
 * What the server accepts, as far as the tiers care (the loop passes the provider's capabilities minus the
 * features the server refused this session).
 */
export interface CompactionCapabilities {
  /** Accepts `cache_edits` blocks and `cache_reference` on tool_results (microcompact's cached path). */
  cacheEdits: boolean;
  /** Accepts `context_management` edits (microcompact's server-side path). */
  contextManagement: boolean;
}

export interface CompactionInput {
  /** The whole timeline (never edited: tiers return records instead). */
  entries: readonly TimelineEntry[];
  now: Date;
  settings: CompactionSettings;
  capabilities: CompactionCapabilities;
  /** Effective model (src/messages/models.ts, with any override). */
  model: string;
  /**
   * The one context budget (context-thresholds.ts), as `budgetLimits` made it: the window in both units, the ratio,
   * the reserve, the thresholds and the compaction target. Tiers compare estimates with `thresholds.estimate`.
   */
  thresholds: ContextThresholds;
  /**
   * The server's count per estimated token (context-budget.ts): reported usage and a server's overflow numbers
   * are divided by it before they meet an estimate. Default 1.
   */
  tokenRatio?: number;
  /**
   * The request's fixed prefix (system and tools) in estimate units, as last sent: what no compaction removes,
   * so the compaction target leaves room above it (thresholds.ts `compactionTargetTokens`). Default 0.
   */
  fixedTokens?: number;
  /** Chain context for the records created. */
  sessionId: string;
  parentUuid: string | null;
  /** Tool names whose results may be cleared (Read, Bash, Grep, Glob, Edit, Write, WebSearch, WebFetch). */
  compactableTools: ReadonlySet<string>;
  /**
   * Tools whose calls change the one file an input field names, with that field (their `traits.changesFiles`):
   * their short answers are not taken as the newest look at a file a clear keeps (microcompact/kept-files.ts).
   * Default none.
   */
  fileChangingTools?: ReadonlyMap<string, string>;
  /** Names of every tool the request offers; the server-side edit excludes the non-compactable ones. Default: none beyond DEFAULT_NEVER_CLEARED_TOOLS. */
  toolNames?: readonly string[];
  /** Model calls for tiers 3–4 (summary, urgent ctx-agent). Default none: those tiers then call no model. */
  fork?: ForkRunner;
  /** Per-session autocompact state (circuit breaker, compaction notes). Default: a fresh state each pass. */
  autoCompact?: AutoCompactSession;
  /**
   * Reads a file as the Read tool shows it, for re-attaching recently read files after a compaction
   * (undefined when it cannot be read). Default none: nothing is re-attached.
   */
  restoreFile?: (path: string) => Promise<string | undefined>;
  /** More instructions for any summary this pass makes (a PreCompact hook's output). Default none. */
  extraInstructions?: string;
  /**
   * Texts attached again after a compaction boundary (loaded memory files), each one meta user message after
   * the summary, counted inside the post-compaction target. Default none.
   */
  restoreAttachments?: readonly string[];
  /**
   * Tokens the loop itself attaches right after this pass when a compaction took them out of the view (the
   * session's memory files, re-attached verbatim by memory/reattach), counted inside the post-compaction
   * target so the context after a compaction still fits it. Default 0.
   */
  reservedAttachmentTokens?: number;
  /** The prompt-cache TTL requests use (the time-based clear runs once the idle time passes it). Default "5m". */
  cacheTtl?: "5m" | "1h";
  /**
   * Runs right before every compaction (the PreCompact hooks), given the trigger and the person's own
   * instructions; text it returns joins the summary instructions. Default none.
   */
  beforeCompact?: (trigger: "auto" | "manual", instructions: string | undefined) => Promise<string | undefined>;
}

/** A summary kept up to date in the background (compaction notes), covering the conversation up to `throughUuid`. */
export interface CompactionNotesSnapshot {
  summary: string;
  /** The last timeline message the summary covers. */
  throughUuid: string;
}

/** Autocompact state that outlives one pass: the circuit breaker and the compaction-notes source. */
export interface AutoCompactSession {
  /** Consecutive failed auto-compactions; at DEFAULT_MAX_CONSECUTIVE_FAILURES auto-compaction stops. */
  consecutiveFailures: number;
  /** Whether the "auto-compaction stopped" notice was already recorded. */
  trippedNoticeShown: boolean;
  /** The current compaction notes, when they are kept. Default none. */
  compactionNotes?: () => CompactionNotesSnapshot | undefined;
  /** Context after the last auto-compaction (or the one that missed): the next needs growth from here. Default none. */
  lastCompactionTokens?: number;
  /** Whether the "compaction is not making room" notice was already recorded. Default false. */
  stalledNoticeShown?: boolean;
  /**
   * The view (`viewKey`) whose summary request last failed: the reactive chain does not ask the same model the
   * same question again (the autocompact summary, then the reactive one, with identical bytes). Default none.
   */
  failedSummaryView?: string | undefined;
}

export interface CompactionOutput {
  /** The projected API view for assembleRequest (this turn's records already applied). */
  messages: MessageEntry[];
  /** Records to append before the request, in order, each chained to the previous. */
  records: TimelineEntry[];
  /** Cached path: deletes to place (and pin) this turn. */
  newCacheEdits: CacheEditDelete[];
  /**
   * Pass as `relayBreakpoints` to assembly: tool_use_ids whose results get a cache marker just before them
   * (a public-path batch clear's unchanged prefix, and the next batch's). Empty when none.
   */
  relayBreakpoints: string[];
  /** Pass as settings.cacheEditing to assembly (cache_reference marks and pinned blocks). */
  cacheEditing: boolean;
  /** Pass as settings.snipTags to assembly (short id tags on non-meta user messages). */
  snipTags: boolean;
  /** Public-API path: the `context_management` body field. */
  contextManagement?: { edits: ContextManagementEdit[] };
  /** Why the next cache read is expected to drop (time-based clear), for break detection. */
  expectCacheDrop?: string;
  /** Estimated context tokens after this pass, when a tier changed the view (the last usage is then stale). */
  tokens?: number;
  /** A compaction happened: header latches reset (docs/PIPELINE.md §4). */
  compacted?: boolean;
  /** Estimated context before a compaction made by hand (summary/compact-entrances.ts `compactByHand`), messages only. Default: none made. */
  preTokens?: number;
}
