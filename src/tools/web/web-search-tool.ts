/**
 * WebSearch, with Claude Code 2.1.328's name and schema (`query`, `allowed_domains`, `blocked_domains`): one side
 * request to the session's model carrying the server's own `web_search` tool, as Claude Code answers it; the
 * result lists the pages found and what the search model said of them. Offered only where the server declares web
 * search (`ProviderCapabilities.webSearch`); elsewhere a call gets one line saying so (docs/TOOLS.md, "WebSearch").
 */
import * as z from "zod";
import type { AssistantContentBlock } from "../../messages/index.js";
import type { Tool, ToolContext, ToolOutput, WebSearchAnswer } from "../types.js";

export const WEB_SEARCH_TOOL_NAME = "WebSearch";

/** What a call gets where the server does not declare web search (or outside an engine). */
export const WEB_SEARCH_UNAVAILABLE =
  "WebSearch is not available: this server does not declare the Messages API's web_search server tool, so no " +
  "search was run. Use WebFetch with a known URL instead. (Set THREADLINE_WEB_SEARCH=on if the server does run it.)";

export const webSearchInputSchema = z.strictObject({
  query: z.string().min(2).describe("The search query to use"),
  allowed_domains: z.array(z.string()).optional().describe("Only include search results from these domains"),
  blocked_domains: z.array(z.string()).optional().describe("Never include search results from these domains"),
});
export type WebSearchInput = z.infer<typeof webSearchInputSchema>;

const DESCRIPTION = `Searches the web with the server's own search tool and returns the pages found (titles and URLs) with a short account of them.

- Use it for information newer than your training or outside the workspace.
- \`allowed_domains\` or \`blocked_domains\` (not both) filter the results.
- After answering from the results, list the URLs you used as markdown links under "Sources:".`;

/** The answer's text: the pages found, then what the search model wrote (with the passages it cited). */
export function formatSearchAnswer(query: string, content: readonly AssistantContentBlock[]): ToolOutput {
  const links: string[] = [];
  const errors: string[] = [];
  const notes: string[] = [];
  for (const block of content) {
    if (block.type === "web_search_tool_result") {
      if (Array.isArray(block.content)) {
        for (const result of block.content) {
          const age = result.page_age ? ` (${result.page_age})` : "";
          links.push(`- [${result.title}](${result.url})${age}`);
        }
      } else errors.push(block.content.error_code);
    } else if (block.type === "text" && block.text.trim() !== "") notes.push(block.text.trim());
  }
  if (links.length === 0 && errors.length > 0) {
    return { content: `Web search for "${query}" failed: ${errors.join(", ")}. No results.`, isError: true };
  }
  const parts = [`Web search results for "${query}":`, links.length > 0 ? links.join("\n") : "(no pages found)"];
  if (notes.length > 0) parts.push(notes.join("\n\n"));
  if (links.length > 0) parts.push('Cite the pages you use as markdown links in a "Sources:" list.');
  return { content: parts.join("\n\n"), display: { kind: "web-search", query, results: links.length } };
}

async function search(input: WebSearchInput, context: ToolContext): Promise<WebSearchAnswer | undefined> {
  if (context.webSearch === undefined) return undefined;
  return context.webSearch({
    query: input.query,
    ...(input.allowed_domains !== undefined ? { allowedDomains: input.allowed_domains } : {}),
    ...(input.blocked_domains !== undefined ? { blockedDomains: input.blocked_domains } : {}),
  });
}

export const webSearchTool: Tool<WebSearchInput> = {
  name: WEB_SEARCH_TOOL_NAME,
  description: DESCRIPTION,
  inputSchema: webSearchInputSchema,
  deferLoading: true,
  // The query goes to the server that already holds the conversation; nothing in the workspace is read or written.
  isReadOnly: () => true,
  compactable: true,
  async call(input, context): Promise<ToolOutput> {
    if ((input.allowed_domains?.length ?? 0) > 0 && (input.blocked_domains?.length ?? 0) > 0) {
      return { content: "Give allowed_domains or blocked_domains, not both: no search was run.", isError: true };
    }
    const answer = await search(input, context);
    if (answer === undefined) return { content: WEB_SEARCH_UNAVAILABLE, isError: true };
    return formatSearchAnswer(input.query, answer.content);
  },
};

/** What a call of a tool the session does not have gets: WebSearch explains why it is missing. */
export function missingToolMessage(name: string): string {
  return name === WEB_SEARCH_TOOL_NAME ? WEB_SEARCH_UNAVAILABLE : `Error: No such tool available: ${name}`;
}
