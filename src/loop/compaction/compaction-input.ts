/**
 * What the compaction tiers and the overflow recovery chain run on, with PreCompact hooks as compaction's
 * `beforeCompact`. Not a stage: the compact stage and the recover stage both build it (and the engine's
 * /compact uses the hooks).
 */
import type { BudgetLimits, CompactionInput } from "../../compaction/index.js";
import type { HookRunner } from "../../hooks/index.js";
import { loadedMemory } from "../../memory/index.js";
import { estimateTextTokens } from "../../messages/index.js";
import { compactableToolNames } from "../query-context.js";
import { capabilities, forkParent, type TurnState } from "../turn-state.js";

/**
 * What the tiers (and the overflow recovery chain) run on, taken now: the timeline as it stands, the model
 * in use, a fork for the tiers that call a model. Built afresh for every use, so a recovery after the
 * stream sees the entries the stream added.
 */
export function compactionInput(turn: TurnState, limits: BudgetLimits): CompactionInput {
  const { context } = turn;
  const { config, state, timeline } = context;
  return {
    entries: timeline.entries,
    now: context.now(),
    settings: config.compaction,
    capabilities: capabilities(turn),
    model: state.model,
    thresholds: limits.thresholds,
    ...(state.budget !== undefined && state.budget.ratio !== 1 ? { tokenRatio: state.budget.ratio } : {}),
    ...(state.budget?.fixedTokens ? { fixedTokens: state.budget.fixedTokens } : {}),
    sessionId: context.sessionId,
    parentUuid: timeline.lastMessage?.uuid ?? null,
    compactableTools: compactableToolNames(context.tools),
    fileChangingTools: fileChangingTools(context.tools),
    toolNames: [...context.tools.keys()],
    ...(context.forkFactory ? { fork: context.forkFactory(forkParent(turn)) } : {}),
    ...(context.autoCompact ? { autoCompact: context.autoCompact } : {}),
    ...(turn.restoreFile ? { restoreFile: turn.restoreFile } : {}),
    cacheTtl: config.cacheTtl ?? "5m",
    ...(context.memory !== undefined ? { reservedAttachmentTokens: memoryTokens(timeline.entries) } : {}),
    ...(context.hooks?.has("PreCompact") === true
      ? { beforeCompact: preCompactHooks(context.hooks, turn.hookNotices, context.signal) }
      : {}),
  };
}

/**
 * PreCompact hooks as compaction's `beforeCompact`: run with the trigger and the person's instructions; what
 * they print (stdout, or `additionalContext`) joins the summary instructions. Notices wait in `notices`.
 */
export function preCompactHooks(
  hooks: HookRunner,
  notices: string[],
  signal?: AbortSignal,
): NonNullable<CompactionInput["beforeCompact"]> {
  return async (trigger, instructions) => {
    const outcome = await hooks.run(
      "PreCompact",
      { trigger, custom_instructions: instructions ?? "" },
      trigger,
      signal,
    );
    notices.push(...outcome.notices);
    return outcome.context.length > 0 ? outcome.context.join("\n\n") : undefined;
  };
}

/** Each tool whose calls change one file, with the input field naming it (the tool's own `traits.changesFiles`). */
function fileChangingTools(tools: TurnState["context"]["tools"]): Map<string, string> {
  const fields = new Map<string, string>();
  for (const [name, tool] of tools) {
    const changes = tool.traits?.changesFiles;
    if (changes?.kind === "file") fields.set(name, changes.pathField);
  }
  return fields;
}

/** What the session's memory files take when re-attached after a compaction (after-compaction.ts reattachMemory). */
function memoryTokens(entries: CompactionInput["entries"]): number {
  return loadedMemory(entries).reduce((sum, memory) => sum + estimateTextTokens(memory.content), 0);
}
