/**
 * The non-streaming response body and the usage object, as the API spells them.
 */
import type { AssistantContentBlock, StopReason } from "../messages/index.js";
import type { AppliedEdit } from "./context-management.js";
import type { CacheUsage } from "./ledger.js";

export interface ResponseUsage extends CacheUsage {
  output_tokens: number;
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
  context_management?: { applied_edits: AppliedEdit[] };
}
