/**
 * WebFetch, with Claude Code's name and schema (`url`, `prompt`, `offset`): fetches a page (web-fetch-http.ts),
 * then answers `prompt` about it in a side request to the session's model, as Claude Code does; without a model
 * to ask (outside an engine, or the side request failed) the page's text itself is the result. Deferred behind
 * ToolSearch. docs/TOOLS.md says what it does beyond Claude Code's.
 */
import * as z from "zod";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import {
  DEFAULT_WEB_FETCH_CACHE_MS,
  DEFAULT_WEB_FETCH_MAX_BYTES,
  DEFAULT_WEB_FETCH_TIMEOUT_MS,
  type FetchOutcome,
  fetchPage,
  PageCache,
} from "./web-fetch-http.js";

/** Characters of page text one call shows (the model reads on with `offset`). */
export const DEFAULT_WEB_FETCH_TEXT_CHARS = 100_000;
/** Output cap of the side request that answers the prompt. */
const ANSWER_MAX_TOKENS = 2048;

export const webFetchInputSchema = z.strictObject({
  url: z.url().describe("The URL to fetch content from"),
  prompt: z.string().describe("The prompt to run on the fetched content"),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      "Character position in the page text to start reading from. Use it to read on through a page too long for one call, with the value the previous result gave.",
    ),
});
export type WebFetchInput = z.infer<typeof webFetchInputSchema>;

const DESCRIPTION = `Fetches a URL, converts the page to markdown, and answers \`prompt\` against it.

- http:// and https:// only; pages over ${DEFAULT_WEB_FETCH_MAX_BYTES / (1024 * 1024)} MB and non-text content are refused.
- Cross-host redirects are returned to you rather than followed; call again with the redirect URL.
- Responses are cached for 15 minutes per URL.
- Long pages: the result says which \`offset\` reads on.`;

const ANSWER_SYSTEM =
  "You answer a question about one web page, using only the page's content given. Quote sparingly; say so when the page does not answer the question.";

export interface WebFetchOptions {
  maxBytes?: number;
  timeoutMs?: number;
  cacheMs?: number;
  textChars?: number;
  /** Clock for the cache (tests). Default Date.now. */
  now?: () => number;
}

/** The window of page text a call shows, with a line saying how to read on when more follows. */
function textWindow(text: string, offset: number, chars: number): string {
  if (offset >= text.length && text.length > 0)
    return `(offset ${offset} is past the end of the page text, ${text.length} characters.)`;
  const end = Math.min(text.length, offset + chars);
  const part = text.slice(offset, end);
  if (end >= text.length) return part;
  return `${part}\n\n(Page text continues: characters ${offset}-${end} of ${text.length} shown. Call WebFetch again with offset=${end} to read on.)`;
}

async function answer(
  page: FetchOutcome & { kind: "page" },
  window: string,
  input: WebFetchInput,
  context: ToolContext,
): Promise<{ text: string; answered: boolean }> {
  if (context.sideQuery === undefined) return { text: window, answered: false };
  try {
    const reply = await context.sideQuery({
      system: ANSWER_SYSTEM,
      prompt: `Web page content (${page.url}):\n---\n${window}\n---\n\n${input.prompt}`,
      maxTokens: ANSWER_MAX_TOKENS,
    });
    if (reply.trim() === "") return { text: window, answered: false };
    return { text: reply, answered: true };
  } catch (error) {
    // The page is still worth having: give its text, and say why it is not an answer.
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return {
      text: `(The question about the page could not be asked: ${why}. The page text follows.)\n\n${window}`,
      answered: false,
    };
  }
}

/** A WebFetch tool with its own page cache. */
export function createWebFetchTool(options: WebFetchOptions = {}): Tool<WebFetchInput> {
  const limits = {
    maxBytes: options.maxBytes ?? DEFAULT_WEB_FETCH_MAX_BYTES,
    timeoutMs: options.timeoutMs ?? DEFAULT_WEB_FETCH_TIMEOUT_MS,
  };
  const cache = new PageCache(options.cacheMs ?? DEFAULT_WEB_FETCH_CACHE_MS, options.now ?? Date.now);
  const textChars = options.textChars ?? DEFAULT_WEB_FETCH_TEXT_CHARS;
  return {
    name: "WebFetch",
    description: DESCRIPTION,
    inputSchema: webFetchInputSchema,
    deferLoading: true,
    // It reaches the network: asked for unless a `WebFetch(domain:…)` rule allows the host.
    isReadOnly: () => false,
    compactable: true,
    async call(input, context): Promise<ToolOutput> {
      const started = Date.now();
      const cached = cache.get(input.url);
      const outcome = cached ?? (await fetchPage(input.url, limits, context.signal));
      if (outcome.kind === "refused") return { content: outcome.message, isError: true };
      if (outcome.kind === "redirect") {
        return {
          content:
            `REDIRECT DETECTED: ${outcome.from} redirects (HTTP ${outcome.status}) to a different host: ${outcome.to}\n` +
            `It was not followed. To read it, call WebFetch again with url="${outcome.to}".`,
          display: { kind: "web-redirect", url: outcome.from, redirectUrl: outcome.to, code: outcome.status },
        };
      }
      if (cached === undefined) cache.set(input.url, outcome);
      const window = textWindow(outcome.text, input.offset ?? 0, textChars);
      const result = await answer(outcome, window, input, context);
      return {
        content: result.text,
        display: {
          kind: "web-fetch",
          url: outcome.url,
          code: outcome.status,
          codeText: outcome.statusText,
          bytes: outcome.bytes,
          cached: cached !== undefined,
          answered: result.answered,
          durationMs: Date.now() - started,
        },
      };
    },
  };
}

/** The session-wide WebFetch of the default tool set. */
export const webFetchTool: Tool<WebFetchInput> = createWebFetchTool();
