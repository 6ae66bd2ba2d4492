/**
 * The non-streaming response body and the usage object, as the API spells them.
 */

import type { CacheMissReason } from "../billing/cache-diagnostics.js";
import type { AppliedEdit } from "../billing/context-management.js";
import type { CacheUsage } from "../billing/ledger.js";
import type { CompactionResponseBlock, IterationUsage } from "../billing/server-compaction.js";
import type { AssistantContentBlock, StopReason } from "../content.js";
import type { InputTransformation } from "../model/thinking-binding.js";

export interface ResponseUsage extends CacheUsage {
  output_tokens: number;
  /** Always "standard" here (no priority or batch tiers). */
  service_tier?: "standard" | "priority" | "batch" | null;
  /** Server tools the emulator ran: web searches (model/web-search.ts); never web fetch. */
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number } | null;
  inference_geo?: string | null;
  speed?: "standard" | "fast" | null;
  output_tokens_details?: { thinking_tokens: number } | null;
  /** Per pass, when a server compaction ran (SDK `BetaIterationsUsage`). */
  iterations?: IterationUsage[];
}

export interface ResponseMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  /** The model's blocks; a server compaction opens with its `compaction` block (server-compaction.ts). */
  content: Array<AssistantContentBlock | CompactionResponseBlock>;
  /** `compaction` only when a compact_20260112 edit paused after compacting. */
  stop_reason: StopReason | "compaction" | null;
  stop_sequence: string | null;
  usage: ResponseUsage;
  /** No code-execution container is ever created: null, as the API says when none is in use. */
  container?: null;
  /** Detail for a refusal; null for every other stop. */
  stop_details?: null;
  /** Cache diagnostics: null unless the request asked for them and its prefix diverged (cache-diagnostics.ts). */
  diagnostics?: { cache_miss_reason: CacheMissReason } | null;
  context_management?: { applied_edits: AppliedEdit[] };
  /** Blocks the thinking prefix check dropped (model/thinking-binding.ts); only under the binding beta. */
  input_transformations?: InputTransformation[];
}
