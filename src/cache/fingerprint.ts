/**
 * Phase 1 of cache-break detection: hash each dimension of a request that feeds the provider's prompt-cache
 * key, each on its own, so a later break can be explained by exactly the dimensions that moved.
 */
import type { AssembledRequest, RequestTool, SystemBlock } from "../request/index.js";
import { memoizeByObject } from "../timeline/index.js";
import { shortHash, stableJson } from "./stable-json.js";

/** Hashes (or short literal values) of every cache-relevant dimension of one request. */
export interface Fingerprint {
  /** System prompt text, cache_control removed. */
  system: string;
  /** Where cache_control markers sit on system blocks and tools, with their TTLs. */
  cacheLayout: string;
  /** All tools, in order, cache_control removed. */
  tools: string;
  /** Each tool by name, cache_control removed. */
  perTool: Record<string, string>;
  model: string;
  /** Sorted, de-duplicated beta headers, comma-joined. */
  betas: string;
  /** Thinking configuration and effort. */
  thinking: string;
  /** Fast / auto mode fields. */
  mode: string;
  /** Every other body field that reaches the cache key (tool_choice, context_management, unknown extras). */
  extraBody: string;
}

/** The readable material behind a fingerprint, kept so a break can be explained and diffed. */
export interface RequestSnapshot {
  fingerprint: Fingerprint;
  /** System blocks' text joined by blank lines (what the diff file shows). */
  systemText: string;
  /** Tools without cache_control, by name, in request order. */
  tools: Array<{ name: string; definition: Record<string, unknown> }>;
  betas: string[];
  /** Extra body fields by key, as stable JSON. */
  extraBody: Record<string, string>;
  /** Whether any cache_control in the request asked for the 1-hour TTL. */
  usesOneHourTtl: boolean;
}

/**
 * Body fields that never change the cache key (or, for messages, are the growing tail itself). `diagnostics`
 * names the previous response, so it differs on every request: the server's comparison showed the detector
 * blaming it for breaks it did not cause (issue 55).
 */
const NEUTRAL_FIELDS: ReadonlySet<string> = new Set([
  "diagnostics",
  "model",
  "max_tokens",
  "system",
  "messages",
  "tools",
  "metadata",
  "stream",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
]);

/** Body fields grouped under the thinking/effort dimension. */
const THINKING_FIELDS: readonly string[] = ["thinking", "effort", "output_config"];

/** Body fields grouped under the fast/auto mode dimension. */
const MODE_FIELDS: readonly string[] = ["speed", "service_tier", "mode"];

/** Fingerprint of one assembled request: one hash per dimension. */
export function fingerprintRequest(request: AssembledRequest): Fingerprint {
  return snapshotRequest(request).fingerprint;
}

/** Fingerprint plus the readable material a diff and a cause need. */
export function snapshotRequest(request: AssembledRequest): RequestSnapshot {
  const body = request.body as unknown as Record<string, unknown>;
  const system = request.body.system ?? [];
  const toolList = request.body.tools ?? [];
  const hashed = toolList.map(hashedTool);
  const tools = hashed.map(({ name, definition }) => ({ name, definition }));
  const betas = [...new Set(request.betas)].sort();

  const perTool: Record<string, string> = {};
  for (const tool of hashed) perTool[tool.name] = tool.hash;

  const extraBody: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || NEUTRAL_FIELDS.has(key) || THINKING_FIELDS.includes(key) || MODE_FIELDS.includes(key))
      continue;
    extraBody[key] = stableJson(value);
  }

  const fingerprint: Fingerprint = {
    system: shortHash(stableJson(system.map((block) => block.text))),
    cacheLayout: shortHash(stableJson({ system: markers(system), tools: markers(toolList) })),
    tools: shortHash(hashed.map((tool) => tool.hash).join(",")),
    perTool,
    model: request.body.model,
    betas: betas.join(","),
    thinking: stableJson(pick(body, THINKING_FIELDS)),
    mode: stableJson(pick(body, MODE_FIELDS)),
    extraBody: shortHash(stableJson(extraBody)),
  };
  return {
    fingerprint,
    systemText: system.map((block) => block.text).join("\n\n"),
    tools,
    betas,
    extraBody,
    usesOneHourTtl: usesOneHourTtl(request),
  };
}

/**
 * Whether the whole prefix lives an hour: the last marker in cache order (tools, system, messages) asks for 1h.
 * A 1h marker may not follow a 5m one (API rule), so the last marker has the shortest TTL; with a 1h system
 * prompt under a 5m conversation (the pause policy's cold-start hedge) the conversation expires at 5 minutes,
 * and a pause longer than that explains a drop. The last marker is usually on the last message.
 */
function usesOneHourTtl(request: AssembledRequest): boolean {
  type Markable = { cache_control?: { ttl?: string } };
  const last = (blocks: readonly Markable[]) => blocks.findLast((block) => block.cache_control !== undefined);
  let marker: Markable | undefined;
  for (let index = request.body.messages.length - 1; marker === undefined && index >= 0; index--) {
    const content = request.body.messages[index]!.content;
    if (typeof content !== "string") marker = last(content as readonly Markable[]);
  }
  marker ??= last(request.body.system ?? []) ?? last(request.body.tools ?? []);
  return marker?.cache_control?.ttl === "1h";
}

interface HashedTool {
  name: string;
  definition: Record<string, unknown>;
  hash: string;
}

/** By definition object: a session sends the same tool objects every turn, hashed once. */
const hashedTool = memoizeByObject((tool: RequestTool): HashedTool => {
  const definition = withoutCacheControl(tool);
  return { name: tool.name, definition, hash: shortHash(stableJson(definition)) };
});

function withoutCacheControl(tool: RequestTool): Record<string, unknown> {
  const { cache_control: _ignored, ...rest } = tool;
  return rest;
}

function markers(blocks: ReadonlyArray<SystemBlock | RequestTool>): Array<string | null> {
  return blocks.map((block) => (block.cache_control ? (block.cache_control.ttl ?? "5m") : null));
}

function pick(body: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (body[key] !== undefined) picked[key] = body[key];
  return picked;
}
