/** The contract between the agent loop and the compaction tiers. */
import type { CacheEditDelete, MessageEntry, TimelineEntry } from "../messages/index.js";
import type { ContextManagementEdit } from "../request/index.js";
import type { ForkRunner } from "./fork-runner.js";
import type { CompactionSettings } from "./settings.js";

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
  /** Effective model and context window (src/messages/models.ts, with any override). */
  model: string;
  contextWindow: number;
  /** Chain context for the records created. */
  sessionId: string;
  parentUuid: string | null;
  /** Tool names whose results may be cleared (Read, Bash, Grep, Glob, Edit, Write, WebSearch, WebFetch). */
  compactableTools: ReadonlySet<string>;
  /** Names of every tool the request offers; the server-side edit excludes the non-compactable ones. Default: none beyond DEFAULT_NEVER_CLEARED_TOOLS. */
  toolNames?: readonly string[];
  /** Model calls for tiers 3–4 (summary, urgent ctx-agent). Default none: those tiers then call no model. */
  fork?: ForkRunner;
  /** Per-session autocompact state (circuit breaker, session memory). Default: a fresh state each pass. */
  autoCompact?: AutoCompactSession;
  /**
   * Reads a file as the Read tool shows it, for re-attaching recently read files after a compaction
   * (undefined when it cannot be read). Default none: nothing is re-attached.
   */
  restoreFile?: (path: string) => Promise<string | undefined>;
  /** The prompt-cache TTL requests use (the time-based clear runs once the idle time passes it). Default "5m". */
  cacheTtl?: "5m" | "1h";
}

/** A summary kept up to date in the background (session memory), covering the conversation up to `throughUuid`. */
export interface SessionMemorySnapshot {
  summary: string;
  /** The last timeline message the summary covers. */
  throughUuid: string;
}

/** Autocompact state that outlives one pass: the circuit breaker and the session-memory source. */
export interface AutoCompactSession {
  /** Consecutive failed auto-compactions; at DEFAULT_MAX_CONSECUTIVE_FAILURES auto-compaction stops. */
  consecutiveFailures: number;
  /** Whether the "auto-compaction stopped" notice was already recorded. */
  trippedNoticeShown: boolean;
  /** The current session memory, when one is kept. Default none. */
  sessionMemory?: () => SessionMemorySnapshot | undefined;
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
}
