/**
 * The non-streaming response body and the usage object, as the API spells them.
 */
import type { AssistantContentBlock, StopReason } from "../../messages/index.js";
import type { AppliedEdit } from "../billing/context-management.js";
import type { CacheUsage } from "../billing/ledger.js";

export interface ResponseUsage extends CacheUsage {
  output_tokens: number;
  /** Always "standard" here (no priority or batch tiers). */
  service_tier?: "standard" | "priority" | "batch" | null;
  /** Server tools (web search, web fetch) the emulator ran: it runs none. */
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number } | null;
  inference_geo?: string | null;
  speed?: "standard" | "fast" | null;
  output_tokens_details?: { thinking_tokens: number } | null;
}

export interface ResponseMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: AssistantContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: ResponseUsage;
  /** No code-execution container is ever created: null, as the API says when none is in use. */
  container?: null;
  /** Detail for a refusal; null for every other stop. */
  stop_details?: null;
  /** Cache diagnostics (only when the request asked for them; the emulator reports no divergence). */
  diagnostics?: null;
  context_management?: { applied_edits: AppliedEdit[] };
}
