/**
 * What the loop does after compaction made records — the one after-work, whichever door they came through: the
 * tiers' pass and /compact (stage-compact.ts) and the prompt-too-long chain's steps (stage-recover.ts). Not a
 * stage: both stages call it (docs/ARCHITECTURE.md "One entrance for compaction"; issue 54).
 *
 * In order: the records appended; memory files and the task list a compaction took out of the view recorded
 * again; the PreCompact hooks' notices; after a compaction the PostCompact and SessionStart ("compact") hooks,
 * the header latches reset (docs/PIPELINE.md §4), the compaction's target noted for the next response, and the
 * cache drop it causes expected (docs/PIPELINE.md §8).
 */
import type { BudgetLimits } from "../compaction/index.js";
import { hookContextEntries } from "../hooks/index.js";
import { attachmentExtra, loadedMemory, MEMORY_ATTACHMENT_TYPE, memoryToReattach } from "../memory/index.js";
import { createAttachmentEntry, type MessageEntry, type TimelineEntry } from "../messages/index.js";
import { emptyLatches, fromLastCompaction } from "../request/index.js";
import { apiViewWithErrors } from "../timeline/index.js";
import { expectCompactionTarget } from "./budget/budget-learning.js";
import { reattachTodos } from "./compaction/todo-reattach.js";
import type { EngineEvent } from "./events.js";
import type { TurnState } from "./turn-state.js";

/** What a door left: its records, and whether they compacted the conversation (a boundary, latches reset). */
export interface CompactionDone {
  records: readonly TimelineEntry[];
  /**
   * The view the next request sends, when the door projected it (the tiers' pass); the after-work appends what it
   * re-attaches. Absent: the timeline with the records appended, projected as the next pass will.
   */
  messages?: MessageEntry[];
  compacted?: boolean;
  /** Who asked, as Claude Code's hooks name it: a person's /compact, or anything automatic (reactive included). */
  trigger: "auto" | "manual";
  /** Why the next cache read may drop (a recovery step's reason); after a compaction, "compaction" when absent. */
  cacheDrop?: string;
}

/** Runs the after-work for `done` and returns the view the next request sends (re-attached entries included). */
export async function* afterCompaction(
  turn: TurnState,
  limits: BudgetLimits,
  done: CompactionDone,
): AsyncGenerator<EngineEvent, MessageEntry[]> {
  const { context } = turn;
  for (const record of done.records) {
    turn.recorder.append(record);
    if (record.type === "system" || record.type === "attachment") yield { type: "entry", entry: record };
  }
  const view = { messages: done.messages ?? apiViewWithErrors(context.timeline.entries) };
  yield* reattachMemory(turn, view);
  yield* reattachTodos(turn, view);
  for (const notice of turn.hookNotices.splice(0)) yield turn.recorder.notice("warning", notice);
  if (done.compacted === true) yield* compactionHooks(turn, done, view);
  // Latches reset on compaction (docs/PIPELINE.md §4); the boundary makes a resume agree.
  if (done.compacted === true) context.state.latches = emptyLatches();
  if (done.compacted === true) expectCompactionTarget(turn, limits);
  const drop = done.cacheDrop ?? (done.compacted === true ? "compaction" : undefined);
  if (drop !== undefined) context.cacheDetector?.expectDrop(drop); // docs/PIPELINE.md §8: not a break
  return view.messages;
}

/**
 * PostCompact hooks (Claude Code's: the trigger and the summary the conversation now starts from), then
 * SessionStart hooks with source "compact": the session starts over from its summary.
 */
async function* compactionHooks(
  turn: TurnState,
  done: CompactionDone,
  view: { messages: MessageEntry[] },
): AsyncGenerator<EngineEvent> {
  const { context } = turn;
  if (context.hooks?.has("PostCompact") === true) {
    const fields = { trigger: done.trigger, compact_summary: compactSummary(done.records) };
    const outcome = await context.hooks.run("PostCompact", fields, done.trigger, context.signal);
    for (const notice of outcome.notices) yield turn.recorder.notice("warning", notice);
  }
  if (context.hooks?.has("SessionStart") === true) {
    const outcome = await context.hooks.run("SessionStart", { source: "compact" }, "compact", context.signal);
    const entries = hookContextEntries(turn.recorder.context(), "SessionStart", outcome.context);
    for (const entry of entries) {
      turn.recorder.append(entry);
      yield { type: "entry", entry };
    }
    // Sent in this request too; the records sit at the timeline's end, where the next pass projects them.
    if (entries.length > 0) view.messages = [...view.messages, ...entries];
    for (const notice of outcome.notices) yield turn.recorder.notice("warning", notice);
  }
}

/** The text of the summary a compaction recorded ("" when it recorded none, as a server compaction may not). */
function compactSummary(records: readonly TimelineEntry[]): string {
  const summary = records.find((record) => record.type === "user" && record.isCompactSummary === true);
  if (summary?.type !== "user") return "";
  const content = summary.message.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/**
 * Memory files a tier took out of the view are recorded again, verbatim, and sent in this request: the
 * records land at the end of the timeline, so the next pass projects them at the same place
 * (docs/MEMORY.md "Kept through compaction").
 */
function* reattachMemory(turn: TurnState, view: { messages: MessageEntry[] }): Generator<EngineEvent> {
  const { context, recorder } = turn;
  if (context.memory === undefined) return;
  // What the request will hold: a server compaction block cuts off everything before it (request/server-compaction.ts).
  const missing = memoryToReattach(fromLastCompaction(view.messages), loadedMemory(context.timeline.entries));
  if (missing.length === 0) return;
  const added = missing.map((memory) =>
    createAttachmentEntry(recorder.context(), MEMORY_ATTACHMENT_TYPE, memory.content, attachmentExtra(memory)),
  );
  for (const entry of added) {
    recorder.append(entry);
    yield { type: "entry", entry };
  }
  view.messages = [...view.messages, ...added];
}
