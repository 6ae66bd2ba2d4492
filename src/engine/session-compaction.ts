/**
 * The engine's compaction outside a turn: /compact, and the work after each turn that makes forked requests
 * (the ctx-agent staging collapsible spans, the compaction notes). None of it builds a compaction input of
 * its own: /compact enters through the loop's compact stage (loop/query.ts `compactNow`) and the work between
 * turns runs on the loop's input (`betweenTurns`), so the window, the calibration, the memory reservation and
 * the fork are the loop's (docs/ARCHITECTURE.md "One entrance for compaction").
 */
import { type AutoCompactSession, projectApiView, stageCollapses } from "../compaction/index.js";
import { betweenTurns, compactNow, type LoopConfig, type LoopState, type QueryContext } from "../loop/query.js";
import type { TurnRecorder } from "../loop/turn-recorder.js";
import type { TurnUsage } from "../messages/index.js";
import { CompactionNotes } from "./compaction-notes.js";
import type { BackgroundFinisher } from "./finalize.js";

/** The session parts the wiring reads and writes (shared with the engine, not copied). */
export interface SessionCompactionParts {
  /** The session as the loop sees it (the engine's `queryContext`), made afresh for each use. */
  context: () => QueryContext;
  config: LoopConfig;
  recorder: TurnRecorder;
  state: LoopState;
  /** The session's usage totals: side requests are added here. */
  totals: TurnUsage;
  autoCompact: AutoCompactSession;
  finisher: BackgroundFinisher;
}

export class SessionCompaction {
  readonly #parts: SessionCompactionParts;
  #notes: CompactionNotes | undefined;

  /** Installs the after-turn work; `keepNotes` keeps compaction notes autocompact can use without a model call. */
  constructor(parts: SessionCompactionParts, keepNotes: boolean) {
    this.#parts = parts;
    this.#installHooks(keepNotes);
  }

  /** The compaction notes kept for autocompact, when on. */
  get compactionNotes(): CompactionNotes | undefined {
    return this.#notes;
  }

  /**
   * Compact now (the CLI's /compact): summarise the conversation with optional extra `instructions`, through
   * the loop's compact stage. Throws when the summary fails.
   */
  async compact(instructions?: string): Promise<{ preTokens: number; postTokens: number }> {
    const { recorder, totals } = this.#parts;
    const events = compactNow(this.#parts.context(), totals, instructions);
    // The events are the records themselves (entries, notices), already in the timeline.
    let step = await events.next();
    while (step.done !== true) step = await events.next();
    await recorder.flush();
    return step.value;
  }

  /** After each turn: the ctx-agent stages collapsible spans; the compaction notes refresh. Both are forked requests. */
  #installHooks(keepNotes: boolean): void {
    const { state, finisher, recorder, totals } = this.#parts;
    const settings = this.#parts.config.compaction;
    if (settings.collapse) {
      finisher.add(async ({ entries }) => {
        if (state.lastRequest === undefined) return;
        const snapshot = await betweenTurns(this.#parts.context(), totals, async (input) =>
          input.fork !== undefined ? stageCollapses({ ...input, entries, fork: input.fork }) : undefined,
        );
        if (snapshot === undefined) return;
        recorder.append(snapshot);
        await recorder.flush();
      });
    }
    if (!keepNotes || !settings.autocompact) return;
    const path = recorder.transcript.path?.replace(/\.jsonl$/, ".memory.md");
    const notes = new CompactionNotes(path !== undefined ? { path } : {});
    this.#notes = notes;
    this.#parts.autoCompact.compactionNotes = () => notes.snapshot();
    finisher.add(async ({ entries }) => {
      if (state.lastRequest === undefined) return;
      const updated = await betweenTurns(this.#parts.context(), totals, async (input) => {
        const view = projectApiView(entries, input.settings);
        if (input.fork === undefined || !notes.due(entries, view, input.tokenRatio)) return false;
        await notes.update(entries, view, input.fork, input.thresholds, input.tokenRatio);
        return true;
      });
      if (updated) await recorder.flush();
    });
  }
}
