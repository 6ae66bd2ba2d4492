/**
 * A server tool's call and its result travel together in one assistant message (docs/API-CONTRACT.md, "Server
 * tools"): the API rejects a `server_tool_use` whose `web_search_tool_result` is missing and a result whose call
 * is. A stream cut between the two, or a merge that lost one, leaves half a pair; that half is dropped (the model
 * keeps whatever it wrote after it). threadline does not send `pause_turn` continuations, so no half pair is ever
 * meant to go back.
 */
import type { ContentBlock } from "../../messages/index.js";
import type { WorkingMessage } from "./working-message.js";

function unpaired(content: readonly ContentBlock[]): Set<ContentBlock> {
  const calls = new Map<string, ContentBlock>();
  const results = new Map<string, ContentBlock>();
  for (const block of content) {
    if (block.type === "server_tool_use") calls.set(block.id, block);
    else if (block.type === "web_search_tool_result") results.set(block.tool_use_id, block);
  }
  const out = new Set<ContentBlock>();
  for (const [id, block] of calls) if (!results.has(id)) out.add(block);
  for (const [id, block] of results) if (!calls.has(id)) out.add(block);
  return out;
}

/** Messages with half pairs of server tool blocks removed; untouched messages are returned as they were. */
export function pairServerToolResults(messages: readonly WorkingMessage[]): WorkingMessage[] {
  return messages.map((message) => {
    if (message.role !== "assistant") return message;
    const drop = unpaired(message.content);
    if (drop.size === 0) return message;
    return { ...message, content: message.content.filter((block) => !drop.has(block)) };
  });
}
