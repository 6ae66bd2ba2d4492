/**
 * Groups a transcript's main-scope requests by the user prompt they answered: what a person reads a session
 * by ("what did asking for X cost, and what did it do?"). A prompt is a user record typed by a person:
 * not a tool result, not meta (caveats, reminders), not a compaction summary.
 */
import { hitRatio, MAIN_SCOPE } from "../../cache/index.js";
import type { InspectPrompt, InspectRequest } from "./types.js";

/** Longest prompt text kept (the first line, shortened with an ellipsis). */
export const DEFAULT_PROMPT_PREVIEW_CHARS = 80;

type JsonRecord = Record<string, unknown>;

/** The prompt text of a user record, or null when the record is not a prompt a person typed. */
export function promptText(record: JsonRecord): string | null {
  if (record.isMeta === true || record.isCompactSummary === true || record.isSidechain === true) return null;
  const message = record.message;
  if (message === null || typeof message !== "object") return null;
  const content = (message as JsonRecord).content;
  if (typeof content === "string") return preview(content);
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const block of content) {
    if (block === null || typeof block !== "object") continue;
    const typed = block as JsonRecord;
    if (typed.type === "tool_result") return null;
    if (typed.type === "text" && typeof typed.text === "string") texts.push(typed.text);
  }
  return texts.length === 0 ? null : preview(texts.join("\n"));
}

function preview(text: string): string | null {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  if (line === "") return null;
  return line.length > DEFAULT_PROMPT_PREVIEW_CHARS ? `${line.slice(0, DEFAULT_PROMPT_PREVIEW_CHARS - 1)}…` : line;
}

/** One row per prompt, from the prompts seen (in order) and the finished request table. */
export function groupByPrompt(
  prompts: ReadonlyArray<{ text: string; timestamp: string | null }>,
  requests: readonly InspectRequest[],
): InspectPrompt[] {
  const rows: InspectPrompt[] = prompts.map((prompt, position) => ({
    index: position + 1,
    timestamp: prompt.timestamp,
    text: prompt.text,
    tools: {},
    requests: 0,
    costUsd: 0,
    hitRatio: 0,
    durationMs: null,
  }));
  const tokens = rows.map(() => ({ input: 0, read: 0, write: 0 }));
  for (const request of requests) {
    if (request.scope !== MAIN_SCOPE || request.prompt === 0) continue;
    const row = rows[request.prompt - 1];
    const sums = tokens[request.prompt - 1];
    if (row === undefined || sums === undefined) continue;
    row.requests++;
    row.costUsd += request.costUsd;
    sums.input += request.inputTokens;
    sums.read += request.cacheReadTokens;
    sums.write += request.cacheWriteTokens;
    for (const tool of request.tools) row.tools[tool] = (row.tools[tool] ?? 0) + 1;
    if (row.timestamp !== null && request.timestamp !== null) {
      const elapsed = Date.parse(request.timestamp) - Date.parse(row.timestamp);
      if (Number.isFinite(elapsed)) row.durationMs = Math.max(row.durationMs ?? 0, elapsed);
    }
  }
  rows.forEach((row, position) => {
    const sums = tokens[position];
    if (sums !== undefined) row.hitRatio = hitRatio(sums.input, sums.read, sums.write);
  });
  return rows;
}
