/**
 * What the model actually sees of a request: the request after `context_management` edits (already applied
 * by the caller), with tool results deleted by `cache_edits` emptied. Placeholders and summaries are simply
 * the text the client sent. The scripted model checks a step's `needs` against this text, so a client that
 * forgot something pays for getting it back.
 */
import type { ContentBlock } from "../content.js";
import type { EmulatorRequest } from "../request-types.js";
import { deletedReferencesIn as deletedReferencesOf } from "../ruler.js";

function pushStrings(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) pushStrings(item, out);
  else if (value !== null && typeof value === "object")
    for (const item of Object.values(value as Record<string, unknown>)) pushStrings(item, out);
}

function pushBlock(block: ContentBlock, deleted: ReadonlySet<string>, out: string[]): void {
  switch (block.type) {
    case "text":
      out.push(block.text);
      return;
    case "thinking":
      out.push(block.thinking);
      return;
    case "tool_use":
      // The model's own earlier calls (an Edit's old and new text, a command) are in view too.
      pushStrings(block.input, out);
      return;
    case "tool_result":
      if (block.cache_reference !== undefined && deleted.has(block.cache_reference)) return;
      if (typeof block.content === "string") out.push(block.content);
      else for (const inner of block.content ?? []) pushBlock(inner as ContentBlock, deleted, out);
      return;
    default:
      // Images, documents, redacted thinking and cache_edits carry no readable text.
      return;
  }
}

/** Every piece of text the model can read in `request` (already context-managed), joined by newlines. */
export function visibleText(request: EmulatorRequest): string {
  const out: string[] = [];
  if (typeof request.system === "string") out.push(request.system);
  else for (const block of request.system ?? []) out.push(block.text);
  const deleted = deletedReferencesOf(request);
  for (const message of request.messages) {
    if (typeof message.content === "string") out.push(message.content);
    else for (const block of message.content) pushBlock(block, deleted, out);
  }
  return out.join("\n");
}
