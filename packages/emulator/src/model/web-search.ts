/**
 * The server's web search (the `web_search_*` server tool of the pinned SDK's types), answered from a fixed local
 * corpus the caller provides: no network. A request that declares the tool may get a `server_tool_use` (the query)
 * followed by a `web_search_tool_result` (the hits, or an error object) and a text block citing the first hit, and
 * its usage counts `server_tool_use.web_search_requests`. Hits are corpus documents sharing a word with the query
 * (two letters or more, case-folded), ranked by how many they share, filtered by the tool's `allowed_domains` /
 * `blocked_domains` (a domain covers its subdomains), five at most.
 */
import { createHmac } from "node:crypto";
import type { AssistantContentBlock, WebSearchResult } from "../content.js";
import type { EmulatorRequest } from "../request-types.js";
import type { IdGenerator } from "./random.js";

/** One page of the corpus. */
export interface WebSearchDocument {
  url: string;
  title: string;
  /** The page's text: what the model "reads" (carried inside `encrypted_content`) and cites. */
  text: string;
  /** How old the page is, as the API words it ("3 days ago"). Default null. */
  page_age?: string;
}

/** Tool types of the server web search in the pinned SDK (`WebSearchTool20250305`, …20260209, …20260318). */
export const WEB_SEARCH_TOOL_TYPES: ReadonlySet<string> = new Set([
  "web_search_20250305",
  "web_search_20260209",
  "web_search_20260318",
]);

/** Hits per search. */
export const WEB_SEARCH_MAX_RESULTS = 5;

/** The declared web search tool's settings, or undefined when the request does not declare it. */
export interface WebSearchSpec {
  maxUses: number | undefined;
  allowedDomains: string[] | undefined;
  blockedDomains: string[] | undefined;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

export function declaredWebSearch(request: EmulatorRequest): WebSearchSpec | undefined {
  for (const tool of request.tools ?? []) {
    const record = tool as Record<string, unknown>;
    if (typeof record.type !== "string" || !WEB_SEARCH_TOOL_TYPES.has(record.type)) continue;
    return {
      maxUses: typeof record.max_uses === "number" ? record.max_uses : undefined,
      allowedDomains: stringList(record.allowed_domains),
      blockedDomains: stringList(record.blocked_domains),
    };
  }
  return undefined;
}

/** Whether the request declares tools the client runs (a custom tool has no `type`, or `type: "custom"`). */
export function declaresClientTools(request: EmulatorRequest): boolean {
  return (request.tools ?? []).some((tool) => {
    const type = (tool as Record<string, unknown>).type;
    return type === undefined || type === null || type === "custom";
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** `example.com` covers `example.com` and `docs.example.com`; a path (`example.com/blog`) covers that path. */
function domainCovers(domain: string, url: string): boolean {
  const [host = "", ...path] = domain.toLowerCase().split("/");
  const urlHost = hostOf(url);
  if (urlHost !== host && !urlHost.endsWith(`.${host}`)) return false;
  if (path.length === 0) return true;
  try {
    return new URL(url).pathname.startsWith(`/${path.join("/")}`);
  } catch {
    return false;
  }
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []);
}

/** The corpus documents for `query` under `spec`'s domain filters, best first. */
export function searchCorpus(
  corpus: readonly WebSearchDocument[],
  query: string,
  spec: WebSearchSpec,
): WebSearchDocument[] {
  const wanted = words(query);
  const scored: Array<{ document: WebSearchDocument; score: number; order: number }> = [];
  corpus.forEach((document, order) => {
    if (spec.allowedDomains && !spec.allowedDomains.some((domain) => domainCovers(domain, document.url))) return;
    if (spec.blockedDomains?.some((domain) => domainCovers(domain, document.url))) return;
    const have = words(`${document.title} ${document.text}`);
    let score = 0;
    for (const word of wanted) if (have.has(word)) score++;
    if (score > 0) scored.push({ document, score, order });
  });
  scored.sort((left, right) => right.score - left.score || left.order - right.order);
  return scored.slice(0, WEB_SEARCH_MAX_RESULTS).map((entry) => entry.document);
}

/** An opaque, signed stand-in for the API's encrypted page content: the validator rejects one it did not issue. */
export function encryptContent(document: WebSearchDocument, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ url: document.url, text: document.text }), "utf8").toString("base64");
  return `${payload}.${createHmac("sha256", secret).update(payload).digest("base64url")}`;
}

/** Whether `value` is an `encryptContent` output under `secret`. */
export function isIssuedContent(value: string, secret: string): boolean {
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return false;
  const payload = value.slice(0, dot);
  return createHmac("sha256", secret).update(payload).digest("base64url") === value.slice(dot + 1);
}

/** Searches made by earlier server_tool_use blocks of the turn in progress (the assistant message being continued). */
function usesSoFar(request: EmulatorRequest): number {
  const last = request.messages.at(-1);
  if (last?.role !== "assistant" || typeof last.content === "string") return 0;
  return last.content.filter((block) => block.type === "server_tool_use").length;
}

/**
 * The blocks of one search for `query`: the call, its result (hits, `max_uses_exceeded`, or `unavailable` without
 * a corpus), and, when something was found, a sentence citing the first hit.
 */
export function webSearchBlocks(
  query: string,
  spec: WebSearchSpec,
  request: EmulatorRequest,
  corpus: readonly WebSearchDocument[] | undefined,
  ids: IdGenerator,
  secret: string,
): AssistantContentBlock[] {
  const id = ids.next("srvtoolu");
  const call: AssistantContentBlock = { type: "server_tool_use", id, name: "web_search", input: { query } };
  const error = (error_code: string): AssistantContentBlock[] => [
    call,
    { type: "web_search_tool_result", tool_use_id: id, content: { type: "web_search_tool_result_error", error_code } },
  ];
  if (spec.maxUses !== undefined && usesSoFar(request) >= spec.maxUses) return error("max_uses_exceeded");
  if (corpus === undefined) return error("unavailable");
  const hits = searchCorpus(corpus, query, spec);
  const results: WebSearchResult[] = hits.map((document) => ({
    type: "web_search_result",
    url: document.url,
    title: document.title,
    encrypted_content: encryptContent(document, secret),
    page_age: document.page_age ?? null,
  }));
  const blocks: AssistantContentBlock[] = [call, { type: "web_search_tool_result", tool_use_id: id, content: results }];
  const first = hits[0];
  if (first !== undefined) {
    const cited = first.text.slice(0, 150);
    blocks.push({
      type: "text",
      text: `${first.title}: ${cited}`,
      citations: [
        {
          type: "web_search_result_location",
          url: first.url,
          title: first.title,
          cited_text: cited,
          encrypted_index: Buffer.from(`${id}:0`).toString("base64"),
        },
      ],
    });
  } else blocks.push({ type: "text", text: `No results for ${query}.` });
  return blocks;
}
