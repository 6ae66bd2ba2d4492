/**
 * `threadline inspect --what-if TRANSCRIPT`: what the same conversation would have cost with threadline's
 * default policy, next to what it cost. The replay (what-if-replay.ts) needs no model; this file loads the
 * conversation, runs the replay with threadline's own system prompt and tools, and says what it assumed.
 */

import { MAIN_SCOPE } from "../../cache/index.js";
import { createSnipTool, DEFAULT_COMPACTION_SETTINGS } from "../../compaction/index.js";
import { buildSystemPrompt } from "../../engine/system-prompt.js";
import type { TimelineEntry } from "../../messages/index.js";
import { toolDefinitions } from "../../request/index.js";
import { defaultTools } from "../../tools/index.js";
import { importClaudeCodeTranscript, loadTranscript } from "../../transcript/index.js";
import type { InspectReport } from "./types.js";
import { type ReplayedRequest, type ReplayOptions, replayConversation } from "./what-if-replay.js";

/** Money of one way of running the conversation. */
export interface WhatIfCost {
  requests: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface WhatIfReport {
  /** The main conversation as billed (the transcript's usage). */
  actual: WhatIfCost;
  /** Replayed with threadline's default policy. */
  threadline: WhatIfCost;
  /** The same replay with every compaction tier off: the ruler's like-for-like baseline. */
  withoutCompaction: WhatIfCost;
  /** Subagent and side requests the replay leaves out (their cost is the same either way). */
  notReplayedUsd: number;
  assumptions: string[];
}

/** The replay's inputs threadline itself would use: its default system prompt and tools. */
function threadlineReplayOptions(entries: readonly TimelineEntry[], cwd: string): ReplayOptions {
  const tools = [...defaultTools(), createSnipTool()];
  const first = entries.find((entry) => "timestamp" in entry && typeof entry.timestamp === "string");
  const date = first !== undefined && "timestamp" in first ? new Date(first.timestamp) : new Date(0);
  return {
    systemPrompt: buildSystemPrompt({ cwd, date: Number.isNaN(date.getTime()) ? new Date(0) : date }),
    tools: toolDefinitions(tools),
    compactableTools: new Set(tools.filter((tool) => tool.compactable).map((tool) => tool.name)),
  };
}

/** Compares the transcript's bill with the replays under `options`. */
export async function whatIf(
  entries: readonly TimelineEntry[],
  report: InspectReport,
  options: ReplayOptions,
): Promise<WhatIfReport> {
  const main = report.requests.filter((request) => request.scope === MAIN_SCOPE && request.purpose === "turn");
  const actual: WhatIfCost = {
    requests: main.length,
    inputTokens: sum(main.map((request) => request.inputTokens)),
    cacheReadTokens: sum(main.map((request) => request.cacheReadTokens)),
    cacheWriteTokens: sum(main.map((request) => request.cacheWriteTokens)),
    outputTokens: sum(main.map((request) => request.outputTokens)),
    costUsd: sum(main.map((request) => request.costUsd)),
  };
  const threadline = costOf(await replayConversation(entries, options));
  const off = { snip: false, microcompact: false, collapse: false, autocompact: false, cacheEdits: "off" as const };
  const baseline = options.compaction ?? DEFAULT_COMPACTION_SETTINGS;
  const withoutCompaction = costOf(
    await replayConversation(entries, { ...options, compaction: { ...baseline, ...off } }),
  );
  return {
    actual,
    threadline,
    withoutCompaction,
    notReplayedUsd: report.totals.costUsd - actual.costUsd,
    assumptions: [
      "the model answers the same: each response's recorded output tokens, compactions where the transcript has them (with their recorded summaries)",
      "input tokens measured with the chars/4 ruler (images and documents 2,000 each), since usage exists only for what was actually sent",
      "threadline's own system prompt and tools, and the public API (no cache editing; server-side clearing where the policy asks for it)",
      "prompt cache as the emulator bills it: 5-minute TTL, expiry from the recorded response times, list prices",
      "subagents and side requests are not replayed (they cost the same either way)",
    ],
  };
}

/** Runs the command: loads the transcript, replays it, prints the comparison; resolves to the exit code. */
export async function runWhatIf(
  path: string,
  report: InspectReport,
  io: { json: boolean; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const loaded =
    report.format === "threadline"
      ? await loadTranscript(path).then((result) => ({ entries: result.entries, cwd: result.header.cwd }))
      : await importClaudeCodeTranscript(path).then((result) => ({
          entries: result.entries,
          cwd: cwdOf(result.entries),
        }));
  const result = await whatIf(loaded.entries, report, threadlineReplayOptions(loaded.entries, loaded.cwd));
  io.stdout.write(io.json ? `${JSON.stringify(result, null, 2)}\n` : formatWhatIf(result, path));
  return 0;
}

/** The comparison as text. */
function formatWhatIf(result: WhatIfReport, source: string): string {
  const change = (value: number) => {
    if (result.actual.costUsd === 0) return "";
    const percent = ((value - result.actual.costUsd) / result.actual.costUsd) * 100;
    return ` (${percent >= 0 ? "+" : ""}${percent.toFixed(1)}% vs actual)`;
  };
  const line = (label: string, cost: WhatIfCost, note = "") =>
    `  ${label.padEnd(44)} ${dollars(cost.costUsd).padStart(10)}  ${cost.requests} requests, cache read ${count(cost.cacheReadTokens)}, write ${count(cost.cacheWriteTokens)}, uncached ${count(cost.inputTokens)}${note}`;
  const lines = [
    `${source}: what the main conversation would have cost with threadline's default policy`,
    "",
    line("actually paid (the transcript's usage)", result.actual),
    line("threadline, default policy (replayed)", result.threadline, change(result.threadline.costUsd)),
    line("same replay, compaction off (like for like)", result.withoutCompaction),
    "",
  ];
  if (result.notReplayedUsd > 0.00005)
    lines.push(`Not replayed (subagents, side requests): ${dollars(result.notReplayedUsd)}, the same either way.`, "");
  lines.push("Assumptions:", ...result.assumptions.map((assumption) => `  - ${assumption}`));
  return `${lines.join("\n")}\n`;
}

function costOf(requests: readonly ReplayedRequest[]): WhatIfCost {
  return {
    requests: requests.length,
    inputTokens: sum(requests.map((request) => request.inputTokens)),
    cacheReadTokens: sum(requests.map((request) => request.cacheReadTokens)),
    cacheWriteTokens: sum(requests.map((request) => request.cacheWrite5mTokens + request.cacheWrite1hTokens)),
    outputTokens: sum(requests.map((request) => request.outputTokens)),
    costUsd: sum(requests.map((request) => request.costUsd)),
  };
}

/** The working directory Claude Code recorded (its records carry `cwd`), else "/". */
function cwdOf(entries: readonly TimelineEntry[]): string {
  for (const entry of entries) {
    const cwd = (entry as { cwd?: unknown }).cwd;
    if (typeof cwd === "string" && cwd !== "") return cwd;
  }
  return "/";
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

function dollars(value: number): string {
  return `$${value.toFixed(4)}`;
}
