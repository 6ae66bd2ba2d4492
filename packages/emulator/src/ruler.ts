/**
 * The emulator's token ruler: a real BPE tokenizer (`@anthropic-ai/tokenizer`, Anthropic's published Claude
 * tokenizer), never the client's estimate. A server the client did not write counts with its own tokenizer, so
 * a client tested here meets a count it cannot reproduce by construction (packages/emulator/README.md,
 * "Counting tokens"). `ratio` multiplies every count to stand in for other tokenizers (llama.cpp, Qwen, …),
 * which count the same text 1.5–4× as many tokens.
 *
 * Images count from their pixel size as the API's vision docs put it (tokens ≈ width × height / 750, images
 * larger than the API's cap resized to it); a PDF counts per page; text documents count their text.
 */
import { createRequire } from "node:module";
import type { CacheControl, ContentBlock } from "./content.js";
import { imageDimensions } from "./validator/image-size.js";

/** Pixels per token of an image (the API's vision docs: tokens = width × height / 750). */
export const PIXELS_PER_IMAGE_TOKEN = 750;
/** Tokens of an image at the API's size cap (~1.15 megapixels), and of one whose size cannot be read (a URL). */
export const IMAGE_TOKEN_CAP = 1_600;
/** Tokens of one PDF page: the middle of the API's "1,500–3,000 tokens per page" (text plus the page image). */
export const PDF_PAGE_TOKENS = 2_250;

/** A tool definition as a request carries it (its JSON without the cache marker is what is counted). */
export interface RulerTool {
  cache_control?: CacheControl;
}

/** A block the ruler meets: one of the wire vocabulary, or a beta block (compaction, tool changes, …). */
export type RulerBlock = ContentBlock | { type: string };

/** What of a request body the ruler reads: tools, system and messages. */
export interface RulerRequest {
  tools?: readonly RulerTool[] | undefined;
  system?: string | readonly { text: string }[] | undefined;
  messages: readonly { content: string | readonly RulerBlock[] }[];
}

interface Tokenizer {
  encode(text: string, allowedSpecial: "all"): { length: number };
}

let tokenizer: Tokenizer | undefined;

/** The tokenizer, loaded on first use (parsing its ranks takes about a second; most CLI runs never count). */
function loadedTokenizer(): Tokenizer {
  if (tokenizer === undefined) {
    // CommonJS with a WebAssembly file beside it: required at run time, never bundled (scripts/bundle.mjs).
    const { getTokenizer } = createRequire(import.meta.url)(
      "@anthropic-ai/tokenizer",
    ) as typeof import("@anthropic-ai/tokenizer");
    tokenizer = getTokenizer() as unknown as Tokenizer;
  }
  return tokenizer;
}

/** Counts already made, by text: a conversation resends its history on every request. */
const counted = new Map<string, number>();
/** Characters held in `counted`; past this the memo starts over (bounded memory in long benches). */
const MEMO_CHAR_LIMIT = 64 * 1024 * 1024;
let memoChars = 0;

/**
 * Longest run without whitespace that is encoded whole. BPE merges within one pre-tokenised word cost time
 * quadratic in its length (100,000 "x" took 38 s, 90 MB of such results never finished and the bench's
 * connection was reset); minified code, base64 or a long hash is such a run. Longer runs are counted in pieces
 * of this length, which adds at most one token per cut (under 0.3 % of the run's count).
 */
export const LONGEST_WHOLE_RUN = 1_000;
const LONG_RUN = new RegExp(`\\S{${LONGEST_WHOLE_RUN + 1},}`, "g");
/** Whether a text holds such a run (no `g`: `test` on a global pattern would keep its position between calls). */
const HAS_LONG_RUN = new RegExp(`\\S{${LONGEST_WHOLE_RUN + 1}}`);

/** Tokens of `text` with every run longer than LONGEST_WHOLE_RUN counted in pieces: linear in the text's length. */
function countInPieces(text: string): number {
  const encoded = (piece: string) => (piece.length === 0 ? 0 : loadedTokenizer().encode(piece, "all").length);
  let tokens = 0;
  let from = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    tokens += encoded(text.slice(from, match.index));
    for (let cut = 0; cut < match[0].length; cut += LONGEST_WHOLE_RUN)
      tokens += encoded(match[0].slice(cut, cut + LONGEST_WHOLE_RUN));
    from = match.index + match[0].length;
  }
  return tokens + encoded(text.slice(from));
}

/** Tokens of `text` under the Claude tokenizer (NFKC-normalised, as the package's own `countTokens`). */
export function tokenizerCount(text: string): number {
  if (text.length === 0) return 0;
  const known = counted.get(text);
  if (known !== undefined) return known;
  const normalized = text.normalize("NFKC");
  const tokens = HAS_LONG_RUN.test(normalized)
    ? countInPieces(normalized)
    : loadedTokenizer().encode(normalized, "all").length;
  if (memoChars + text.length > MEMO_CHAR_LIMIT) {
    counted.clear();
    memoChars = 0;
  }
  counted.set(text, tokens);
  memoChars += text.length;
  return tokens;
}

/** Tokens of an image from its pixel size, capped where the API resizes. */
export function imageTokens(width: number, height: number): number {
  return Math.max(1, Math.min(IMAGE_TOKEN_CAP, Math.ceil((width * height) / PIXELS_PER_IMAGE_TOKEN)));
}

/** Pages of a PDF: its `/Type /Page` objects (not `/Pages`); at least one. */
export function pdfPageCount(base64: string): number {
  const text = Buffer.from(base64, "base64").toString("latin1");
  return Math.max(1, text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0);
}

/** JSON of a tool definition without its cache marker: the bytes that are billed and cached. */
export function toolJson(tool: RulerTool): string {
  const { cache_control: _marker, ...rest } = tool;
  return JSON.stringify(rest);
}

/** Block types the ruler knows by shape; any other block counts as its JSON. */
const KNOWN_BLOCKS: ReadonlySet<string> = new Set([
  "text",
  "image",
  "document",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "tool_result",
  "cache_edits",
  "compaction",
]);

/** Every `cache_edits` delete reference in the request's messages. */
export function deletedReferencesIn(request: RulerRequest): Set<string> {
  const deleted = new Set<string>();
  for (const message of request.messages) {
    if (typeof message.content === "string") continue;
    for (const counted of message.content) {
      const block = counted as ContentBlock;
      if (block.type === "cache_edits") for (const edit of block.edits) deleted.add(edit.cache_reference);
    }
  }
  return deleted;
}

/** Counts with the tokenizer, scaled by a ratio; one per emulator (its `tokenRatio` option). */
export class TokenRuler {
  /** The tokenizer's own count, ×1. */
  static readonly unscaled = new TokenRuler(1);

  constructor(readonly ratio: number) {
    if (!Number.isFinite(ratio) || ratio <= 0) throw new Error(`token ratio must be a positive number, not ${ratio}`);
  }

  private scaled(tokens: number): number {
    return this.ratio === 1 ? tokens : Math.ceil(tokens * this.ratio);
  }

  /** Tokens of a string. */
  text(text: string): number {
    return this.scaled(tokenizerCount(text));
  }

  /** Tokens of one content block; a tool_result whose `cache_reference` is in `deleted` counts 0. */
  block(counted: RulerBlock, deleted: ReadonlySet<string> = new Set()): number {
    if (!KNOWN_BLOCKS.has(counted.type)) {
      const { cache_control: _marker, ...rest } = counted as Record<string, unknown>;
      return this.text(JSON.stringify(rest));
    }
    const block = counted as ContentBlock;
    switch (block.type) {
      case "text":
        return this.text(block.text);
      case "image":
        return this.scaled(this.rawImage(block));
      case "document":
        return this.scaled(this.rawDocument(block));
      case "thinking":
        return this.text(block.thinking);
      case "redacted_thinking":
        return this.text(block.data);
      case "tool_use":
        return this.text(block.name) + this.text(JSON.stringify(block.input ?? {}));
      case "tool_result": {
        if (block.cache_reference !== undefined && deleted.has(block.cache_reference)) return 0;
        if (block.content === undefined) return 1;
        if (typeof block.content === "string") return this.text(block.content) + 1;
        let total = 1;
        for (const inner of block.content) total += this.block(inner, deleted);
        return total;
      }
      case "cache_edits":
        return 0;
      case "compaction":
        return block.content === null ? 0 : this.text(block.content);
      default:
        return 0;
    }
  }

  /** Input tokens of a whole request: tools as their JSON, system as its text, every message block. */
  request(request: RulerRequest, deleted: ReadonlySet<string> = deletedReferencesIn(request)): number {
    let total = 0;
    for (const tool of request.tools ?? []) total += this.text(toolJson(tool));
    if (typeof request.system === "string") total += this.text(request.system);
    else for (const block of request.system ?? []) total += this.text(block.text);
    for (const message of request.messages) {
      if (typeof message.content === "string") total += this.text(message.content);
      else for (const block of message.content) total += this.block(block, deleted);
    }
    return total;
  }

  private rawImage(block: Extract<ContentBlock, { type: "image" }>): number {
    if (block.source.type !== "base64") return IMAGE_TOKEN_CAP;
    const size = imageDimensions(block.source.data, block.source.media_type);
    return size === undefined ? IMAGE_TOKEN_CAP : imageTokens(size.width, size.height);
  }

  private rawDocument(block: Extract<ContentBlock, { type: "document" }>): number {
    const source = block.source as { type: string; data?: unknown; media_type?: string };
    if (source.type === "text" && typeof source.data === "string") return tokenizerCount(source.data);
    if (source.type === "base64" && typeof source.data === "string") return pdfPageCount(source.data) * PDF_PAGE_TOKENS;
    return PDF_PAGE_TOKENS;
  }
}
