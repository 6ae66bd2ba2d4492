/**
 * The client's token ruler: characters / 4, images and documents 2,000 each. It is an estimate only: the
 * emulator counts with its own real tokenizer (packages/emulator ruler.ts, importing nothing of src/), and the
 * session calibrates this estimate against the server's reported count (docs/CONTEXT-BUDGET.md).
 */
import type { ContentBlock } from "./content.js";

/** Characters per token in the estimate. */
export const CHARS_PER_TOKEN = 4;

/** Tokens charged for one image or document block, whatever its size. */
export const MEDIA_BLOCK_TOKENS = 2_000;

/** Estimated tokens of a string. */
export function estimateTextTokens(text: string): number {
  return estimateCharTokens(text.length);
}

/**
 * Estimated tokens of `chars` characters: the ruler for a length known without its text (a file's size, a stream's
 * count so far). The one place characters become tokens (test/architecture/one-ruler.test.ts).
 */
export function estimateCharTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Characters the estimate lets `tokens` tokens hold: the ruler backwards, for cutting text to a token budget. */
export function charsForTokens(tokens: number): number {
  return tokens * CHARS_PER_TOKEN;
}

/** Estimated tokens of one content block (cache markers and references excluded). */
export function estimateBlockTokens(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return estimateTextTokens(block.text);
    case "image":
    case "document":
      return MEDIA_BLOCK_TOKENS;
    case "thinking":
      return estimateTextTokens(block.thinking);
    case "redacted_thinking":
      return estimateTextTokens(block.data);
    case "tool_use":
      return estimateTextTokens(block.name) + estimateTextTokens(JSON.stringify(block.input ?? {}));
    case "tool_result": {
      if (block.content === undefined) return 1;
      if (typeof block.content === "string") return estimateTextTokens(block.content) + 1;
      let total = 1;
      for (const inner of block.content) total += estimateBlockTokens(inner);
      return total;
    }
    case "cache_edits":
      return 0;
    case "server_tool_use":
      return estimateTextTokens(block.name) + estimateTextTokens(JSON.stringify(block.input ?? {}));
    case "web_search_tool_result":
      // The server reads the results it decrypts; their sent size is the estimate's best stand-in.
      return estimateTextTokens(JSON.stringify(block.content));
    case "compaction":
      // The server reads the summary text (encrypted content is opaque and its size is the server's).
      return block.content === null ? 0 : estimateTextTokens(block.content);
    default:
      return checkNever(block);
  }
}

/** Exhaustiveness check for discriminated-union switches. */
export function checkNever(value: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(value)}`);
}
