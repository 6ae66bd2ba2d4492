/**
 * Timeline entries: the rich, append-only event vocabulary.
 * Message entries chain by `parentUuid`; records (collapse commits, latches, pins, titles) have no parent.
 * The wire request is derived from these by pure functions in `request/` at the last moment.
 */

import type { AssistantContentBlock, CacheEditsBlock, StopReason, Usage, UserContentBlock } from "./content.js";
import type { TurnUsage } from "./usage.js";

/** Fields every message entry carries. */
export interface EntryBase {
  uuid: string;
  parentUuid: string | null;
  /** ISO-8601 time of creation. */
  timestamp: string;
  sessionId: string;
  /** True for entries of a subagent's sidechain transcript. */
  isSidechain?: boolean;
  /** Subagent id when `isSidechain`. */
  agentId?: string;
}

export interface UserEntry extends EntryBase {
  type: "user";
  message: { role: "user"; content: string | UserContentBlock[] };
  /** Injected by the runtime (reminders, continuations), not typed by the person. */
  isMeta?: boolean;
  /** Shown in the UI, never sent (tool calls made inside the REPL tool). */
  isVirtual?: boolean;
  /** The summary message that starts the conversation after a compaction. */
  isCompactSummary?: boolean;
  /** For tool_result messages: uuid of the assistant entry holding the matching tool_use. */
  sourceToolAssistantUUID?: string;
  /** Structured tool output for the UI (not sent). */
  toolUseResult?: unknown;
}

/** One API response block: entries of the same response share `message.id`. */
export interface AssistantApiMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  /** Exactly one block per timeline entry. */
  content: [AssistantContentBlock];
  stop_reason: StopReason | null;
  stop_sequence?: string | null;
  usage?: Usage;
  /**
   * The server's cache diagnostics for this response, when it reported a miss (`diagnostics.cache_miss_reason`,
   * on the response's last block): kept in the transcript so `inspect` shows the server's reason per request.
   */
  diagnostics?: { cache_miss_reason: { type: string; cache_missed_input_tokens?: number } };
  /**
   * What the server changed in the request's input before the model saw it (`input_transformations`, on the
   * response's last block, only when it listed any): on a model that binds thinking, the thinking blocks a rewritten
   * prefix made it drop. `inspect` counts them per request.
   */
  input_transformations?: Array<{ type: string; path: string; reason: string }>;
}

export interface AssistantEntry extends EntryBase {
  type: "assistant";
  message: AssistantApiMessage;
  /** Synthetic error message made by the client (never sent; read by the media-stripping step). */
  isApiErrorMessage?: boolean;
  isVirtual?: boolean;
  /** Provider request id, when known. */
  requestId?: string;
}

export interface ProgressEntry extends EntryBase {
  type: "progress";
  toolUseID: string;
  data: { message: string; [key: string]: unknown };
}

/** Every system entry subtype threadline writes. */
export const SYSTEM_SUBTYPES = [
  "informational",
  "local_command",
  "api_error",
  "compact_boundary",
  "microcompact_boundary",
  "snip_boundary",
  "stream_superseded",
  "rewind",
] as const;

export type SystemSubtype = (typeof SYSTEM_SUBTYPES)[number];

export interface CompactMetadata {
  trigger: "auto" | "manual" | "reactive";
  preTokens: number;
  postTokens: number;
  /**
   * What the summary request(s) cost, summed from their recorded usage and priced at the model's cache prices
   * (absent: the compaction notes were the summary, no summary was requested, or a transcript from before this field).
   */
  summaryUsage?: TurnUsage;
  /**
   * Why the summary request was not a cache-safe fork of the main loop's last request (docs/PROMPT-CACHE.md "Forks"):
   * it was rewritten (results cleared or cut, media replaced, chunked) and its prefix written to the cache anew.
   * Absent: it was one, or no summary request was made.
   */
  notCacheSafe?: string;
}

export interface MicrocompactMetadata {
  /** time: the cache was cold; batch: a client-side batch that paid for its cache rewrite; cached: cache_edits. */
  trigger: "time" | "batch" | "cached" | "context_management";
  preTokens: number;
  tokensSaved: number;
  compactedToolIds: string[];
}

export interface SnipMetadata {
  removedUuids: string[];
}

/**
 * A rewind (docs/REWIND.md): the person went back to the end of the turn of prompt `promptUuid`. With
 * `conversation`, the view continues from there (the timeline rebuilds it from this record; nothing is
 * deleted); with `code`, the files the later turns changed were put back as they were before the next prompt.
 */
export interface RewindMetadata {
  promptUuid: string;
  /** Rewound to the start of the session: to just before prompt `promptUuid` (the first), not to its end. */
  beforePrompt?: boolean;
  conversation: boolean;
  code: boolean;
  /** Files written back (or removed, when they did not exist before), workspace-relative or absolute. */
  restored: string[];
  /** Files the later turns changed that could not be put back, each with why. */
  notRestorable: { path: string; reason: string }[];
}

export interface SystemEntry extends EntryBase {
  type: "system";
  subtype: SystemSubtype;
  content: string;
  level?: "info" | "warning" | "error";
  /** compact_boundary: the last entry before the boundary. */
  logicalParentUuid?: string | null;
  compactMetadata?: CompactMetadata;
  microcompactMetadata?: MicrocompactMetadata;
  snipMetadata?: SnipMetadata;
  rewindMetadata?: RewindMetadata;
  /** stream_superseded: partial assistant entries of a response that died mid-stream and was retried. */
  supersededUuids?: string[];
  /** api_error: retry bookkeeping. */
  retryAttempt?: number;
  retryInMs?: number;
}

export interface AttachmentEntry extends EntryBase {
  type: "attachment";
  attachment: {
    /** e.g. "context_efficiency", "file", "memory", "todo". */
    type: string;
    content: string;
    [key: string]: unknown;
  };
}

export type MessageEntry = UserEntry | AssistantEntry | ProgressEntry | SystemEntry | AttachmentEntry;

/** A committed collapse: the span firstArchivedUuid..lastArchivedUuid is shown to the API as `summary`. */
export interface CollapseCommitRecord {
  type: "collapse-commit";
  collapseId: string;
  summaryUuid: string;
  summary: string;
  firstArchivedUuid: string;
  lastArchivedUuid: string;
  timestamp: string;
  sessionId: string;
}

export interface StagedCollapse {
  startUuid: string;
  endUuid: string;
  summary: string;
  stagedAt: string;
}

/** The ctx-agent's staged (not yet committed) spans, latest snapshot wins. */
export interface CollapseSnapshotRecord {
  type: "collapse-snapshot";
  staged: StagedCollapse[];
  timestamp: string;
  sessionId: string;
}

/** Header latches: betas switched on in this session; the latest record wins. */
export interface LatchRecord {
  type: "latches";
  betas: string[];
  /** Features the server announced (e.g. "cache-editing"); kept across compactions, so a resume agrees. */
  features?: string[];
  timestamp: string;
  sessionId: string;
}

/** A cache_edits block pinned to a message index of the assembled request. */
export interface CacheEditPinRecord {
  type: "cache-edit-pin";
  messageIndex: number;
  block: CacheEditsBlock;
  timestamp: string;
  sessionId: string;
}

/** A tool definition as a tool-arrival record keeps it (the bytes the request sends inline). */
export interface ArrivedToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/**
 * Tools that arrived mid-conversation and were offered in a tool-change system message before the normalized
 * message at `beforeMessage` (counted from the latest compact boundary; docs/MCP.md). Kept with their
 * definitions so a resume sends the same bytes even when the server's list has changed since.
 */
export interface ToolArrivalRecord {
  type: "tool-arrival";
  beforeMessage: number;
  tools: ArrivedToolDefinition[];
  timestamp: string;
  sessionId: string;
}

/** What a side request (a one-shot forked request outside the turn's loop) was made for. */
export const SIDE_REQUEST_PURPOSES = [
  "compact",
  "collapse",
  "session-memory",
  "keep-warm",
  "web-fetch",
  "web-search",
] as const;

export type SideRequestPurpose = (typeof SIDE_REQUEST_PURPOSES)[number];

/**
 * A side request's bill: the summary of a compaction, a ctx-agent (collapse) run or a compaction-notes update.
 * Their answers never enter the conversation as assistant entries, so without this record the transcript
 * would hide requests the server served and billed.
 */
export interface SideRequestRecord {
  type: "side-request";
  purpose: SideRequestPurpose;
  model: string;
  usage: Usage;
  timestamp: string;
  sessionId: string;
}

/** What a request that failed was for: a step of the conversation ("turn") or a side request. */
export type FailedRequestPurpose = "turn" | SideRequestPurpose;

/**
 * A request that reached the server and was refused or failed (docs/CONTEXT-BUDGET.md, "Refused requests"):
 * a 400 "prompt is too long", a 429 or 529 the provider retried, a summary request refused. Bookkeeping only:
 * nothing of it is sent to the API and a resume or projection passes over it; without it the transcript would
 * show only the requests that were answered (issue 38: "1 requests" where 10 were sent).
 */
export interface RequestFailedRecord {
  type: "request-failed";
  purpose: FailedRequestPurpose;
  model: string;
  /** The provider's classification (`prompt_too_long`, `rate_limited`, `overloaded`, `server`, …). */
  kind: string;
  /** HTTP status, when the server answered with one (absent for an error event after a 200). */
  status?: number;
  /** Another attempt of the same request followed (the provider retried it). */
  retried: boolean;
  /** The server's message, first line, secrets redacted. */
  message: string;
  timestamp: string;
  sessionId: string;
}

/**
 * A request feature switched off for the rest of the session because the server refused it (a 400 naming
 * its field or beta). Records only add: a resumed session reads them all and never sends the feature again.
 */
export interface FeatureOffRecord {
  type: "feature-off";
  /** The feature id (`cache_editing`, `context_management`, `thinking`, `beta:<name>`, …). */
  feature: string;
  /** What the server said, secrets redacted: the evidence for the switch. */
  reason: string;
  timestamp: string;
  sessionId: string;
}

/**
 * How the pause after a turn is paid for (docs/PROMPT-CACHE.md, "Pauses"): recorded when the choice is made,
 * so `/cost` and `inspect` can show it beside what the pause really was and cost.
 */
export interface PauseChoiceRecord {
  type: "pause-choice";
  policy: "expire" | "one-hour" | "keep-warm";
  /** The TTL the turn's requests carried. */
  ttl: "5m" | "1h";
  /** Present when the system markers carried another TTL than `ttl` (the cold-start hedge: "1h"). */
  prefixTtl?: "5m" | "1h";
  /** With `prefixTtl`: tokens the turn wrote with it (the server's `ephemeral_1h_input_tokens`, summed). */
  prefixTokens?: number;
  /** Whether a setting forced it. */
  forced: boolean;
  /** Expected cost of each open policy (input-token equivalents) when chosen. */
  expected: Partial<Record<"expire" | "one-hour" | "keep-warm", number>>;
  /** Tokens the cache held and a turn writes, as the choice saw them. */
  contextTokens: number;
  turnWriteTokens: number;
  timestamp: string;
  sessionId: string;
}

/**
 * What the session learned about the server's token count (docs/CONTEXT-BUDGET.md): how many of the server's
 * tokens one estimated token is, and the window a server's own overflow error named. Recorded when either
 * changes, so a resumed session budgets as the live one did; the last record holds.
 */
export interface ContextBudgetRecord {
  type: "context-budget";
  /** The server's count ÷ the estimate (characters ÷ 4) for the same request; at least 1. */
  ratio: number;
  /** The window a server's overflow error named, when smaller than the model table's. Default none. */
  learnedWindow?: number;
  /**
   * The session sends lean tool definitions from here on: the full tools block took more than a quarter of the
   * server's window by its count (docs/CONTEXT-BUDGET.md "The fixed prefix"). Default false.
   */
  leanTools?: boolean;
  /** What the calibration learned from: the server's count and the estimate of that request. */
  reported: number;
  estimated: number;
  timestamp: string;
  sessionId: string;
}

export interface CustomTitleRecord {
  type: "custom-title";
  customTitle: string;
  sessionId: string;
}

/** Parentless records: they describe the conversation rather than continue it. */
export type TimelineRecord =
  | CollapseCommitRecord
  | CollapseSnapshotRecord
  | LatchRecord
  | CacheEditPinRecord
  | ToolArrivalRecord
  | SideRequestRecord
  | RequestFailedRecord
  | FeatureOffRecord
  | PauseChoiceRecord
  | ContextBudgetRecord
  | CustomTitleRecord;

/** Anything the timeline (and transcript) holds. */
export type TimelineEntry = MessageEntry | TimelineRecord;

const MESSAGE_TYPES: ReadonlySet<string> = new Set(["user", "assistant", "progress", "system", "attachment"]);

/** Whether an entry is a main-chain compact boundary (where a new message layout starts). */
export function isMainCompactBoundary(entry: TimelineEntry): entry is SystemEntry {
  return entry.type === "system" && entry.subtype === "compact_boundary" && entry.isSidechain !== true;
}

/** Cache-edit pins and main-chain compact boundaries (pins count from the last boundary). */
export function isPinOrCompactBoundary(entry: TimelineEntry): entry is CacheEditPinRecord | SystemEntry {
  return entry.type === "cache-edit-pin" || isMainCompactBoundary(entry);
}

/** Whether an entry is a rewind record that moves the conversation (not a code-only rewind). */
export function isConversationRewind(entry: TimelineEntry): entry is SystemEntry {
  return entry.type === "system" && entry.subtype === "rewind" && entry.rewindMetadata?.conversation === true;
}

/** Whether an entry is a message (has `uuid` and `parentUuid`) rather than a parentless record. */
export function isMessageEntry(entry: TimelineEntry): entry is MessageEntry {
  return MESSAGE_TYPES.has(entry.type);
}
