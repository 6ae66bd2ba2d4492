/**
 * The server web search as the pinned SDK types it: the tool definition (`WebSearchTool20250305` and its later
 * versions) and the blocks a response carries and a client sends back (`ServerToolUseBlockParam`,
 * `WebSearchToolResultBlockParam`). A call and its result are a pair inside one assistant message; results carry
 * the `encrypted_content` the server issued, unchanged.
 */
import { isIssuedContent, WEB_SEARCH_TOOL_TYPES } from "../model/web-search.js";
import type { ValidationContext } from "./context.js";
import { invalid, isRecord } from "./violation.js";

/** Names a `server_tool_use` may carry (SDK `ServerToolUseBlockParam.name`). */
const SERVER_TOOL_NAMES: ReadonlySet<string> = new Set([
  "web_search",
  "web_fetch",
  "code_execution",
  "bash_code_execution",
  "text_editor_code_execution",
  "tool_search_tool_regex",
  "tool_search_tool_bm25",
]);

/** Error codes of `web_search_tool_result_error` (SDK `WebSearchToolResultErrorCode`). */
const WEB_SEARCH_ERROR_CODES: ReadonlySet<string> = new Set([
  "invalid_tool_input",
  "unavailable",
  "max_uses_exceeded",
  "too_many_requests",
  "query_too_long",
  "request_too_large",
]);

/** Whether `type` names a web search tool version, known or not (`web_search_…`). */
export function isWebSearchToolType(type: unknown): type is string {
  return typeof type === "string" && type.startsWith("web_search_");
}

function checkDomains(value: unknown, path: string, context: ValidationContext): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    context.out.push(invalid(path, "Input should be a valid list of strings"));
    return;
  }
  for (const domain of value as string[]) {
    if (/^[a-z]+:\/\//i.test(domain))
      context.out.push(invalid(path, `Domain '${domain}' must not include a scheme such as https://`));
  }
}

/** Rules of a web search tool definition at `path` (`tools.N`). */
export function checkWebSearchTool(tool: Record<string, unknown>, path: string, context: ValidationContext): void {
  const out = context.out;
  const type = String(tool.type);
  if (!WEB_SEARCH_TOOL_TYPES.has(type)) {
    out.push(invalid(`${path}.type`, `Input tag '${type}' found using 'type' does not match any of the expected tags`));
    return;
  }
  const where = `${path}.${type}`;
  if (tool.name !== "web_search") out.push(invalid(`${where}.name`, "Input should be 'web_search'"));
  const maxUses = tool.max_uses;
  if (maxUses !== undefined && maxUses !== null && !(Number.isInteger(maxUses) && (maxUses as number) > 0)) {
    out.push(invalid(`${where}.max_uses`, "Input should be greater than 0"));
  }
  checkDomains(tool.allowed_domains, `${where}.allowed_domains`, context);
  checkDomains(tool.blocked_domains, `${where}.blocked_domains`, context);
  const both = (value: unknown) => Array.isArray(value) && value.length > 0;
  if (both(tool.allowed_domains) && both(tool.blocked_domains)) {
    out.push(invalid(where, "Cannot specify both allowed_domains and blocked_domains"));
  }
  const location = tool.user_location;
  if (location !== undefined && location !== null) {
    if (!isRecord(location) || location.type !== "approximate") {
      out.push(invalid(`${where}.user_location.type`, "Input should be 'approximate'"));
    }
  }
}

function checkResultContent(content: unknown, path: string, context: ValidationContext): void {
  const out = context.out;
  if (isRecord(content)) {
    if (content.type !== "web_search_tool_result_error" || !WEB_SEARCH_ERROR_CODES.has(String(content.error_code)))
      out.push(invalid(`${path}.content`, "Input should be a list of web_search_result or a web search error"));
    return;
  }
  if (!Array.isArray(content)) {
    out.push(invalid(`${path}.content`, "Field required"));
    return;
  }
  content.forEach((result: unknown, index) => {
    const at = `${path}.content.${index}`;
    if (!isRecord(result) || result.type !== "web_search_result") {
      out.push(invalid(`${at}.type`, "Input should be 'web_search_result'"));
      return;
    }
    for (const field of ["url", "title", "encrypted_content"] as const) {
      if (typeof result[field] !== "string") out.push(invalid(`${at}.${field}`, "Field required"));
    }
    const secret = context.options.signatureSecret;
    if (secret !== undefined && typeof result.encrypted_content === "string") {
      if (!isIssuedContent(result.encrypted_content, secret))
        out.push(invalid(`${at}.encrypted_content`, "Invalid encrypted_content in web_search_result block"));
    }
  });
}

/**
 * Server tool blocks of one assistant message: each `server_tool_use` well formed and answered by a
 * `web_search_tool_result` later in the same message, each result answering an earlier call.
 */
export function checkServerToolPairs(content: readonly unknown[], path: string, context: ValidationContext): void {
  const out = context.out;
  const open = new Map<string, string>();
  content.forEach((block: unknown, index) => {
    if (!isRecord(block)) return;
    const at = `${path}.content.${index}`;
    if (block.type === "server_tool_use") {
      if (typeof block.id !== "string" || !/^srvtoolu_[a-zA-Z0-9_]+$/.test(block.id))
        out.push(invalid(`${at}.id`, "String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'"));
      if (!SERVER_TOOL_NAMES.has(String(block.name)))
        out.push(invalid(`${at}.name`, "Input should be a server tool name"));
      if (!isRecord(block.input)) out.push(invalid(`${at}.input`, "Input should be a valid dictionary"));
      if (typeof block.id === "string") open.set(block.id, at);
    } else if (block.type === "web_search_tool_result") {
      checkResultContent(block.content, at, context);
      const id = block.tool_use_id;
      if (typeof id !== "string" || !open.delete(id)) {
        out.push(
          invalid(
            at,
            `\`web_search_tool_result\` block(s) provided without a preceding \`server_tool_use\`: ${String(id)}`,
          ),
        );
      }
    }
  });
  for (const [id, at] of open) {
    out.push(invalid(at, `\`server_tool_use\` block ${id} has no corresponding \`web_search_tool_result\` block`));
  }
}
