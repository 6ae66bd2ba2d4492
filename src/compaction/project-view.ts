/**
 * The API view as the next main-loop request will project it, without running any tier: the timeline's
 * API view, time-based clears, then committed collapses. Forked requests (ctx-agent, compaction notes,
 * manual compaction) send exactly this prefix, so they read the main loop's cache.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { apiViewWithErrors } from "../timeline/index.js";
import { collapseCommits, projectCollapses } from "./collapse/collapse-log.js";
import { timeClearedToolIds } from "./microcompact/time-based.js";
import { applyClearedToolResults } from "./results/compactable-results.js";
import type { CompactionSettings } from "./settings.js";

/** The projected API view of `entries` under `settings` (pure; the same entries give the same view). */
export function projectApiView(
  entries: readonly TimelineEntry[],
  settings: Pick<CompactionSettings, "microcompact" | "collapse">,
): MessageEntry[] {
  let view = apiViewWithErrors(entries);
  if (settings.microcompact) view = applyClearedToolResults(view, timeClearedToolIds(entries));
  if (settings.collapse) view = projectCollapses(view, collapseCommits(entries));
  return view;
}
