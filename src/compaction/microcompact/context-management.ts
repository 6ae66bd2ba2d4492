/**
 * Microcompact for providers without cache editing: the public server-side edit
 * `clear_tool_uses_20250919`. The server decides when to clear; the edit is sent with the same bytes every
 * turn (its numbers depend only on settings, window and tool list) so it never shifts the request.
 */
import type { ClearToolUsesEdit } from "../../request/index.js";
import type { ContextThresholds } from "../budget/context-thresholds.js";

/** With small windows the trigger moves down to this fraction of the autocompact threshold, so it fires first. */
export const CONTEXT_MANAGEMENT_TRIGGER_AUTOCOMPACT_RATIO = 0.75;

/**
 * The trigger actually sent: the setting, capped below autocompact for small windows (at least 1). The server
 * compares it with its own count of the input, so the cap is the autocompact threshold in the server's tokens.
 */
export function contextManagementTrigger(settingTokens: number, thresholds: ContextThresholds): number {
  const cap = Math.floor(thresholds.server.autocompact * CONTEXT_MANAGEMENT_TRIGGER_AUTOCOMPACT_RATIO);
  return Math.max(1, Math.min(settingTokens, cap));
}

export interface ClearToolUsesInput {
  /** Already floored at MIN_KEEP_RECENT. */
  keepRecent: number;
  minClearTokens: number;
  triggerTokens: number;
  /** Tool names whose uses the server must never clear. */
  excludeTools: readonly string[];
}

/** The `context_management` edit for this session. */
export function clearToolUsesEdit(input: ClearToolUsesInput): ClearToolUsesEdit {
  const edit: ClearToolUsesEdit = {
    type: "clear_tool_uses_20250919",
    trigger: { type: "input_tokens", value: input.triggerTokens },
    keep: { type: "tool_uses", value: input.keepRecent },
    clear_at_least: { type: "input_tokens", value: input.minClearTokens },
  };
  if (input.excludeTools.length > 0) edit.exclude_tools = [...input.excludeTools];
  return edit;
}

/** Sorted, de-duplicated names that are offered or default-protected but not compactable. */
export function excludedToolNames(
  toolNames: Iterable<string>,
  neverCleared: Iterable<string>,
  compactableTools: ReadonlySet<string>,
): string[] {
  const names = new Set<string>();
  for (const name of [...toolNames, ...neverCleared]) if (!compactableTools.has(name)) names.add(name);
  return [...names].sort();
}
