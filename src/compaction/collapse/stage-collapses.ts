/**
 * The ctx-agent's background run after a turn: once the context reaches DEFAULT_COLLAPSE_STAGE_RATIO of the
 * effective window, stage the next finished-task span (one forked request). Never blocks the person: the
 * engine runs it as a background hook, and committing happens later, in the pass, without a model call.
 */
import type { CollapseSnapshotRecord, TimelineEntry } from "../../messages/index.js";
import type { ContextThresholds } from "../budget/context-thresholds.js";
import { tokenCountWithEstimation } from "../budget/thresholds.js";
import { projectApiView } from "../project-view.js";
import { type CompactionSettings, effectiveKeepRecent } from "../settings.js";
import type { ForkRunner } from "../summary/fork-runner.js";
import { stagedCollapses } from "./collapse-log.js";
import { runCtxAgent } from "./ctx-agent.js";

/** The ctx-agent starts staging spans at this fraction of the effective window: 0.6. */
export const DEFAULT_COLLAPSE_STAGE_RATIO = 0.6;

export interface StageInput {
  entries: readonly TimelineEntry[];
  settings: CompactionSettings;
  fork: ForkRunner;
  model: string;
  /** CompactionInput.thresholds (context-thresholds.ts). */
  thresholds: ContextThresholds;
  /** CompactionInput.tokenRatio. Default 1. */
  tokenRatio?: number;
  compactableTools: ReadonlySet<string>;
  sessionId: string;
  now: Date;
  /** Default DEFAULT_COLLAPSE_STAGE_RATIO. */
  stageRatio?: number;
}

/** The new snapshot to append, or undefined when collapse is off, the context is small, or nothing is finished. */
export async function stageCollapses(input: StageInput): Promise<CollapseSnapshotRecord | undefined> {
  if (!input.settings.collapse) return undefined;
  const view = projectApiView(input.entries, input.settings);
  const effective = input.thresholds.estimate.effective;
  if (tokenCountWithEstimation(view, input.tokenRatio) < effective * (input.stageRatio ?? DEFAULT_COLLAPSE_STAGE_RATIO))
    return undefined;
  return runCtxAgent({
    view,
    fork: input.fork,
    budget: effective,
    sessionId: input.sessionId,
    now: input.now,
    compactableTools: input.compactableTools,
    keepRecent: effectiveKeepRecent(input.settings),
    staged: stagedCollapses(input.entries),
  });
}
