/**
 * Thinking bound to its prefix, as the platform documents it (build-with-claude/preserved-thinking/prefix-checks,
 * SDK 1.17 `BetaThinkingBlockBinding`, `BetaInputTransformation`): on a model with preserved thinking, every
 * thinking block sent back is checked against the prefix it was produced after — `system`, `tools` and every
 * earlier message. A block whose prefix changed fails the check: by default the request is a 400; with
 * `thinking.block_binding.prefix_mismatch_behavior: "drop_block"` the failing block (and the rest of that
 * message's consecutive thinking blocks) is removed and each removal is listed in `input_transformations`
 * (reported only under beta `thinking-binding-controls-2026-08-01`; the field itself needs that beta too).
 *
 * The emulator keeps the record of a block's prefix in its signature: a digest of the prefix as the model saw it
 * (cache_control markers are not part of the prompt; a compaction block sent back stands for what it replaced),
 * with an HMAC tying the digest to the thinking text. Nothing is stored between requests.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { afterLastCompaction } from "../billing/server-compaction.js";
import type { ContentBlock, ThinkingBlock } from "../content.js";
import type { EmulatorRequest } from "../request-types.js";

/** The beta the `block_binding` control and the `input_transformations` report need. */
export const THINKING_BINDING_BETA = "thinking-binding-controls-2026-08-01";

/**
 * Models with preserved thinking that run the prefix check (the `supportedModels` of the prefix-checks page). Older
 * models have no such check.
 */
const PREFIX_CHECKED: readonly string[] = [
  "claude-fable-5-2",
  "claude-mythos-5-2",
  "claude-fable-5-1",
  "claude-mythos-5-1",
  "claude-opus-5-5",
  "claude-sonnet-5-5",
  "claude-haiku-5-5",
];

/** Whether `model` checks the prefix of the thinking blocks sent back to it. */
export function checksThinkingPrefix(model: string): boolean {
  return PREFIX_CHECKED.some((prefix) => model.startsWith(prefix));
}

/** One entry of the response's `input_transformations` (SDK `BetaThinkingDroppedInputTransformation`). */
export interface InputTransformation {
  type: "thinking_dropped";
  path: string;
  reason: "prefix_binding_mismatch";
}

/** Marks a signature that carries the record of its prefix: `tb1:<digest hex>:<hmac base64>`. */
const BOUND_PREFIX = "tb1:";

const isThinking = (block: unknown): boolean =>
  typeof block === "object" &&
  block !== null &&
  ((block as { type?: unknown }).type === "thinking" || (block as { type?: unknown }).type === "redacted_thinking");

/** JSON with sorted keys and no `cache_control`: the prompt, not how it was marked or spelled. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => key !== "cache_control" && record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(",")}}`;
}

/** A string content is the same prompt as one text block holding it. */
function blocksOf(content: string | readonly unknown[] | undefined): readonly unknown[] {
  if (content === undefined) return [];
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

/**
 * The digest of what comes before block `blockIndex` of `head` (a message following `before`): system, tools,
 * the messages before it and the blocks before it in its own message, after the last compaction block.
 */
function prefixDigest(
  request: EmulatorRequest,
  before: EmulatorRequest["messages"],
  head: { role: string; content: readonly unknown[] },
  blockIndex: number,
): string {
  const messages = [...before, { role: head.role, content: head.content.slice(0, blockIndex) }];
  const seen = afterLastCompaction({ ...request, messages: messages as EmulatorRequest["messages"] });
  const prompt = {
    system: blocksOf(request.system as string | unknown[] | undefined),
    tools: request.tools ?? [],
    messages: seen.messages.map((message) => ({ role: message.role, content: blocksOf(message.content) })),
  };
  return createHash("sha256").update(canonical(prompt), "utf8").digest("hex");
}

function mac(digest: string, thinking: string, secret: string): string {
  return createHmac("sha256", secret).update(`${digest}\n${thinking}`, "utf8").digest("base64");
}

/** A signature for `thinking` bound to `digest`. */
function boundSignature(thinking: string, digest: string, secret: string): string {
  return `${BOUND_PREFIX}${digest}:${mac(digest, thinking, secret)}`;
}

/** The digest a bound signature carries, when it is one and its HMAC over `thinking` holds; else undefined. */
function boundDigest(thinking: string, signature: string, secret: string): string | undefined {
  if (!signature.startsWith(BOUND_PREFIX)) return undefined;
  const [digest, given] = signature.slice(BOUND_PREFIX.length).split(":");
  if (digest === undefined || given === undefined) return undefined;
  const expected = Buffer.from(mac(digest, thinking, secret), "utf8");
  const actual = Buffer.from(given, "utf8");
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? digest : undefined;
}

/** Whether `signature` is a bound one whose HMAC holds for `thinking` (the text was not modified). */
export function verifyBoundThinking(thinking: string, signature: string, secret: string): boolean {
  return boundDigest(thinking, signature, secret) !== undefined;
}

/**
 * The response's thinking blocks re-signed with the record of their prefix: the request as sent, then the response's
 * own blocks before each one. Only on the models that check prefixes; other models' blocks are returned unchanged.
 */
export function bindThinking<Block extends { type: string }>(
  request: EmulatorRequest,
  content: readonly Block[],
  secret: string,
): Block[] {
  if (!checksThinkingPrefix(request.model)) return content.slice();
  // Signed in order: a later block's prefix holds the earlier blocks as the client will send them back.
  const signed: Block[] = [];
  const head = { role: "assistant", content: signed };
  for (const block of content) {
    const thinking = (block as Partial<ThinkingBlock>).thinking;
    if (block.type !== "thinking" || typeof thinking !== "string") {
      signed.push(block);
      continue;
    }
    const digest = prefixDigest(request, request.messages, head, signed.length);
    signed.push({ ...block, signature: boundSignature(thinking, digest, secret) });
  }
  return signed;
}

/** What the prefix check found: the failing blocks' paths, and the request with them removed. */
export interface PrefixCheck {
  /** `messages.{i}.content.{j}` of every block that failed or was removed with one that did, in request order. */
  failed: string[];
  /** The request the model sees once the failing blocks are dropped (the same object when none failed). */
  dropped: EmulatorRequest;
}

/**
 * Checks every `thinking` block of every assistant message against the prefix recorded in its signature. A block
 * without such a record (made elsewhere, or by a model that does not bind) fails: the model requires one. A
 * `redacted_thinking` block carries no readable record and passes unless it follows a failing block in its message.
 */
export function checkThinkingPrefixes(request: EmulatorRequest, secret: string): PrefixCheck {
  const failed: string[] = [];
  if (!checksThinkingPrefix(request.model)) return { failed, dropped: request };
  let changed = false;
  const messages = request.messages.map((message, messageIndex) => {
    if (message.role !== "assistant" || typeof message.content === "string") return message;
    const blocks = message.content as readonly ContentBlock[];
    const keep: ContentBlock[] = [];
    let dropping = false;
    blocks.forEach((block, blockIndex) => {
      if (!isThinking(block)) {
        dropping = false;
        keep.push(block);
        return;
      }
      if (!dropping && block.type === "thinking") {
        const recorded = boundDigest(block.thinking, block.signature, secret);
        const head = { role: message.role, content: blocks };
        const actual = prefixDigest(request, request.messages.slice(0, messageIndex), head, blockIndex);
        // A failing block takes the rest of its message's consecutive thinking blocks with it.
        dropping = recorded !== actual;
      }
      if (dropping) failed.push(`messages.${messageIndex}.content.${blockIndex}`);
      else keep.push(block);
    });
    if (keep.length === blocks.length) return message;
    changed = true;
    return { ...message, content: keep };
  });
  return { failed, dropped: changed ? { ...request, messages } : request };
}

/** `thinking.block_binding.prefix_mismatch_behavior` of the request: "error" unless it asks for "drop_block". */
export function prefixMismatchBehavior(request: EmulatorRequest): "error" | "drop_block" {
  const thinking = request.thinking as { block_binding?: { prefix_mismatch_behavior?: unknown } | null } | undefined;
  return thinking?.block_binding?.prefix_mismatch_behavior === "drop_block" ? "drop_block" : "error";
}

/** Whether the request sets `thinking.block_binding` at all (the field needs THINKING_BINDING_BETA). */
export function setsBlockBinding(request: EmulatorRequest): boolean {
  const thinking = request.thinking as { block_binding?: unknown } | undefined;
  return thinking?.block_binding !== undefined && thinking.block_binding !== null;
}

/** The documented 400 for a block that failed the check under the default behaviour. */
export function prefixMismatchMessage(path: string): string {
  return (
    `${path}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. ` +
    'Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".'
  );
}
