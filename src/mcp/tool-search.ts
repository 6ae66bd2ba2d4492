/**
 * The client-side `ToolSearch` tool (the default path: the public API and every other server). MCP tools stay
 * out of the tools block, so configuring servers neither grows nor breaks the cached prefix; ToolSearch's own
 * definition is made once at session start and names the deferred tools there, and its results carry the
 * definitions the model asked for, which it can call right away. Those definitions join the tools block in one
 * batch at the next compaction, when the prefix is being rewritten anyway (docs/MCP.md has the measurement).
 */
import * as z from "zod";
import { isMainCompactBoundary, type TimelineEntry } from "../messages/index.js";
import type { AnyTool, Tool } from "../tools/index.js";

export const TOOL_SEARCH_NAME = "ToolSearch";

/** Most definitions one search returns. */
export const DEFAULT_TOOL_SEARCH_RESULTS = 5;

/** How each found definition starts in a result, one per line (what `loadedToolNames` reads back). */
const DEFINITION_LINE_PREFIX = '{"name":"';

const inputSchema = z.object({
  query: z
    .string()
    .describe(
      'Keywords to search tool names and descriptions, or "select:<name>[,<name>…]" to load tools by exact name',
    ),
  max_results: z.number().int().positive().max(50).optional().describe("Most tools to return (default 5)"),
});

type ToolSearchInput = z.infer<typeof inputSchema>;

/** `mcp__server__a, b, c` per server: the short form of the deferred tools the description names. */
function namesByServer(tools: readonly AnyTool[]): string {
  const groups = new Map<string, string[]>();
  for (const tool of [...tools].sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))) {
    const split = tool.name.indexOf("__", 5);
    const prefix = split > 0 ? tool.name.slice(0, split + 2) : "";
    const rest = split > 0 ? tool.name.slice(split + 2) : tool.name;
    groups.set(prefix, [...(groups.get(prefix) ?? []), rest]);
  }
  // Built-in deferred tools (no server prefix) are named plainly: WebFetch, NotebookEdit.
  return [...groups]
    .map(([prefix, names]) => (prefix === "" ? names.join(" ") : `${prefix}{${names.join(",")}}`))
    .join(" ");
}

/** The description, fixed for the session: what the tool does and the deferred tools known at start. */
export function toolSearchDescription(atStart: readonly AnyTool[]): string {
  return [
    "Loads the definitions of deferred tools (built-in ones such as WebFetch, and MCP servers' tools) so you can call them. Deferred tools are not in",
    "your tool list until you load them: search with keywords, or load by exact name with",
    '"select:name1,name2". The result gives each tool\'s name, description and input schema; then call the tool',
    "by that name. Deferred tools at session start (servers that connect later are searchable too):",
    atStart.length > 0 ? namesByServer(atStart) : "(none yet)",
  ].join(" ");
}

function score(tool: AnyTool, words: readonly string[]): number {
  const name = tool.name.toLowerCase();
  const description = tool.description.toLowerCase();
  let total = 0;
  for (const word of words) {
    if (name.includes(word)) total += 3;
    else if (description.includes(word)) total += 1;
  }
  return total;
}

/** The deferred tools a query finds, best first (ties by name, so the same query finds the same list). */
export function searchTools(catalog: readonly AnyTool[], query: string, limit: number): AnyTool[] {
  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith("select:")) {
    const wanted = trimmed
      .slice("select:".length)
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "");
    return wanted.flatMap((name) => catalog.filter((tool) => tool.name === name));
  }
  const words = trimmed
    .toLowerCase()
    .split(/[\s_,]+/)
    .filter((word) => word !== "");
  return catalog
    .map((tool) => ({ tool, points: score(tool, words) }))
    .filter((found) => found.points > 0)
    .sort((left, right) => right.points - left.points || (left.tool.name < right.tool.name ? -1 : 1))
    .slice(0, limit)
    .map((found) => found.tool);
}

/** One definition line: name first (the marker `loadedToolNames` reads), then description and schema. */
function definitionLine(tool: AnyTool): string {
  return JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputJsonSchema ?? z.toJSONSchema(tool.inputSchema),
  });
}

export interface ToolSearchOptions {
  /** The tools it searches: every deferred tool connected now (asked at each call). */
  catalog: () => readonly AnyTool[];
  /** The deferred tools known when the session starts (named in the fixed description). */
  atStart: readonly AnyTool[];
  /** Run before each search (reconnecting servers that failed); default none. */
  refresh?: () => Promise<void>;
}

/** The ToolSearch tool for a session. */
export function createToolSearchTool(options: ToolSearchOptions): Tool<ToolSearchInput> {
  return {
    name: TOOL_SEARCH_NAME,
    description: toolSearchDescription(options.atStart),
    inputSchema,
    // It reads only the session's own tool catalog.
    isReadOnly: () => true,
    // Its results hold the definitions the model calls by; clearing them would leave names without schemas.
    compactable: false,
    async call(input) {
      await options.refresh?.();
      const catalog = options.catalog().filter((tool) => tool.deferLoading === true);
      const found = searchTools(catalog, input.query, input.max_results ?? DEFAULT_TOOL_SEARCH_RESULTS);
      if (found.length === 0) {
        return {
          content: `No deferred tool matches "${input.query}". ${catalog.length} deferred tools are available: ${namesByServer(catalog) || "(none)"}`,
        };
      }
      return {
        content: [`Found ${found.length} tool(s); call them by name:`, ...found.map(definitionLine)].join("\n"),
      };
    },
  };
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block) => (typeof block === "object" && block !== null && block.type === "text" ? String(block.text) : ""))
    .join("\n");
}

/**
 * When the definitions ToolSearch returned join the tools block: `next-compaction` (when the prefix is being
 * rewritten anyway; until then the model calls them by the definitions in the search result) or `immediate`
 * (the next turn's request: one rewrite of the whole cached prefix). bench/mcp-session.ts measures both.
 */
export type DeferredToolLoading = "next-compaction" | "immediate";

/** The loading moment that costs least in bench/mcp-session.ts. */
export const DEFAULT_DEFERRED_TOOL_LOADING: DeferredToolLoading = "next-compaction";

/**
 * Names of the deferred tools to send in the tools block: those ToolSearch returned before the latest compact
 * boundary (or anywhere, for `immediate`) — a pure function of the timeline, so a resume projects the same
 * tools. Before the first compaction the set is empty and the tools block stays the one the session started with.
 */
export function loadedToolNames(
  entries: readonly TimelineEntry[],
  moment: DeferredToolLoading = DEFAULT_DEFERRED_TOOL_LOADING,
): Set<string> {
  let boundary = moment === "immediate" ? entries.length : -1;
  for (let index = entries.length - 1; index >= 0 && boundary < 0; index--) {
    const entry = entries[index];
    if (entry !== undefined && isMainCompactBoundary(entry)) {
      boundary = index;
      break;
    }
  }
  if (boundary < 0) return new Set();
  return foundToolNames(entries.slice(0, boundary));
}

/**
 * Names of the deferred tools ToolSearch returned after the latest compact boundary: the ones that arrived
 * since the tools block was last written (offered as tool changes where the server declares them).
 */
export function foundSinceBoundary(entries: readonly TimelineEntry[]): Set<string> {
  let start = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry !== undefined && isMainCompactBoundary(entry)) {
      start = index + 1;
      break;
    }
  }
  return foundToolNames(entries.slice(start));
}

/** Names in the definition lines of ToolSearch's successful results among `entries`. */
function foundToolNames(entries: readonly TimelineEntry[]): Set<string> {
  const names = new Set<string>();
  const searchIds = new Set<string>();
  for (const entry of entries) {
    if (entry.type === "assistant") {
      for (const block of entry.message.content)
        if (block.type === "tool_use" && block.name === TOOL_SEARCH_NAME) searchIds.add(block.id);
    } else if (entry.type === "user" && Array.isArray(entry.message.content)) {
      for (const block of entry.message.content) {
        if (block.type !== "tool_result" || !searchIds.has(block.tool_use_id) || block.is_error === true) continue;
        for (const line of resultText(block.content).split("\n")) {
          if (!line.startsWith(DEFINITION_LINE_PREFIX)) continue;
          try {
            const name = (JSON.parse(line) as { name?: unknown }).name;
            if (typeof name === "string") names.add(name);
          } catch {
            // Not a definition line after all (a description that starts like one).
          }
        }
      }
    }
  }
  return names;
}

/**
 * The tools to describe in a request: every tool that is not deferred, plus the deferred tools in `loaded`, in
 * the order given (the definitions are sorted by name later).
 */
export function requestTools(tools: readonly AnyTool[], loaded: ReadonlySet<string>): AnyTool[] {
  return tools.filter((tool) => tool.deferLoading !== true || loaded.has(tool.name));
}
