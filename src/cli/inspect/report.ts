/**
 * The core of `threadline inspect`: one pass over a transcript's records (threadline's or Claude Code's)
 * building the per-request table, totals, cache breaks and compaction savings. Records are untrusted JSON;
 * they are narrowed by hand rather than with zod because a 100 MB file holds hundreds of thousands of them
 * and only a few fields of each are read.
 */
import {
  type CacheBreak,
  MAIN_SCOPE,
  type PauseChoiceShape,
  type PauseSummary,
  parseCacheBreakNotice,
  summarisePauses,
} from "../../cache/index.js";
import { cacheReadUsdPerToken, SIDE_REQUEST_PURPOSES } from "../../messages/index.js";
import { CompactionCopies } from "../../timeline/index.js";
import { findBreaks } from "./breaks.js";
import { CompactionTally } from "./compaction.js";
import { compactionOf } from "./compaction-list.js";
import { estimateContentTokens } from "./estimate.js";
import { groupByPrompt, promptText } from "./prompts.js";
import { RefusalTally } from "./refusals.js";
import { applyUsage, count, emptyRequest, serverCacheMiss, thinkingDroppedIn, totalsOf } from "./request.js";
import type {
  CompactionTier,
  InspectCompaction,
  InspectEvent,
  InspectReport,
  InspectRequest,
  MalformedLine,
  RequestPurpose,
  TranscriptFormat,
} from "./types.js";

export { UNKNOWN_BREAK_CAUSE } from "./breaks.js";

type JsonRecord = Record<string, unknown>;

/** A compaction, clear or snip recorded between two requests of a scope. */
interface Boundary {
  /** The record's name, for "expected drop after …". */
  record: string;
  tier: CompactionTier;
  /** What it did, in words. */
  label: string;
}

interface OpenRequest {
  request: InspectRequest;
  hasUsage: boolean;
  /** Compaction/snip records of the same scope between the previous request and this one. */
  boundaries: Boundary[];
}

const SIDE_PURPOSES: ReadonlySet<string> = new Set<string>(SIDE_REQUEST_PURPOSES);

/** Accumulates records one at a time (so a file reader can stream into it) and builds the report at the end. */
export class InspectAccumulator {
  #format: TranscriptFormat = "unknown";
  #records = 0;
  readonly #requests: OpenRequest[] = [];
  readonly #requestById = new Map<string, OpenRequest>();
  /** tool_use ids already counted: a compaction's copy of a response repeats its blocks (issue 58: Bash×79 for 41). */
  readonly #toolUseIds = new Set<string>();
  readonly #notices: CacheBreak[] = [];
  readonly #malformed: MalformedLine[] = [];
  readonly #skipped: Record<string, number> = {};
  readonly #compaction = new CompactionTally();
  readonly #compactions: InspectCompaction[] = [];
  /** Per scope: the boundary records seen since its last request started. */
  readonly #boundariesSinceRequest = new Map<string, Boundary[]>();
  readonly #prompts: Array<{ text: string; timestamp: string | null }> = [];
  readonly #pauseChoices: PauseChoiceShape[] = [];
  /** A compaction's copies of the kept tail are not prompts again (they would list twice, with 0 requests). */
  readonly #copies = new CompactionCopies();
  readonly #refusals = new RefusalTally();

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
    const copy = this.#copies.observe(record);
    switch (record.type) {
      case "header":
        this.#format = "threadline";
        return;
      case "assistant":
        this.#addAssistant(record, line);
        this.#addEntry(record);
        return;
      case "user": {
        this.#noteFormat();
        const text = copy ? null : promptText(record);
        if (text !== null)
          this.#prompts.push({ text, timestamp: typeof record.timestamp === "string" ? record.timestamp : null });
        this.#addEntry(record);
        return;
      }
      case "attachment":
        this.#noteFormat();
        this.#addEntry(record);
        return;
      case "side-request":
        this.#addSideRequest(record, line);
        return;
      case "request-failed":
        if (!this.#refusals.addRecord(record, line)) this.#skip("request-failed");
        return;
      case "pause-choice":
        if (isPauseChoice(record)) this.#pauseChoices.push(record);
        else this.#skip("pause-choice");
        return;
      case "system":
        this.#addSystem(record, line);
        return;
      case "collapse-commit":
        if (typeof record.firstArchivedUuid === "string" && typeof record.lastArchivedUuid === "string")
          this.#compaction.addCollapse(record.firstArchivedUuid, record.lastArchivedUuid, String(record.summary ?? ""));
        this.#markBoundary(MAIN_SCOPE, {
          record: "collapse commit",
          tier: "collapse",
          label: "context collapse committed a span",
        });
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
    const breaks = findBreaks(
      requests
        .filter((open) => open.request.purpose === "turn")
        .map((open) => ({ request: open.request, afterBoundary: open.boundaries.at(-1)?.record ?? null })),
      this.#notices,
    );
    const events: InspectEvent[] = [];
    for (const open of requests)
      for (const boundary of open.boundaries)
        events.push({ beforeRequest: open.request.index, kind: boundary.tier, label: boundary.label });
    for (const boundaries of this.#boundariesSinceRequest.values())
      for (const boundary of boundaries)
        events.push({ beforeRequest: table.length + 1, kind: boundary.tier, label: boundary.label });
    for (const found of breaks) {
      if (found.kind === "expected" || found.requestIndex === null) continue;
      events.push({
        beforeRequest: found.requestIndex,
        kind: "break",
        label: `cache break: ${found.causes.join("; ")}`,
      });
    }
    events.sort((a, b) => a.beforeRequest - b.beforeRequest);
    return {
      format: this.#format,
      records: this.#records,
      requests: table,
      refused: this.#refusals.finish(this.#format),
      totals: totalsOf(table),
      scopes: scopeNames.map((scope) => ({ scope, ...totalsOf(table.filter((request) => request.scope === scope)) })),
      breaks,
      compaction: this.#compaction.finish(),
      compactions: this.#compactions,
      malformedLines: this.#malformed,
      skippedRecords: this.#skipped,
      prompts: groupByPrompt(this.#prompts, table),
      events,
      unknownModels: [...new Set(table.filter((request) => !request.knownModel).map((request) => request.model))],
      ...(this.#pauseChoices.length > 0 ? { pauses: this.#pauses(table) } : {}),
    };
  }

  #pauses(table: readonly InspectRequest[]): PauseSummary {
    const promptTimes = this.#prompts
      .map((prompt) => (prompt.timestamp === null ? Number.NaN : Date.parse(prompt.timestamp)))
      .filter(Number.isFinite);
    const keepWarm = table.filter((request) => request.purpose === "keep-warm").length;
    return summarisePauses(this.#pauseChoices, promptTimes, keepWarm);
  }

  #addSideRequest(record: JsonRecord, line: number): void {
    const usage = asRecord(record.usage);
    const purpose = String(record.purpose);
    if (usage === null || !SIDE_PURPOSES.has(purpose)) {
      this.#skip("side-request");
      return;
    }
    const model = typeof record.model === "string" ? record.model : "unknown";
    const timestamp = typeof record.timestamp === "string" ? record.timestamp : null;
    const request = emptyRequest(`side-request-line-${line}`, MAIN_SCOPE, model, timestamp, line);
    request.purpose = purpose as RequestPurpose;
    request.prompt = this.#prompts.length;
    applyUsage(request, usage);
    this.#requests.push({ request, hasUsage: true, boundaries: [] });
  }

  #addAssistant(record: JsonRecord, line: number): void {
    this.#noteFormat();
    const message = asRecord(record.message);
    const model = typeof message?.model === "string" ? message.model : "unknown";
    if (message === null || record.isApiErrorMessage === true || model === "<synthetic>") {
      this.#refusals.addClaudeCodeError(record, line, scopeOf(record));
      this.#skip("synthetic assistant");
      return;
    }
    const id = typeof message.id === "string" ? message.id : `line-${line}`;
    let open = this.#requestById.get(id);
    if (open === undefined) {
      const scope = scopeOf(record);
      const boundaries = this.#boundariesSinceRequest.get(scope) ?? [];
      open = {
        request: emptyRequest(id, scope, model, typeof record.timestamp === "string" ? record.timestamp : null, line),
        hasUsage: false,
        boundaries,
      };
      open.request.prompt = this.#prompts.length;
      open.request.after = boundaries.length === 0 ? null : boundaries.map((boundary) => boundary.label).join("; ");
      this.#boundariesSinceRequest.delete(scope);
      this.#requestById.set(id, open);
      this.#requests.push(open);
    }
    if (Array.isArray(message.content))
      for (const block of message.content) {
        const typed = asRecord(block);
        if (typed?.type !== "tool_use" || typeof typed.name !== "string") continue;
        const useId = typeof typed.id === "string" ? typed.id : undefined;
        if (useId !== undefined && this.#toolUseIds.has(useId)) continue;
        if (useId !== undefined) this.#toolUseIds.add(useId);
        open.request.tools.push(typed.name);
      }
    const miss = serverCacheMiss(message.diagnostics);
    if (miss !== null) open.request.serverCacheMiss = miss;
    const dropped = thinkingDroppedIn(message.input_transformations);
    if (dropped > 0) open.request.thinkingDropped = dropped;
    const usage = asRecord(message.usage);
    if (usage === null) return;
    // Every record of a response may carry usage; the last one holds the final numbers.
    const wasCounted = open.hasUsage;
    applyUsage(open.request, usage);
    open.hasUsage = true;
    if (!wasCounted && open.request.scope === MAIN_SCOPE) {
      const request = open.request;
      this.#compaction.addMainRequest(
        request.inputTokens + request.cacheReadTokens + request.cacheWriteTokens,
        cacheReadUsdPerToken(request.model),
      );
    }
  }

  #addSystem(record: JsonRecord, line: number): void {
    this.#noteFormat();
    const scope = scopeOf(record);
    const subtype = String(record.subtype ?? "");
    switch (subtype) {
      case "compact_boundary": {
        const metadata = asRecord(record.compactMetadata);
        const post = metadata?.postTokens;
        const pre = numberOr(metadata?.preTokens, 0);
        this.#compaction.addCompact(pre, typeof post === "number" ? post : undefined);
        this.#compactions.push(compactionOf(metadata));
        const trigger = typeof metadata?.trigger === "string" ? ` (${metadata.trigger})` : "";
        const sizes =
          typeof post === "number" ? `: ${count(pre)} → ${count(post)} tokens` : ` from ${count(pre)} tokens`;
        this.#markBoundary(scope, {
          record: subtype,
          tier: "compact",
          label: `conversation compacted${trigger}${sizes}`,
        });
        break;
      }
      case "microcompact_boundary": {
        const metadata = asRecord(record.microcompactMetadata);
        const saved = numberOr(metadata?.tokensSaved, 0);
        this.#compaction.addMicrocompact(saved);
        const ids = metadata?.compactedToolIds;
        const results = Array.isArray(ids)
          ? `${ids.length} old tool result${ids.length === 1 ? "" : "s"}`
          : "old tool results";
        const how = metadata?.trigger === "cached" ? "deleted from the cache" : "cleared";
        this.#markBoundary(scope, {
          record: subtype,
          tier: "microcompact",
          label: `${results} ${how} (~${count(saved)} tokens)`,
        });
        break;
      }
      case "snip_boundary": {
        const removed = asRecord(record.snipMetadata)?.removedUuids;
        const uuids = Array.isArray(removed) ? removed.filter((uuid) => typeof uuid === "string") : [];
        this.#compaction.addSnip(uuids);
        this.#markBoundary(scope, {
          record: subtype,
          tier: "snip",
          label: `snipped ${uuids.length} message${uuids.length === 1 ? "" : "s"}`,
        });
        break;
      }
      case "api_error":
        this.#refusals.addClaudeCodeRetry(record, line, scope);
        break;
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

  #markBoundary(scope: string, boundary: Boundary): void {
    const list = this.#boundariesSinceRequest.get(scope) ?? [];
    list.push(boundary);
    this.#boundariesSinceRequest.set(scope, list);
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

function scopeOf(record: JsonRecord): string {
  if (record.isSidechain !== true) return MAIN_SCOPE;
  return typeof record.agentId === "string" && record.agentId !== "" ? record.agentId : "sidechain";
}

function asRecord(value: unknown): JsonRecord | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonRecord) : null;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** A `pause-choice` record with the fields the pause summary reads. */
function isPauseChoice(record: JsonRecord): record is JsonRecord & PauseChoiceShape {
  return (
    (record.policy === "expire" || record.policy === "one-hour" || record.policy === "keep-warm") &&
    (record.ttl === "5m" || record.ttl === "1h") &&
    typeof record.contextTokens === "number" &&
    typeof record.turnWriteTokens === "number" &&
    typeof record.timestamp === "string"
  );
}
