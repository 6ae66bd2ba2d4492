/** Human-readable text of an `InspectReport`: the request table, prompts, totals, breaks, savings, problems. */
import { formatPauseSummary, MAIN_SCOPE } from "../../cache/index.js";
import { modelLimits } from "../../messages/index.js";
import { compactionLine } from "./compaction-list.js";
import type {
  InspectBreak,
  InspectReport,
  InspectRequest,
  RequestPurpose,
  TokenTotals,
  TranscriptFormat,
} from "./types.js";

/** Malformed lines listed one by one before the rest are summarised by count. */
export const DEFAULT_MALFORMED_LINES_SHOWN = 20;

const COLUMNS = ["#", "for", "model", "input", "cache read", "cache write", "output", "hit", "cost", "note"] as const;

/** What a record type the report does not use holds, in words a reader knows. */
const RECORD_WORDS: Readonly<Record<string, string>> = {
  summary: "session summaries",
  "custom-title": "session titles",
  "file-history-snapshot": "file-history snapshots",
  latches: "beta-header states",
  progress: "tool progress lines",
  "cache-edit-pin": "cache-edit placements",
  "tool-arrival": "mid-conversation tool arrivals",
  "collapse-snapshot": "staged collapse summaries",
  "synthetic assistant": "error replies made by the client (not billed)",
  "(not a record)": "lines that are not records",
  "side-request": "side-request records it could not read",
};

/** What a request was for, in words (a main-loop turn needs none); the page uses them too. */
export const PURPOSE_WORDS: Readonly<Record<RequestPurpose, string>> = {
  turn: "",
  compact: "compaction summary",
  collapse: "collapse summary",
  "session-memory": "session memory",
  "keep-warm": "keep-warm (cache refresh during a pause)",
  "web-fetch": "WebFetch answer about a page",
  "web-search": "WebSearch on the server's search tool",
};

/** Refused requests listed one by one in the text report (all of them are in `--json`). */
export const DEFAULT_REFUSALS_SHOWN = 20;

/** What a refusal's kind (the provider's classification) means, in words. */
const KIND_WORDS: Readonly<Record<string, string>> = {
  prompt_too_long: "prompt too long",
  request_too_large: "request too large",
  image_too_large: "image too large",
  pdf_too_large: "PDF too large",
  pdf_password_protected: "PDF password-protected",
  pdf_invalid: "PDF invalid",
  overloaded: "overloaded",
  rate_limited: "rate limited",
  auth: "authentication refused",
  invalid_request: "invalid request",
  unsupported_input: "unsupported input",
  not_found: "not found",
  server: "server error",
  connection: "connection cut",
  stream_error: "stream broken off",
};

/** A refusal kind in words (an unknown kind as it is). */
export function kindWords(kind: string): string {
  return KIND_WORDS[kind] ?? kind.replaceAll("_", " ");
}

/**
 * "12 requests", or with refusals "12 requests answered, 9 refused by the server: prompt too long ×8,
 * rate limited ×1" (issue 38: a session refused nine times showed "1 requests").
 */
export function requestsLine(report: InspectReport): string {
  const answered = count(report.requests.length);
  if (report.refused.requests === 0) return `${answered} requests`;
  const kinds = Object.entries(report.refused.byKind)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([kind, number]) => `${kindWords(kind)} ×${count(number)}`)
    .join(", ");
  return `${answered} requests answered, ${count(report.refused.requests)} refused by the server: ${kinds}`;
}

/** The transcript format as a reader calls it. */
export function formatName(format: TranscriptFormat): string {
  return format === "claude-code" ? "Claude Code" : format;
}

/** The report as text for a terminal. */
export function formatInspectReport(report: InspectReport, source?: string): string {
  const lines: string[] = [];
  const where = source === undefined ? "" : `${source}: `;
  const kind = formatName(report.format);
  lines.push(`${where}${kind} transcript, ${requestsLine(report)}`);
  for (const model of report.unknownModels)
    lines.push(
      `Warning: model ${model} is not in threadline's price table; its requests are priced at fallback rates ($3 / $15 per million input / output tokens) and may be wrong.`,
    );
  lines.push("");
  lines.push(...table(report.requests, report.breaks));
  lines.push("");
  lines.push(`Total: ${totalsLine(report.totals)}`);
  if (report.scopes.length > 1)
    for (const scope of report.scopes)
      lines.push(
        `  ${scope.scope === MAIN_SCOPE ? "main conversation" : `subagent ${scope.scope}`}: ${totalsLine(scope)}`,
      );
  const side = report.requests.filter((request) => request.purpose !== "turn");
  if (side.length > 0) {
    const cost = side.reduce((sum, request) => sum + request.costUsd, 0);
    lines.push(
      `  of which side requests (summaries, session memory, keep-warm): ${count(side.length)}, ${dollars(cost)}`,
    );
  }
  if (report.refused.requests > 0) {
    lines.push(`Refused by the server (${count(report.refused.requests)}, not billed):`);
    for (const refusal of report.refused.list.slice(0, DEFAULT_REFUSALS_SHOWN)) {
      const what = PURPOSE_WORDS[refusal.purpose] || (refusal.scope === MAIN_SCOPE ? "main" : `agent ${refusal.scope}`);
      const status = refusal.status === null ? "" : `${refusal.status} `;
      const retried = refusal.retried ? ", retried" : "";
      lines.push(`  line ${refusal.line}, ${what}: ${status}${kindWords(refusal.kind)}${retried}: ${refusal.message}`);
    }
    const rest = report.refused.list.length - DEFAULT_REFUSALS_SHOWN;
    if (rest > 0) lines.push(`  … and ${rest} more (all of them are in --json)`);
  }
  const dropping = report.requests.filter((request) => request.thinkingDropped > 0);
  if (dropping.length > 0) {
    const blocks = dropping.reduce((sum, request) => sum + request.thinkingDropped, 0);
    lines.push(
      `Thinking dropped by the server (its prefix was rewritten): ${count(blocks)} block${blocks === 1 ? "" : "s"} ` +
        `over ${count(dropping.length)} request${dropping.length === 1 ? "" : "s"}, first at request ${dropping[0]!.index}`,
    );
  }
  if (report.pauses !== undefined) {
    const price = report.requests[0] !== undefined ? modelLimits(report.requests[0].model).inputPricePerMTok : 0;
    lines.push(`Pauses: ${formatPauseSummary(report.pauses, price)}`);
  }
  if (report.prompts.length > 0) {
    lines.push("", "By prompt:");
    for (const prompt of report.prompts) {
      const time = prompt.timestamp === null ? "" : `${prompt.timestamp.slice(11, 19)} `;
      const tools = Object.entries(prompt.tools)
        .map(([name, calls]) => (calls === 1 ? name : `${name}×${calls}`))
        .join(", ");
      lines.push(
        `  ${String(prompt.index).padStart(3)}. ${time}${prompt.text}`,
        `       ${count(prompt.requests)} request${prompt.requests === 1 ? "" : "s"}, ${dollars(prompt.costUsd)}, hit ${percent(prompt.hitRatio)}${tools === "" ? "" : `, tools: ${tools}`}`,
      );
    }
  }
  lines.push("");
  const real = report.breaks.filter((cacheBreak) => cacheBreak.kind !== "expected");
  const expected = report.breaks.length - real.length;
  const expectedNote =
    expected === 0
      ? ""
      : ` (${expected} expected drop${expected === 1 ? "" : "s"} after a compaction or clear, not breaks)`;
  lines.push(real.length === 0 ? `Cache breaks: none${expectedNote}` : `Cache breaks (${real.length})${expectedNote}:`);
  for (const cacheBreak of real) lines.push(`  ${breakLine(cacheBreak)}`);
  lines.push("");
  lines.push("Compaction savings (dollars: each saved token × later requests × the cache-read list price):");
  for (const tier of report.compaction)
    lines.push(
      `  ${tier.tier.padEnd(12)} ${count(tier.events).padStart(5)} events  ${count(tier.tokensSaved).padStart(12)} tokens  ${dollars(tier.savedUsd).padStart(10)}`,
    );
  if (report.compactions.length > 0) {
    lines.push(`Compactions (${report.compactions.length}): what each bought and what its summary cost`);
    report.compactions.forEach((compaction, index) => {
      lines.push(`  ${index + 1}. ${compactionLine(compaction, count, dollars)}`);
    });
  }
  const skipped = Object.entries(report.skippedRecords);
  if (skipped.length > 0) {
    const known = skipped.filter(([type]) => RECORD_WORDS[type] !== undefined);
    const others = skipped.filter(([type]) => RECORD_WORDS[type] === undefined).reduce((sum, [, n]) => sum + n, 0);
    const parts = known.map(([type, number]) => `${RECORD_WORDS[type]} (${count(number)})`);
    if (others > 0) parts.push(`other bookkeeping lines (${count(others)})`);
    lines.push("", `Also in the file, not priced: ${parts.join(", ")}`);
  }
  if (report.malformedLines.length > 0) {
    lines.push("", `Lines that are not valid JSON (${report.malformedLines.length}), left out:`);
    for (const malformed of report.malformedLines.slice(0, DEFAULT_MALFORMED_LINES_SHOWN))
      lines.push(`  line ${malformed.line}: ${malformed.error}`);
    const rest = report.malformedLines.length - DEFAULT_MALFORMED_LINES_SHOWN;
    if (rest > 0) lines.push(`  … and ${rest} more`);
  }
  return `${lines.join("\n")}\n`;
}

function table(requests: readonly InspectRequest[], breaks: readonly InspectBreak[]): string[] {
  const breakAt = new Map(
    breaks.filter((found) => found.kind !== "expected").map((found) => [found.requestIndex, found] as const),
  );
  const rows: string[][] = [Array.from(COLUMNS)];
  for (const request of requests) {
    const notes: string[] = [];
    if (request.after !== null) notes.push(`after: ${request.after}`);
    const found = breakAt.get(request.index);
    if (found !== undefined) notes.push(`cache break: ${found.causes.join("; ")}`);
    if (!request.knownModel) notes.push("unknown model: fallback prices");
    const purpose = PURPOSE_WORDS[request.purpose];
    rows.push([
      String(request.index),
      request.scope === MAIN_SCOPE ? purpose || "main" : `agent ${request.scope}`,
      request.model,
      count(request.inputTokens),
      count(request.cacheReadTokens),
      count(request.cacheWriteTokens),
      count(request.outputTokens),
      percent(request.hitRatio),
      dollars(request.costUsd),
      notes.join("; "),
    ]);
  }
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  // Text columns (for, model, note) align left, numbers right.
  return rows.map((row) =>
    row
      .map((cell, column) =>
        column === 1 || column === 2 || column === 9
          ? cell.padEnd(widths[column] ?? 0)
          : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}

function totalsLine(totals: TokenTotals): string {
  return (
    `${count(totals.requests)} requests, input ${count(totals.inputTokens)}, cache read ${count(totals.cacheReadTokens)}, ` +
    `cache write ${count(totals.cacheWriteTokens)}, output ${count(totals.outputTokens)}, ` +
    `hit ${percent(totals.hitRatio)}, cost ${dollars(totals.costUsd)}`
  );
}

function breakLine(cacheBreak: InspectBreak): string {
  const at = cacheBreak.requestIndex === null ? "recorded" : `request #${cacheBreak.requestIndex}`;
  const diff = cacheBreak.diffPath === undefined ? "" : ` (diff: ${cacheBreak.diffPath})`;
  const scope = cacheBreak.scope === MAIN_SCOPE ? "" : ` [subagent ${cacheBreak.scope}]`;
  return (
    `${at}${scope}: cache read ${count(cacheBreak.previousCacheRead)} → ${count(cacheBreak.cacheRead)} ` +
    `(-${count(cacheBreak.drop)}): ${cacheBreak.causes.join("; ")}${diff}`
  );
}

/** A token or request count as the report prints it (`12,345`). */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** A ratio as the report prints it (`83.1%`). */
export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

/** Dollars as the report prints them (`$0.1432`). */
export function dollars(value: number): string {
  return `$${value.toFixed(4)}`;
}
