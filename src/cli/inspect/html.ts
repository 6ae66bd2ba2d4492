/**
 * `threadline inspect --html FILE`: the report as one self-contained page. Tables are rendered here; the two
 * charts (context per request, stacked uncached / cache write / cache read; cost and cumulative cost) are
 * drawn in the browser by the inlined uPlot from the report embedded as JSON. Nothing is fetched at view time.
 */
import { basename } from "node:path";
import { MAIN_SCOPE } from "../../cache/index.js";
import { chartAssets } from "./chart-assets.js";
import { count, dollars, formatName, kindWords, PURPOSE_WORDS, percent, requestsLine } from "./format.js";
import { PAGE_SCRIPT } from "./page-script.js";
import type { InspectEvent, InspectReport } from "./types.js";

/** Prompt rows the page lists; past this, the most expensive ones (all of them are in `--json`). */
export const DEFAULT_PAGE_PROMPT_ROWS = 300;

const EVENT_WORDS: Readonly<Record<InspectEvent["kind"], string>> = {
  snip: "snip",
  microcompact: "tool results cleared",
  collapse: "collapse",
  compact: "compaction",
  break: "cache break",
};

/** The page for `report` read from `source`. */
export function renderInspectPage(report: InspectReport, source: string): string {
  const assets = chartAssets();
  const main = report.requests.filter((request) => request.scope === MAIN_SCOPE);
  const subagents = report.scopes.filter((scope) => scope.scope !== MAIN_SCOPE);
  const side = main.filter((request) => request.purpose !== "turn");
  const saved = report.compaction.reduce((sum, tier) => sum + tier.savedUsd, 0);
  const realBreaks = report.breaks.filter((found) => found.kind !== "expected").length;
  // Only what the charts draw goes into the page's data: the tables are already HTML.
  const chartData = {
    requests: main.map((request) => ({
      index: request.index,
      inputTokens: request.inputTokens,
      cacheWriteTokens: request.cacheWriteTokens,
      cacheReadTokens: request.cacheReadTokens,
      costUsd: request.costUsd,
    })),
    events: report.events.filter((event) => event.beforeRequest <= report.requests.length),
  };
  const title = `threadline inspect: ${basename(source)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${assets.stylesheet}</style>
<style>${PAGE_STYLE}</style>
</head><body>
<h1>${escapeHtml(title)}</h1>
<p class="muted">${escapeHtml(source)} · ${escapeHtml(formatName(report.format))} transcript</p>
${report.unknownModels
  .map(
    (model) =>
      `<p class="warning">Model <b>${escapeHtml(model)}</b> is not in threadline's price table: its requests are priced at fallback rates ($3 / $15 per million input / output tokens) and may be wrong.</p>`,
  )
  .join("\n")}
<div class="tiles">
${tile("total cost", dollars(report.totals.costUsd), requestsLine(report))}
${tile("cache hit ratio", percent(report.totals.hitRatio), `${count(report.totals.cacheReadTokens)} tokens read from cache`)}
${tile("side requests", dollars(side.reduce((sum, request) => sum + request.costUsd, 0)), `${side.length} summaries / memory updates`)}
${tile("saved by compaction", dollars(saved), "at list prices")}
${tile("cache breaks", String(realBreaks), realBreaks === 0 ? "none unexplained" : "see the timeline")}
</div>
${refusalSection(report)}
<h2>Context per request <span class="muted">(main conversation)</span></h2>
<div id="context-chart" class="chart"></div>
<h2>Cost per request and cumulative cost</h2>
<div id="cost-chart" class="chart"></div>
<h2>What happened to the context</h2>
${eventList(report)}
<h2>By prompt</h2>
${promptTable(report)}
<h2>Savings by tier</h2>
<table><thead><tr><th>tier</th><th class="n">events</th><th class="n">tokens saved</th><th class="n">dollars saved</th></tr></thead><tbody>
${report.compaction
  .map(
    (tier) =>
      `<tr><td>${tier.tier}</td><td class="n">${count(tier.events)}</td><td class="n">${count(tier.tokensSaved)}</td><td class="n">${dollars(tier.savedUsd)}</td></tr>`,
  )
  .join("\n")}
</tbody></table>
<p class="muted">Dollars: each saved token × the main requests after it × the model's cache-read list price (the cheapest way the token would have been carried).</p>
<h2>Subagents</h2>
${
  subagents.length === 0
    ? `<p class="muted">No subagents in this session.</p>`
    : `<table><thead><tr><th>subagent</th><th class="n">requests</th><th class="n">input</th><th class="n">cache read</th><th class="n">cache write</th><th class="n">output</th><th class="n">hit</th><th class="n">cost</th></tr></thead><tbody>
${subagents
  .map(
    (scope) =>
      `<tr><td>${escapeHtml(scope.scope)}</td><td class="n">${count(scope.requests)}</td><td class="n">${count(scope.inputTokens)}</td><td class="n">${count(scope.cacheReadTokens)}</td><td class="n">${count(scope.cacheWriteTokens)}</td><td class="n">${count(scope.outputTokens)}</td><td class="n">${percent(scope.hitRatio)}</td><td class="n">${dollars(scope.costUsd)}</td></tr>`,
  )
  .join("\n")}
</tbody></table>`
}
<p class="muted footer">Prices are list prices from threadline's model table; nothing here was read from a bill. Charts: ${escapeHtml(assets.notice)}, inlined.</p>
<script type="application/json" id="report-data">${jsonForScript(chartData)}</script>
<script>${assets.script}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}

function eventList(report: InspectReport): string {
  const sideNotes = report.requests
    .filter((request) => request.purpose !== "turn")
    .map((request) => ({
      at: request.index,
      kind: "side",
      text: `${PURPOSE_WORDS[request.purpose]} request: ${dollars(request.costUsd)}`,
    }));
  const items = [
    ...report.events.map((event) => ({ at: event.beforeRequest, kind: event.kind, text: event.label })),
    ...sideNotes,
  ].sort((a, b) => a.at - b.at);
  if (items.length === 0) return `<p class="muted">No compactions, clears or cache breaks.</p>`;
  return `<ul class="events">${items
    .map((item) => {
      const name = item.kind === "side" ? "side request" : EVENT_WORDS[item.kind as InspectEvent["kind"]];
      const where = item.at > report.requests.length ? "after the last request" : `request ${item.at}`;
      return `<li class="event-${escapeHtml(item.kind)}"><span class="tag">${escapeHtml(name)}</span> ${where}: ${escapeHtml(item.text)}</li>`;
    })
    .join("\n")}</ul>`;
}

/** The requests the server refused or failed (none: nothing), each with its status and the server's words. */
function refusalSection(report: InspectReport): string {
  if (report.refused.requests === 0) return "";
  const rows = report.refused.list.map((refusal) => {
    const what = PURPOSE_WORDS[refusal.purpose] || (refusal.scope === MAIN_SCOPE ? "main" : `agent ${refusal.scope}`);
    return `<tr><td class="n">${refusal.line}</td><td>${escapeHtml(what)}</td><td class="n">${refusal.status ?? ""}</td><td>${escapeHtml(kindWords(refusal.kind))}</td><td>${refusal.retried ? "yes" : "no"}</td><td>${escapeHtml(refusal.message)}</td></tr>`;
  });
  return `<h2 id="refused">Refused by the server <span class="muted">(${escapeHtml(requestsLine(report))}; not billed)</span></h2>
<table><thead><tr><th class="n">line</th><th>for</th><th class="n">status</th><th>why</th><th>retried</th><th>what the server said</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table>`;
}

function promptTable(report: InspectReport): string {
  if (report.prompts.length === 0) return `<p class="muted">No user prompts found.</p>`;
  const shown =
    report.prompts.length <= DEFAULT_PAGE_PROMPT_ROWS
      ? report.prompts
      : [...report.prompts]
          .sort((a, b) => b.costUsd - a.costUsd)
          .slice(0, DEFAULT_PAGE_PROMPT_ROWS)
          .sort((a, b) => a.index - b.index);
  const note =
    shown.length === report.prompts.length
      ? ""
      : `<p class="muted">The ${shown.length} most expensive of ${count(report.prompts.length)} prompts, in order (all of them: --json).</p>`;
  const rows = shown.map((prompt) => {
    const tools = Object.entries(prompt.tools)
      .map(([name, calls]) => (calls === 1 ? name : `${name} ×${calls}`))
      .join(", ");
    const time = prompt.timestamp === null ? "" : prompt.timestamp.replace("T", " ").slice(0, 19);
    const took = prompt.durationMs === null ? "" : `${Math.round(prompt.durationMs / 1000)} s`;
    return `<tr><td class="n">${prompt.index}</td><td>${escapeHtml(time)}</td><td>${escapeHtml(prompt.text)}</td><td>${escapeHtml(tools)}</td><td class="n">${count(prompt.requests)}</td><td class="n">${took}</td><td class="n">${dollars(prompt.costUsd)}</td><td class="n">${percent(prompt.hitRatio)}</td></tr>`;
  });
  return `${note}<table><thead><tr><th class="n">#</th><th>time</th><th>prompt</th><th>tools used</th><th class="n">requests</th><th class="n">took</th><th class="n">cost</th><th class="n">hit ratio</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table>`;
}

function tile(label: string, value: string, note: string): string {
  return `<div class="tile"><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div><div class="muted">${escapeHtml(note)}</div></div>`;
}

/** JSON that cannot end the script element it sits in. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const PAGE_STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1180px; padding: 0 16px; color: #1d232a; background: #fff; }
h1 { font-size: 22px; margin: 0 0 2px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.muted { color: #5f6b76; font-weight: normal; }
.warning { background: #fff4e5; border-left: 4px solid #f0ad4e; padding: 8px 12px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; margin: 16px 0; }
.tile { border: 1px solid #e3e7eb; border-radius: 8px; padding: 10px 14px; }
.tile .label { color: #5f6b76; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.tile .value { font-size: 24px; font-weight: 600; }
.chart { width: 100%; min-height: 200px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #eef1f3; vertical-align: top; }
th { color: #5f6b76; font-weight: 600; }
.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.events { list-style: none; padding: 0; margin: 0; }
.events li { padding: 3px 0; }
.tag { display: inline-block; min-width: 140px; font-size: 12px; font-weight: 600; }
.event-break .tag { color: #c62828; } .event-compact .tag { color: #8e24aa; } .event-microcompact .tag { color: #00897b; }
.event-snip .tag { color: #6d4c41; } .event-collapse .tag { color: #3949ab; } .event-side .tag { color: #6f42c1; }
.footer { margin-top: 32px; font-size: 12px; }
`;
