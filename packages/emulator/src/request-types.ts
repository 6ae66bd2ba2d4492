/**
 * The emulator's typed view of a `POST /v1/messages` body. It is only trusted after `validateRequest`
 * found nothing (or, in lenient mode, read defensively through the helpers that use it).
 */
import type { ApiMessage, CacheControl } from "./content.js";

export interface EmulatorSystemBlock {
  type: "text";
  text: string;
  cache_control?: CacheControl;
}

export interface EmulatorTool {
  name: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  cache_control?: CacheControl;
  [key: string]: unknown;
}

export interface EmulatorClearToolUsesEdit {
  type: "clear_tool_uses_20250919";
  trigger?: { type: "input_tokens" | "tool_uses"; value: number };
  keep?: { type: "tool_uses"; value: number };
  clear_at_least?: { type: "input_tokens"; value: number };
  exclude_tools?: string[];
  clear_tool_inputs?: boolean | string[];
}

export interface EmulatorClearThinkingEdit {
  type: "clear_thinking_20251015";
  keep?: { type: "thinking_turns"; value: number } | "all";
}

/** Server compaction: accepted, not emulated. */
export interface EmulatorCompactEdit {
  type: "compact_20260112";
  [key: string]: unknown;
}

export type EmulatorContextEdit = EmulatorClearToolUsesEdit | EmulatorClearThinkingEdit | EmulatorCompactEdit;

/** A messages request as the emulator reads it. */
export interface EmulatorRequest {
  model: string;
  max_tokens?: number;
  messages: ApiMessage[];
  system?: string | EmulatorSystemBlock[];
  tools?: EmulatorTool[];
  tool_choice?: { type: string; name?: string; disable_parallel_tool_use?: boolean };
  thinking?: { type: string; budget_tokens?: number };
  context_management?: { edits: EmulatorContextEdit[] };
  stream?: boolean;
  [key: string]: unknown;
}
