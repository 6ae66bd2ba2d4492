/**
 * Flattens a request into the block sequence the prompt cache sees: tools → system → message blocks.
 * Each block carries the bytes that enter the cache key: its JSON without `cache_control` and
 * `cache_reference` (a client adds those to blocks already cached, and must not break its cache by doing so);
 * `cache_edits` blocks are left out entirely. Role changes, `tool_choice` and `thinking` are folded into the
 * bytes too, because changing them breaks the messages part of the cache.
 */
import type { EmulatorRequest } from "../request-types.js";
import { TokenRuler, toolJson } from "../ruler.js";

export interface FlatBlock {
  /** Where the block sits, e.g. `tools.0`, `system.1`, `messages.3.content.0`. */
  path: string;
  /** The bytes this block adds to the cache key. */
  bytes: string;
  /** Billed tokens (0 for a tool_result deleted by cache_edits). */
  tokens: number;
  /** Set when the block carries `cache_control` (a breakpoint). */
  ttl?: "5m" | "1h";
}

function withoutMarkers(block: object): string {
  const { cache_control: _marker, cache_reference: _reference, ...rest } = block as Record<string, unknown>;
  return JSON.stringify(rest);
}

function ttlOf(block: { cache_control?: { ttl?: "5m" | "1h" } | undefined }): "5m" | "1h" | undefined {
  return block.cache_control ? (block.cache_control.ttl ?? "5m") : undefined;
}

function push(out: FlatBlock[], path: string, bytes: string, tokens: number, ttl: "5m" | "1h" | undefined): void {
  const block: FlatBlock = { path, bytes, tokens };
  if (ttl !== undefined) block.ttl = ttl;
  out.push(block);
}

/**
 * The cache's view of `request`; `deletedReferences` are tool_result references deleted by cache_edits. Tokens are
 * `ruler`'s (the emulator's tokenizer, ×1 unless the emulator was given a ratio).
 */
export function flattenRequest(
  request: EmulatorRequest,
  deletedReferences: ReadonlySet<string>,
  ruler: TokenRuler = TokenRuler.unscaled,
): FlatBlock[] {
  const out: FlatBlock[] = [];
  const tools = request.tools ?? [];
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    const bytes = toolJson(tool);
    push(out, `tools.${index}`, bytes, ruler.text(bytes), ttlOf(tool));
  }
  if (typeof request.system === "string") {
    push(out, "system", JSON.stringify({ type: "text", text: request.system }), ruler.text(request.system), undefined);
  } else {
    const system = request.system ?? [];
    for (let index = 0; index < system.length; index++) {
      const block = system[index]!;
      push(out, `system.${index}`, withoutMarkers(block), ruler.text(block.text), ttlOf(block));
    }
  }
  // Carried into the next block's bytes: the messages-section settings, then each role change.
  let pending = `\u0000messages${JSON.stringify({ tool_choice: request.tool_choice, thinking: request.thinking })}`;
  for (let messageIndex = 0; messageIndex < request.messages.length; messageIndex++) {
    const message = request.messages[messageIndex]!;
    pending += `\u0000${message.role}`;
    if (typeof message.content === "string") {
      const bytes = pending + JSON.stringify({ type: "text", text: message.content });
      push(out, `messages.${messageIndex}.content`, bytes, ruler.text(message.content), undefined);
      pending = "";
      continue;
    }
    for (let blockIndex = 0; blockIndex < message.content.length; blockIndex++) {
      const block = message.content[blockIndex]!;
      if (block.type === "cache_edits") continue;
      const ttl = "cache_control" in block ? ttlOf(block) : undefined;
      const path = `messages.${messageIndex}.content.${blockIndex}`;
      push(out, path, pending + withoutMarkers(block), ruler.block(block, deletedReferences), ttl);
      pending = "";
    }
  }
  return out;
}
