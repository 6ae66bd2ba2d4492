/**
 * Questions asked outside the conversation for a tool, to the session's model with their own system prompt and
 * one user message: WebFetch's `prompt` about a page (no tools, billed as `web-fetch`), and WebSearch's query
 * (the server's `web_search` tool only, billed as `web-search`; docs/TOOLS.md, "WebSearch"). They share nothing
 * with the conversation's cached prefix, so they write no cache.
 */

import {
  type AssistantContentBlock,
  createUserEntry,
  type SideRequestPurpose,
  textBlock,
  type Usage,
} from "../../messages/index.js";
import { ProviderError, type ProviderEvent } from "../../provider/index.js";
import { assembleRequest, type ServerToolDefinition } from "../../request/index.js";
import type { SideQuery, WebSearchAnswer, WebSearchQuery } from "../../tools/index.js";
import { AssistantEntries } from "../assistant-entries.js";
import type { ForkParent } from "../query-context.js";

const SIDE_QUERY_SESSION_ID = "side-query";

/** Searches one WebSearch call may make: Claude Code 2.1.328 sends `max_uses: 8` (docs/TOOLS.md). */
export const DEFAULT_WEB_SEARCH_MAX_USES = 8;
/** Output cap of a search side request: the model only says what it found. */
const WEB_SEARCH_MAX_TOKENS = 4096;
const WEB_SEARCH_SYSTEM = "You run web searches for another assistant: search for what you are given, then stop.";

interface SideRequest {
  purpose: SideRequestPurpose;
  system: string;
  prompt: string;
  maxTokens: number;
  serverTools?: readonly ServerToolDefinition[];
}

/** Sends one side request for `parent` and reports its bill; the response's blocks in order. */
async function sideRequest(fork: ForkParent, side: SideRequest): Promise<AssistantContentBlock[]> {
  const message = createUserEntry(
    { sessionId: SIDE_QUERY_SESSION_ID, parentUuid: null, uuid: "00000000-0000-4000-8000-000000000001" },
    [textBlock(side.prompt)],
  );
  const { request } = assembleRequest({
    messages: [message],
    settings: {
      model: fork.settings.model,
      systemPrompt: [side.system],
      tools: [],
      ...(side.serverTools !== undefined ? { serverTools: side.serverTools } : {}),
      maxTokens: side.maxTokens,
      skipCacheWrite: true,
      ...(fork.settings.omitBetas !== undefined ? { omitBetas: fork.settings.omitBetas } : {}),
      ...(fork.settings.modelOverrides !== undefined ? { modelOverrides: fork.settings.modelOverrides } : {}),
    },
    latches: fork.latches,
    pins: [],
  });
  const model = fork.settings.model;
  // Each attempt the server refused is recorded, as for the conversation's own requests (failed-requests.ts).
  const onRetry = (retry: Extract<ProviderEvent, { type: "retry" }>): void =>
    fork.onRequestFailed?.({ purpose: side.purpose, model, error: retry.error, retried: true });
  const options = { onRetry, ...(fork.signal !== undefined ? { signal: fork.signal } : {}) };
  const content: AssistantContentBlock[] = [];
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  try {
    if (fork.provider.complete !== undefined) {
      const reply = await fork.provider.complete(request, options);
      content.push(...reply.content);
      usage = reply.usage;
    } else {
      const entries = new AssistantEntries(() => ({ sessionId: SIDE_QUERY_SESSION_ID, parentUuid: null }));
      for await (const event of fork.provider.stream(request, options)) {
        for (const entry of entries.push(event)) content.push(...entry.message.content);
        if (event.type === "message_end") usage = event.usage;
        if (event.type === "retry") onRetry(event);
      }
    }
  } catch (error) {
    if (error instanceof ProviderError) fork.onRequestFailed?.({ purpose: side.purpose, model, error, retried: false });
    throw error;
  }
  fork.onSideRequest?.({ purpose: side.purpose, model, usage });
  return content;
}

/** The `sideQuery` of a tool context: asks `parent`'s provider and model, reporting the bill to `parent`. */
export function sideQueryFor(parent: () => ForkParent): (query: SideQuery) => Promise<string> {
  return async (query) => {
    const content = await sideRequest(parent(), { purpose: "web-fetch", ...query });
    return content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  };
}

/**
 * The `webSearch` of a tool context, for a server that declares web search: one side request carrying the
 * `web_search_20250305` server tool with the call's domain filters, as Claude Code answers its WebSearch.
 */
export function webSearchFor(parent: () => ForkParent): (query: WebSearchQuery) => Promise<WebSearchAnswer> {
  return async (query) => {
    const tool: ServerToolDefinition = {
      type: "web_search_20250305",
      name: "web_search",
      max_uses: DEFAULT_WEB_SEARCH_MAX_USES,
      ...(query.allowedDomains !== undefined && query.allowedDomains.length > 0
        ? { allowed_domains: [...query.allowedDomains] }
        : {}),
      ...(query.blockedDomains !== undefined && query.blockedDomains.length > 0
        ? { blocked_domains: [...query.blockedDomains] }
        : {}),
    };
    const content = await sideRequest(parent(), {
      purpose: "web-search",
      system: WEB_SEARCH_SYSTEM,
      prompt: `Search the web for: ${query.query}`,
      maxTokens: WEB_SEARCH_MAX_TOKENS,
      serverTools: [tool],
    });
    return { content };
  };
}
