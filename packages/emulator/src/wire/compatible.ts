/**
 * The emulator's `compatible` mode: a third-party Anthropic-compatible server, modelled on llama.cpp's
 * `llama-server` (`tools/server`, the `/v1/messages` route that converts to its chat format). Judged from
 * its source and from real clients' requests, it
 * - ignores what it does not implement instead of rejecting it: `cache_control`, `cache_reference`,
 *   `cache_edits` blocks, `context_management`, `anthropic-beta` and any unknown field;
 * - caches by prefix on its own (the slot's KV cache), so it reports `cache_read_input_tokens` as the tokens
 *   shared with the previous request and never a cache write;
 * - names tool calls with its own random ids (`random_string()`, 32 alphanumerics), not `toolu_…`;
 * - answers errors in its own OpenAI-style envelope (`format_error_response`):
 *   `{"error":{"code":400,"message":…,"type":"exceed_context_size_error","n_prompt_tokens":N,"n_ctx":M}}`,
 *   the overflow message being "request (N tokens) exceeds the available context size (M tokens), try
 *   increasing it" (the slot check is `n_tokens >= n_ctx`).
 * Some routers (claude-code-router) also report zero usage while streaming: `usage` chooses that.
 */
import { createHash } from "node:crypto";
import type { FlatBlock } from "../billing/flatten.js";
import type { Violation } from "../validator/violation.js";
import { isRecord } from "../validator/violation.js";
import type { ErrorReply } from "./errors.js";

/** How the emulator behaves: the public API's contract, or a lenient third-party server. */
export type EmulatorMode = "public" | "compatible";

/** Default mode: the public API. */
export const DEFAULT_EMULATOR_MODE: EmulatorMode = "public";

/** What usage a compatible server reports: its own counts, always zero, or zero only on streams. */
export type CompatibleUsage = "counted" | "zero" | "zero-while-streaming";

/** Default compatible usage: its own counts. */
export const DEFAULT_COMPATIBLE_USAGE: CompatibleUsage = "counted";

/** llama.cpp's error type for a prompt over the context. */
export const EXCEED_CONTEXT_SIZE_ERROR = "exceed_context_size_error";

/** The most unknown fields one request may carry before the server gives up stripping them. */
const MAX_STRIP_PASSES = 64;

/** llama.cpp's `format_error_response` body for `message` with an error type. */
function compatibleErrorBody(status: number, type: string, message: string): { error: Record<string, unknown> } {
  return { error: { code: status, message, type } };
}

/** The overflow error llama-server sends when the prompt does not fit `contextWindow`. */
export function compatibleOverflow(promptTokens: number, contextWindow: number): { status: 400; body: unknown } {
  return {
    status: 400,
    body: {
      error: {
        ...compatibleErrorBody(
          400,
          EXCEED_CONTEXT_SIZE_ERROR,
          `request (${promptTokens} tokens) exceeds the available context size (${contextWindow} tokens), try increasing it`,
        ).error,
        n_prompt_tokens: promptTokens,
        n_ctx: contextWindow,
      },
    },
  };
}

/** Any other error, in the server's own envelope (`invalid_request_error`, `server_error`, …). */
export function compatibleErrorReply(reply: ErrorReply): { status: number; body: unknown } {
  const type = reply.status >= 500 ? "server_error" : reply.type;
  return { status: reply.status, body: compatibleErrorBody(reply.status, type, reply.message) };
}

/**
 * The request with everything a compatible server ignores taken out: cache markers and references,
 * `cache_edits` blocks, `context_management`. Unknown fields the validator then names are removed by
 * `stripUnknownFields`. The input is not modified.
 */
export function ignoreUnimplemented(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const copy: Record<string, unknown> = structuredClone(body);
  delete copy.context_management;
  if (Array.isArray(copy.system)) for (const block of copy.system) if (isRecord(block)) delete block.cache_control;
  if (Array.isArray(copy.tools)) for (const tool of copy.tools) if (isRecord(tool)) delete tool.cache_control;
  if (Array.isArray(copy.messages)) {
    for (const message of copy.messages) {
      if (!isRecord(message) || !Array.isArray(message.content)) continue;
      message.content = message.content.filter((block: unknown) => !(isRecord(block) && block.type === "cache_edits"));
      for (const block of message.content as unknown[]) {
        if (!isRecord(block)) continue;
        delete block.cache_control;
        delete block.cache_reference;
        if (Array.isArray(block.content))
          for (const inner of block.content) if (isRecord(inner)) delete inner.cache_control;
      }
    }
  }
  return copy;
}

/**
 * Removes every field the validator reports as "Extra inputs are not permitted" (llama-server reads what it
 * knows and skips the rest), revalidating until none is left. Returns the cleaned body and what remains.
 */
export function stripUnknownFields(
  body: unknown,
  validate: (body: unknown) => Violation[],
): { body: unknown; violations: Violation[]; ignored: string[] } {
  const ignored: string[] = [];
  let violations = validate(body);
  for (let pass = 0; pass < MAX_STRIP_PASSES; pass++) {
    const extra = violations.find((violation) => violation.message.endsWith(": Extra inputs are not permitted"));
    if (extra === undefined) break;
    const path = extra.message.slice(0, -": Extra inputs are not permitted".length);
    if (!deletePath(body, path)) break;
    ignored.push(path);
    violations = validate(body);
  }
  return { body, violations, ignored };
}

function deletePath(root: unknown, path: string): boolean {
  const segments = path.split(".");
  const last = segments.pop();
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isRecord(current)) current = current[segment];
    else return false;
  }
  if (last === undefined || !isRecord(current) || !(last in current)) return false;
  delete current[last];
  return true;
}

/** A tool id in llama-server's style: 32 alphanumerics, derived from the emulator's own id (seeded, stable). */
export function compatibleToolId(id: string): string {
  const digest = createHash("sha256")
    .update(id)
    .digest("base64")
    .replace(/[^A-Za-z0-9]/g, "");
  return digest.padEnd(32, "0").slice(0, 32);
}

/**
 * The slot's prefix cache: the tokens the previous request's leading blocks share with this one's. A
 * single slot, like a default llama-server: any divergence evicts the rest.
 */
export class PrefixCache {
  private previous: readonly FlatBlock[] = [];

  /** Tokens of `blocks` served from the cache; remembers `blocks` for the next request. */
  measure(blocks: readonly FlatBlock[]): number {
    let cached = 0;
    for (let index = 0; index < blocks.length && index < this.previous.length; index++) {
      const block = blocks[index]!;
      if (block.bytes !== this.previous[index]!.bytes) break;
      cached += block.tokens;
    }
    this.previous = blocks;
    return cached;
  }
}
