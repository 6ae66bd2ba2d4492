/**
 * The request log: one record per HTTP request, kept in memory and, when a path is given, appended to a
 * JSONL file (one JSON object a line, LF framing).
 */
import { appendFileSync } from "node:fs";
import type { AppliedEdit } from "./billing/context-management.js";
import type { StopReason } from "./content.js";
import type { FaultKind } from "./model/scenario.js";
import type { ReplySource } from "./model/scripted-model.js";
import type { InputTransformation } from "./model/thinking-binding.js";
import type { Violation } from "./validator/index.js";
import type { ResponseUsage } from "./wire/response.js";

export interface RequestLogEntry {
  /** 1-based position among all HTTP requests. */
  index: number;
  /** 1-based position among `POST /v1/messages` requests (what fault specs count). */
  messagesRequest?: number;
  method: string;
  path: string;
  /** Injected-clock time the request arrived. */
  receivedAt: number;
  /** Wall time spent answering, for benchmarks; tests never assert it. */
  durationMs: number;
  requestId: string;
  /** Request headers; credentials (`x-api-key`, `authorization`, cookies, any *key/token/secret*) as "[scrubbed]". */
  headers: Record<string, string>;
  /** "lenient" when violations are logged without rejecting, else "strict". */
  validation: "strict" | "lenient";
  /** Emulator-only features announced with this response (empty: the public API). */
  features: string[];
  status: number;
  stream: boolean;
  /** SHA-256 (hex) of the body's exact bytes (absent when there was no body read). */
  bodySha256?: string;
  /** The parsed body (absent when it was not JSON). */
  body?: unknown;
  violations: Violation[];
  fault?: FaultKind;
  usage?: ResponseUsage;
  stopReason?: StopReason | null;
  /** Block types of the answer, in order. */
  contentTypes?: string[];
  source?: ReplySource;
  /** Scenario step consumed (0-based), or waited for when `source` is "reread". */
  step?: number;
  /** Files the model read again because a step's need was not visible. */
  rereadFiles?: string[];
  /** Needs still invisible after the re-reads (the step was served anyway). */
  lostFacts?: Array<{ text: string; file: string }>;
  /** Blocks served from the prompt cache. */
  cacheReadBlocks?: number;
  appliedEdits?: AppliedEdit[];
  /** On a model that binds thinking: the blocks its prefix check dropped (empty when none), reported or not. */
  inputTransformations?: InputTransformation[];
  error?: { type: string; message: string };
}

export class RequestLog {
  readonly entries: RequestLogEntry[] = [];

  /** `path`: JSONL file to append to; default none (memory only). */
  constructor(private readonly path?: string) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    // Synchronous so records land in order and survive an abrupt close; this is a test server.
    if (this.path !== undefined) appendFileSync(this.path, `${JSON.stringify(entry)}\n`, "utf8");
  }
}
