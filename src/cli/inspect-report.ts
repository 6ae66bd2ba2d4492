/**
 * The core of `threadline inspect`: one pass over a transcript's records (threadline's or Claude Code's)
 * building the per-request table, totals, cache breaks and compaction savings. Records are untrusted JSON;
 * they are narrowed by hand rather than with zod because a 100 MB file holds hundreds of thousands of them
 * and only a few fields of each are read.
 */
import {
  type CacheBreak,
  formatDuration,
  hitRatio,
  isCacheBreak,
  MAIN_SCOPE,
  parseCacheBreakNotice,
  TTL_5M_MS,
} from "../cache/index.js";
import { CompactionTally } from "./inspect-compaction.js";
import { estimateContentTokens } from "./inspect-estimate.js";
import type {
  InspectBreak,
  InspectReport,
  InspectRequest,
  MalformedLine,
  TokenTotals,
  TranscriptFormat,
} from "./inspect-types.js";
import { requestCostUsd } from "./pricing.js";

/** Cause given to breaks found in the usage sequence when no notice recorded why. */
export const UNKNOWN_BREAK_CAUSE = "unknown (no fingerprint in transcript)";

type JsonRecord = Record<string, unknown>;

interface OpenRequest {
  request: InspectRequest;
  hasUsage: boolean;
  /** A compaction/snip record of the same scope came between the previous request and this one. */
  afterBoundary: string | null;
}

/** Accumulates records one at a time (so a file reader can stream into it) and builds the report at the end. */
export class InspectAccumulator {
  #format: TranscriptFormat = "unknown";
  #records = 0;
  readonly #requests: OpenRequest[] = [];
  readonly #requestById = new Map<string, OpenRequest>();
  readonly #notices: CacheBreak[] = [];
  readonly #malformed: MalformedLine[] = [];
  readonly #skipped: Record<string, number> = {};
  readonly #compaction = new CompactionTally();
  /** Per scope: the boundary record seen since its last request started. */
  readonly #boundarySinceRequest = new Map<string, string>();

  /** Number of lines that parsed as JSON objects with a `type`. */
  get typedRecords(): number {
    return this.#records;
  }

  /** A line that did not parse; reported with its number. */
  addMalformed(line: number, error: string): void {
    this.#malformed.push({ line, error });
  }

  /** One parsed line. */
  add(value: unknown, line: number): void {
    if (
      value === null ||
      typeof value !== "object" ||
      Array.isArray(value) ||
      typeof (value as JsonRecord).type !== "string"
    ) {
      this.#skip("(not a record)");
      return;
    }
    const record = value as JsonRecord;
    this.#records++;
    switch (record.type) {
      case "header":
        this.#format = "threadline";
        return;
      case "assistant":
        this.#addAssistant(record, line);
        this.#addEntry(record);
        return;
      case "user":
      case "attachment":
        this.#noteFormat();
        this.#addEntry(record);
        return;
      case "system":
        this.#addSystem(record);
        return;
      case "collapse-commit":
        if (typeof record.firstArchivedUuid === "string" && typeof record.lastArchivedUuid === "string")
          this.#compaction.addCollapse(record.firstArchivedUuid, record.lastArchivedUuid, String(record.summary ?? ""));
        this.#markBoundary(MAIN_SCOPE, "collapse commit");
        return;
      default:
        this.#skip(String(record.type));
    }
  }

  /** The finished report. */
  finish(): InspectReport {
    const requests = this.#requests.filter((open) => open.hasUsage);
    requests.forEach((open, position) => {
      open.request.index = position + 1;
    });
    const table = requests.map((open) => open.request);
    const scopeNames = [...new Set(table.map((request) => request.scope))].sort((a, b) =>
      a === MAIN_SCOPE ? -1 : b === MAIN_SCOPE ? 1 : a.localeCompare(b),
    );
    return {
      format: this.#format,
      records: this.#records,
      requests: table,
      totals: totalsOf(table),
      scopes: scopeNames.map((scope) => ({ scope, ...totalsOf(table.filter((request) => request.scope === scope)) })),
      breaks: this.#breaks(requests),
      compaction: this.#compaction.finish(),
      malformedLines: this.#malformed,
      skippedRecords: this.#skipped,
    };
  }

  #addAssistant(record: JsonRecord, line: number): void {
    this.#noteFormat();
    const message = asRecord(record.message);
    const model = typeof message?.model === "string" ? message.model : "unknown";
    if (message === null || record.isApiErrorMessage === true || model === "<synthetic>") {
      this.#skip("synthetic assistant");
      return;
    }
    const id = typeof message.id === "string" ? message.id : `line-${line}`;
    let open = this.#requestById.get(id);
    if (open === undefined) {
      const scope = scopeOf(record);
      open = {
        request: emptyRequest(id, scope, model, typeof record.timestamp === "string" ? record.timestamp : null, line),
        hasUsage: false,
        afterBoundary: this.#boundarySinceRequest.get(scope) ?? null,
      };
      this.#boundarySinceRequest.delete(scope);
      this.#requestById.set(id, open);
      this.#requests.push(open);
    }
    const usage = asRecord(message.usage);
    if (usage === null) return;
    // Every record of a response may carry usage; the last one holds the final numbers.
    const wasCounted = open.hasUsage;
    applyUsage(open.request, usage);
    open.hasUsage = true;
    if (!wasCounted && open.request.scope === MAIN_SCOPE) {
      const request = open.request;
      this.#compaction.addMainRequestPromptTokens(
        request.inputTokens + request.cacheReadTokens + request.cacheWriteTokens,
      );
    }
  }

  #addSystem(record: JsonRecord): void {
    this.#noteFormat();
    const scope = scopeOf(record);
    const subtype = String(record.subtype ?? "");
    switch (subtype) {
      case "compact_boundary": {
        const metadata = asRecord(record.compactMetadata);
        const post = metadata?.postTokens;
        this.#compaction.addCompact(numberOr(metadata?.preTokens, 0), typeof post === "number" ? post : undefined);
        this.#markBoundary(scope, subtype);
        break;
      }
      case "microcompact_boundary":
        this.#compaction.addMicrocompact(numberOr(asRecord(record.microcompactMetadata)?.tokensSaved, 0));
        this.#markBoundary(scope, subtype);
        break;
      case "snip_boundary": {
        const removed = asRecord(record.snipMetadata)?.removedUuids;
        this.#compaction.addSnip(Array.isArray(removed) ? removed.filter((uuid) => typeof uuid === "string") : []);
        this.#markBoundary(scope, subtype);
        break;
      }
      default: {
        const notice = typeof record.content === "string" ? parseCacheBreakNotice(record.content) : null;
        if (notice !== null) this.#notices.push(notice);
      }
    }
    this.#addEntry(record);
  }

  #addEntry(record: JsonRecord): void {
    if (record.isSidechain === true || typeof record.uuid !== "string") return;
    const message = asRecord(record.message);
    const attachment = asRecord(record.attachment);
    const tokens = message
      ? estimateContentTokens(message.content)
      : attachment
        ? estimateContentTokens(attachment.content)
        : 0;
    this.#compaction.addEntry(record.uuid, tokens);
  }

  #breaks(requests: readonly OpenRequest[]): InspectBreak[] {
    const breaks: InspectBreak[] = [];
    const unmatched = [...this.#notices];
    const previousByScope = new Map<string, InspectRequest>();
    for (const open of requests) {
      const request = open.request;
      const previous = previousByScope.get(request.scope);
      previousByScope.set(request.scope, request);
      if (previous === undefined || !isCacheBreak(previous.cacheReadTokens, request.cacheReadTokens)) continue;
      const gapMs = gapBetween(previous.timestamp, request.timestamp);
      const found: InspectBreak = {
        scope: request.scope,
        requestIndex: request.index,
        previousCacheRead: previous.cacheReadTokens,
        cacheRead: request.cacheReadTokens,
        drop: previous.cacheReadTokens - request.cacheReadTokens,
        kind: "unknown",
        causes: [UNKNOWN_BREAK_CAUSE],
        source: "usage",
        gapMs,
      };
      const noticeIndex = unmatched.findIndex(
        (notice) =>
          notice.scope === request.scope &&
          notice.previousCacheRead === found.previousCacheRead &&
          notice.cacheRead === found.cacheRead,
      );
      const notice = unmatched[noticeIndex];
      if (notice !== undefined) {
        unmatched.splice(noticeIndex, 1);
        found.kind = notice.kind;
        found.causes = notice.causes;
        found.source = "notice";
        if (notice.diffPath !== undefined) found.diffPath = notice.diffPath;
      } else if (open.afterBoundary !== null) {
        found.kind = "expected";
        found.causes = [`expected drop after ${open.afterBoundary}`];
      } else if (gapMs !== null && gapMs > TTL_5M_MS) {
        found.causes.push(`idle ${formatDuration(gapMs)} before it (over the 5m TTL)`);
      }
      breaks.push(found);
    }
    for (const notice of unmatched) {
      const recorded: InspectBreak = { ...notice, requestIndex: null, source: "notice", gapMs: notice.gapMs };
      breaks.push(recorded);
    }
    return breaks;
  }

  #markBoundary(scope: string, what: string): void {
    this.#boundarySinceRequest.set(scope, what);
  }

  #noteFormat(): void {
    if (this.#format === "unknown") this.#format = "claude-code";
  }

  #skip(type: string): void {
    this.#skipped[type] = (this.#skipped[type] ?? 0) + 1;
  }
}

/** Report of a sequence of already-parsed records (no file involved). */
export async function inspectRecords(records: AsyncIterable<unknown> | Iterable<unknown>): Promise<InspectReport> {
  const accumulator = new InspectAccumulator();
  let line = 0;
  for await (const record of records) accumulator.add(record, ++line);
  return accumulator.finish();
}

function emptyRequest(
  messageId: string,
  scope: string,
  model: string,
  timestamp: string | null,
  line: number,
): InspectRequest {
  return {
    index: 0,
    messageId,
    scope,
    model,
    timestamp,
    line,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite5mTokens: 0,
    cacheWrite1hTokens: 0,
    outputTokens: 0,
    hitRatio: 0,
    costUsd: 0,
  };
}

function applyUsage(request: InspectRequest, usage: JsonRecord): void {
  request.inputTokens = numberOr(usage.input_tokens, 0);
  request.outputTokens = numberOr(usage.output_tokens, 0);
  request.cacheReadTokens = numberOr(usage.cache_read_input_tokens, 0);
  request.cacheWriteTokens = numberOr(usage.cache_creation_input_tokens, 0);
  // Without the TTL split, every write is billed at the default 5-minute rate.
  const split = asRecord(usage.cache_creation);
  request.cacheWrite1hTokens = numberOr(split?.ephemeral_1h_input_tokens, 0);
  request.cacheWrite5mTokens = split
    ? numberOr(split.ephemeral_5m_input_tokens, 0)
    : request.cacheWriteTokens - request.cacheWrite1hTokens;
  request.hitRatio = hitRatio(request.inputTokens, request.cacheReadTokens, request.cacheWriteTokens);
  request.costUsd = requestCostUsd(request.model, request);
}

function totalsOf(requests: readonly InspectRequest[]): TokenTotals {
  const totals: TokenTotals = {
    requests: requests.length,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    hitRatio: 0,
    costUsd: 0,
  };
  for (const request of requests) {
    totals.inputTokens += request.inputTokens;
    totals.cacheReadTokens += request.cacheReadTokens;
    totals.cacheWriteTokens += request.cacheWriteTokens;
    totals.outputTokens += request.outputTokens;
    totals.costUsd += request.costUsd;
  }
  totals.hitRatio = hitRatio(totals.inputTokens, totals.cacheReadTokens, totals.cacheWriteTokens);
  return totals;
}

function scopeOf(record: JsonRecord): string {
  if (record.isSidechain !== true) return MAIN_SCOPE;
  return typeof record.agentId === "string" && record.agentId !== "" ? record.agentId : "sidechain";
}

function gapBetween(before: string | null, after: string | null): number | null {
  if (before === null || after === null) return null;
  const gap = Date.parse(after) - Date.parse(before);
  return Number.isFinite(gap) ? gap : null;
}

function asRecord(value: unknown): JsonRecord | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonRecord) : null;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
