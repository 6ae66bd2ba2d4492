/**
 * The ctx-agent: finds the next collapsible span of the projected view and asks a forked request (the
 * parent's exact prefix plus one instruction, so it reads the cache) for its summary. It returns the new
 * snapshot of staged spans; it never commits (that is `applyCollapses`'s job, with no model call).
 */
import type { CollapseSnapshotRecord, MessageEntry, StagedCollapse } from "../../messages/index.js";
import { contentText } from "../../messages/index.js";
import type { ForkRunner } from "../summary/fork-runner.js";
import { extractSummary } from "../summary/summary-request.js";
import { spanRange } from "./collapse-log.js";
import { type CollapsibleSpan, findCollapsibleSpan, type SpanOptions } from "./collapsible-spans.js";

/** Output cap of a ctx-agent request: 4,000 tokens. */
export const DEFAULT_COLLAPSE_SUMMARY_MAX_TOKENS = 4_000;

/** A staged summary is cut to this many characters (≈ 1,500 tokens), so a span always shrinks. */
export const DEFAULT_MAX_SPAN_SUMMARY_CHARS = 6_000;

/** Characters quoted from the span's first and last prompts, to name the span to the model. */
const QUOTE_CHARS = 120;

function quote(entry: MessageEntry | undefined): string {
  if (entry?.type !== "user") return "(none)";
  // Joined by newlines, but every run of whitespace collapses to one space below.
  const text = contentText(entry.message.content);
  return JSON.stringify(text.replace(/\s+/g, " ").trim().slice(0, QUOTE_CHARS));
}

/** The ctx-agent's instruction for one span (its first line asks for a summary of part of the conversation). */
export function collapseInstruction(view: readonly MessageEntry[], span: CollapsibleSpan): string {
  let lastPrompt: MessageEntry | undefined;
  for (let index = span.last; index >= span.first; index--) {
    const entry = view[index]!;
    if (entry.type === "user" && !entry.isMeta && typeof entry.message.content !== "string") {
      if (entry.message.content.some((block) => block.type === "text")) {
        lastPrompt = entry;
        break;
      }
    }
  }
  return [
    "Summarize one finished part of this conversation so it can be folded away; do not call any tools.",
    `The part starts at the user message ${quote(view[span.first])} and runs through the work on ${quote(lastPrompt)},`,
    "up to (not including) the final answer to that message, which stays in the conversation verbatim.",
    "Keep what later work may need: file paths, decisions, results, errors and how they were fixed.",
    "Answer with <summary>…</summary> only.",
  ].join("\n");
}

export interface CtxAgentInput extends SpanOptions {
  /** The projected API view (what the next main request would send). */
  view: readonly MessageEntry[];
  fork: ForkRunner;
  /** Largest estimated request the ctx-agent may send (the fork is skipped above it). */
  budget: number;
  sessionId: string;
  now: Date;
}

/** Stages the next collapsible span; undefined when there is none (or its request would not fit). */
export async function runCtxAgent(input: CtxAgentInput): Promise<CollapseSnapshotRecord | undefined> {
  const span = findCollapsibleSpan(input.view, input);
  if (span === undefined) return undefined;
  const request = {
    messages: input.view,
    instruction: collapseInstruction(input.view, span),
    maxTokens: DEFAULT_COLLAPSE_SUMMARY_MAX_TOKENS,
    purpose: "collapse" as const,
  };
  if (input.fork.estimate(request) > input.budget) return undefined;
  const result = await input.fork.run(request);
  const summary = extractSummary(result.text).slice(0, DEFAULT_MAX_SPAN_SUMMARY_CHARS).trim();
  if (summary === "") return undefined;
  // Spans committed (or compacted away) since they were staged are dropped from the new snapshot.
  const staged: StagedCollapse[] = [
    ...input.staged.filter((old) => spanRange(input.view, old.startUuid, old.endUuid) !== undefined),
    { startUuid: span.startUuid, endUuid: span.endUuid, summary, stagedAt: input.now.toISOString() },
  ];
  return { type: "collapse-snapshot", staged, timestamp: input.now.toISOString(), sessionId: input.sessionId };
}
