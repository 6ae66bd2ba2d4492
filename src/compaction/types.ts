/** The contract between the agent loop and the compaction tiers. */
import type { CacheEditDelete, MessageEntry, TimelineEntry } from "../messages/index.js";
import type { ProviderCapabilities } from "../provider/types.js";
import type { ContextManagementEdit } from "../request/types.js";
import type { CompactionSettings } from "./settings.js";

export interface CompactionInput {
  /** The whole timeline (never edited: tiers return records instead). */
  entries: readonly TimelineEntry[];
  now: Date;
  settings: CompactionSettings;
  capabilities: ProviderCapabilities;
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
}

export interface CompactionOutput {
  /** The projected API view for assembleRequest (this turn's records already applied). */
  messages: MessageEntry[];
  /** Records to append before the request, in order, each chained to the previous. */
  records: TimelineEntry[];
  /** Cached path: deletes to place (and pin) this turn. */
  newCacheEdits: CacheEditDelete[];
  /** Pass as settings.cacheEditing to assembly (cache_reference marks and pinned blocks). */
  cacheEditing: boolean;
  /** Pass as settings.snipTags to assembly (short id tags on non-meta user messages). */
  snipTags: boolean;
  /** Public-API path: the `context_management` body field. */
  contextManagement?: { edits: ContextManagementEdit[] };
  /** Why the next cache read is expected to drop (time-based clear), for break detection. */
  expectCacheDrop?: string;
}
