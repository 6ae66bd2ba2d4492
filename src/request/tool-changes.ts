/**
 * Mid-conversation tool changes (docs/API-SURFACE.md): a tool that arrives late (an MCP server that connected
 * after the first request, a skill found on the way) is offered in a `role: "system"` message carrying a
 * `tool_addition` block with the tool's definition inline, at the point of the conversation where it arrived,
 * instead of in `tools`. The tools list, the system prompt and every earlier message keep their bytes, so the
 * cached prefix survives. Where it arrived is pinned (`beforeMessage`): every later request puts the system
 * message at the same index. Only a server that declares tool changes gets this; any other gets the late tool
 * in `tools` (and a cache rewrite), as before.
 */
import type { ApiMessage } from "../messages/index.js";
import type { ToolChangeMessage, ToolDefinition, WireMessage } from "./types.js";

/** Beta of `tool_addition` / `tool_removal` blocks in system messages. */
export const TOOL_CHANGES_BETA = "mid-conversation-tool-changes-2026-07-01";
/** Beta of an inline `tool_definition` inside a `tool_addition` (a tool not in the request's `tools`). */
export const INLINE_TOOLS_BETA = "inline-tools-2026-09-15";

/** Tools that arrived late, and before which API message (0-based, in the normalized messages) they arrived. */
export interface ToolArrival {
  beforeMessage: number;
  tools: readonly ToolDefinition[];
}

/**
 * `messages` with one system message per arrival inserted before its `beforeMessage` (an index past the end
 * appends it). Arrivals at the same index keep their order. Pure: the same input gives the same objects.
 */
export function withToolArrivals(messages: readonly ApiMessage[], arrivals: readonly ToolArrival[]): WireMessage[] {
  if (arrivals.length === 0) return messages.slice();
  const byIndex = new Map<number, ToolChangeMessage[]>();
  for (const arrival of arrivals) {
    if (arrival.tools.length === 0) continue;
    const at = Math.max(0, Math.min(arrival.beforeMessage, messages.length));
    const message: ToolChangeMessage = {
      role: "system",
      content: arrival.tools.map((definition) => ({
        type: "tool_addition",
        tool: { type: "tool_definition", definition: stripMarker(definition) },
      })),
    };
    byIndex.set(at, [...(byIndex.get(at) ?? []), message]);
  }
  const out: WireMessage[] = [];
  for (let index = 0; index <= messages.length; index++) {
    for (const change of byIndex.get(index) ?? []) out.push(change);
    const message = messages[index];
    if (message !== undefined) out.push(message);
  }
  return out;
}

/** A definition without a cache marker (markers belong to the `tools` list, not to an inline definition). */
function stripMarker(definition: ToolDefinition): ToolDefinition {
  const { cache_control: _marker, ...rest } = definition;
  return rest;
}
