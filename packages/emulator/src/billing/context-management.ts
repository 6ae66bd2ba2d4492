/**
 * Server-side context management (beta context-management-2025-06-27): `clear_thinking_20251015` and
 * `clear_tool_uses_20250919` applied to a copy of the request before it is billed, reported back as
 * `context_management.applied_edits`. Cleared content changes the cached bytes from that point on.
 */
import type { ApiMessage, ContentBlock } from "../content.js";
import type { EmulatorClearThinkingEdit, EmulatorClearToolUsesEdit, EmulatorRequest } from "../request-types.js";
import { TokenRuler } from "../ruler.js";

/** Default trigger of clear_tool_uses: input tokens above which clearing starts. */
export const DEFAULT_CLEAR_TRIGGER_INPUT_TOKENS = 100_000;
/** Default number of most recent tool uses kept by clear_tool_uses. */
export const DEFAULT_KEEP_TOOL_USES = 3;
/** Default number of most recent assistant turns whose thinking clear_thinking keeps. */
export const DEFAULT_KEEP_THINKING_TURNS = 1;
/** What a cleared tool result says instead of its content. */
export const CLEARED_TOOL_RESULT_TEXT = "[cleared by context management]";

export type AppliedEdit =
  | { type: "clear_tool_uses_20250919"; cleared_tool_uses: number; cleared_input_tokens: number }
  | { type: "clear_thinking_20251015"; cleared_thinking_turns: number; cleared_input_tokens: number };

export interface ContextManagementResult {
  request: EmulatorRequest;
  appliedEdits: AppliedEdit[];
}

/** Applies the request's context-management edits (in order), measured with `ruler`; the input request is not modified. */
export function applyContextManagement(
  request: EmulatorRequest,
  ruler: TokenRuler = TokenRuler.unscaled,
): ContextManagementResult {
  const edits = request.context_management?.edits ?? [];
  let current = request;
  const appliedEdits: AppliedEdit[] = [];
  for (const edit of edits) {
    // Server compaction (compact_20260112) is accepted but not emulated: it leaves the request as it is.
    if (edit.type !== "clear_thinking_20251015" && edit.type !== "clear_tool_uses_20250919") continue;
    const applied =
      edit.type === "clear_thinking_20251015"
        ? clearThinking(current, edit, ruler)
        : clearToolUses(current, edit, ruler);
    current = applied.request;
    if (applied.edit) appliedEdits.push(applied.edit);
  }
  return { request: current, appliedEdits };
}

function copyWithMessages(request: EmulatorRequest, messages: ApiMessage[]): EmulatorRequest {
  return { ...request, messages };
}

function clearThinking(
  request: EmulatorRequest,
  edit: EmulatorClearThinkingEdit,
  ruler: TokenRuler,
): { request: EmulatorRequest; edit?: AppliedEdit } {
  if (edit.keep === "all") return { request };
  const keep = edit.keep?.value ?? DEFAULT_KEEP_THINKING_TURNS;
  const withThinking: number[] = [];
  request.messages.forEach((message, index) => {
    if (message.role === "assistant" && typeof message.content !== "string" && message.content.some(isThinking)) {
      withThinking.push(index);
    }
  });
  const clear = new Set(withThinking.slice(0, Math.max(0, withThinking.length - keep)));
  if (clear.size === 0) return { request };
  let clearedTokens = 0;
  const messages = request.messages.map((message, index) => {
    if (!clear.has(index) || typeof message.content === "string") return message;
    const kept: ContentBlock[] = [];
    for (const block of message.content) {
      if (isThinking(block)) clearedTokens += ruler.block(block);
      else kept.push(block);
    }
    return { ...message, content: kept };
  });
  return {
    request: copyWithMessages(request, messages),
    edit: { type: "clear_thinking_20251015", cleared_thinking_turns: clear.size, cleared_input_tokens: clearedTokens },
  };
}

function isThinking(block: ContentBlock): boolean {
  return block.type === "thinking" || block.type === "redacted_thinking";
}

function clearToolUses(
  request: EmulatorRequest,
  edit: EmulatorClearToolUsesEdit,
  ruler: TokenRuler,
): { request: EmulatorRequest; edit?: AppliedEdit } {
  const trigger = edit.trigger ?? { type: "input_tokens", value: DEFAULT_CLEAR_TRIGGER_INPUT_TOKENS };
  const excluded = new Set(edit.exclude_tools ?? []);
  // Tool uses in order: id → name.
  const uses: Array<{ id: string; name: string }> = [];
  for (const message of request.messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_use") uses.push({ id: block.id, name: block.name });
  }
  const measure = trigger.type === "tool_uses" ? uses.length : ruler.request(request);
  if (measure <= trigger.value) return { request };
  const keep = edit.keep?.value ?? DEFAULT_KEEP_TOOL_USES;
  const clearable = uses.slice(0, Math.max(0, uses.length - keep)).filter((use) => !excluded.has(use.name));
  const clearIds = new Set(clearable.map((use) => use.id));
  const clearInputsOf = (name: string): boolean =>
    edit.clear_tool_inputs === true || (Array.isArray(edit.clear_tool_inputs) && edit.clear_tool_inputs.includes(name));
  let clearedTokens = 0;
  let clearedCount = 0;
  const messages = request.messages.map((message) => {
    if (typeof message.content === "string") return message;
    let changed = false;
    const content = message.content.map((block): ContentBlock => {
      if (block.type === "tool_result" && clearIds.has(block.tool_use_id)) {
        const replacement = { ...block, content: CLEARED_TOOL_RESULT_TEXT };
        const saved = ruler.block(block) - ruler.block(replacement);
        if (saved <= 0) return block;
        clearedTokens += saved;
        clearedCount++;
        changed = true;
        return replacement;
      }
      if (block.type === "tool_use" && clearIds.has(block.id) && clearInputsOf(block.name)) {
        const replacement = { ...block, input: {} };
        clearedTokens += ruler.block(block) - ruler.block(replacement);
        changed = true;
        return replacement;
      }
      return block;
    });
    return changed ? { ...message, content } : message;
  });
  if (clearedCount === 0 || clearedTokens < (edit.clear_at_least?.value ?? 0)) return { request };
  return {
    request: copyWithMessages(request, messages),
    edit: { type: "clear_tool_uses_20250919", cleared_tool_uses: clearedCount, cleared_input_tokens: clearedTokens },
  };
}
