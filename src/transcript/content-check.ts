/**
 * A fast field check of API content blocks read from disk: everything request assembly reads must have the
 * right type, or the line is reported and skipped. Hand-written rather than a zod union because it runs on
 * every block of a 100 MB transcript.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isString = (value: unknown): value is string => typeof value === "string";

/** What is wrong with one content block, or undefined when request assembly can use it. */
export function contentBlockProblem(block: unknown, insideToolResult = false): string | undefined {
  if (!isRecord(block)) return "content block is not an object";
  const type = block.type;
  switch (type) {
    case "text":
      return isString(block.text) ? undefined : "text block without a string text";
    case "image":
    case "document":
      return isRecord(block.source) && isString(block.source.type) ? undefined : `${type} block without a source`;
  }
  if (insideToolResult) return `tool_result content may not hold a ${String(type)} block`;
  switch (type) {
    case "thinking":
      return isString(block.thinking) && isString(block.signature)
        ? undefined
        : "thinking block without text or signature";
    case "redacted_thinking":
      return isString(block.data) ? undefined : "redacted_thinking block without data";
    case "tool_use":
      if (!isString(block.id) || block.id === "" || !isString(block.name) || block.name === "")
        return "tool_use block without an id or name";
      return isRecord(block.input) ? undefined : "tool_use input is not an object";
    case "tool_result": {
      if (!isString(block.tool_use_id) || block.tool_use_id === "") return "tool_result without a tool_use_id";
      if (block.is_error !== undefined && typeof block.is_error !== "boolean")
        return "tool_result is_error is not a boolean";
      const content = block.content;
      if (content === undefined || isString(content)) return undefined;
      if (!Array.isArray(content)) return "tool_result content is neither text nor blocks";
      for (const inner of content) {
        const problem = contentBlockProblem(inner, true);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case "compaction":
      // Server-side compaction's summary, sent back as stored (content null: the server summarised nothing).
      return (block.content === null || isString(block.content)) &&
        (block.encrypted_content === null || isString(block.encrypted_content))
        ? undefined
        : "compaction block without string or null content";
    case "cache_edits":
      return Array.isArray(block.edits) &&
        block.edits.every((edit) => isRecord(edit) && edit.type === "delete" && isString(edit.cache_reference))
        ? undefined
        : "cache_edits block with a malformed edit";
    default:
      return `unsupported content block type ${JSON.stringify(type)}`;
  }
}
