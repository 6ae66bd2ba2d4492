/**
 * The client's estimate of a whole request body with the shared ruler (characters / 4, media 2,000):
 * tools as their JSON definition without cache markers, system blocks as text, message blocks as
 * `estimateBlockTokens`, and tool results deleted by `cache_edits` as 0 — the same count the server bills,
 * so "never send a request our own estimate puts over the window" can be checked before sending.
 */
import type { ContentBlock } from "../messages/index.js";
import { estimateBlockTokens, estimateTextTokens } from "../messages/index.js";
import type { MessagesRequest } from "../request/types.js";

function deletedReferences(body: MessagesRequest): Set<string> {
  const deleted = new Set<string>();
  for (const message of body.messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content)
      if (block.type === "cache_edits") for (const edit of block.edits) deleted.add(edit.cache_reference);
  }
  return deleted;
}

function blockTokens(block: ContentBlock, deleted: ReadonlySet<string>): number {
  if (block.type === "tool_result" && block.cache_reference !== undefined && deleted.has(block.cache_reference))
    return 0;
  return estimateBlockTokens(block);
}

/** Estimated input tokens of a request body (tools, system and messages). */
export function estimateRequestBodyTokens(body: MessagesRequest): number {
  let total = 0;
  for (const tool of body.tools ?? []) {
    const { cache_control: _marker, ...rest } = tool;
    total += estimateTextTokens(JSON.stringify(rest));
  }
  for (const block of body.system ?? []) total += estimateTextTokens(block.text);
  const deleted = deletedReferences(body);
  for (const message of body.messages) {
    if (typeof message.content === "string") total += estimateTextTokens(message.content);
    // A tool change (request/tool-changes.ts) costs its JSON, as the emulator's ruler counts it.
    else if (message.role === "system") total += estimateTextTokens(JSON.stringify(message.content));
    else for (const block of message.content) total += blockTokens(block, deleted);
  }
  return total;
}
