/**
 * Token estimates of content read from a transcript file. The content is untrusted JSON, so unlike
 * `estimateBlockTokens` this never throws on a block type it does not know; it uses the same ruler
 * (characters / 4, media 2,000) so snip and collapse savings compare with the rest of threadline.
 */
import { estimateTextTokens, MEDIA_BLOCK_TOKENS } from "../../messages/index.js";

/** Estimated tokens of a message's `content` (a string or a list of blocks) of unknown shape. */
export function estimateContentTokens(content: unknown): number {
  if (typeof content === "string") return estimateTextTokens(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const block of content) total += estimateUnknownBlock(block);
  return total;
}

function estimateUnknownBlock(block: unknown): number {
  if (block === null || typeof block !== "object") return 0;
  const record = block as Record<string, unknown>;
  switch (record.type) {
    case "text":
      return typeof record.text === "string" ? estimateTextTokens(record.text) : 0;
    case "thinking":
      return typeof record.thinking === "string" ? estimateTextTokens(record.thinking) : 0;
    case "redacted_thinking":
      return typeof record.data === "string" ? estimateTextTokens(record.data) : 0;
    case "image":
    case "document":
      return MEDIA_BLOCK_TOKENS;
    case "tool_use":
      return estimateTextTokens(String(record.name ?? "")) + estimateTextTokens(JSON.stringify(record.input ?? {}));
    case "tool_result":
      return 1 + estimateContentTokens(record.content);
    case "cache_edits":
      return 0;
    default:
      return estimateTextTokens(JSON.stringify(record));
  }
}
