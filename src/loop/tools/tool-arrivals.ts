/**
 * Late tools offered as mid-conversation tool changes (docs/MCP.md, docs/API-SURFACE.md). Where the server
 * declares `toolChanges`, a deferred tool ToolSearch found is offered in a tool-change system message at the
 * point of the conversation where it arrived, instead of waiting for the next compaction to join `tools`: the
 * tools block and every earlier byte stay turn N's. Where it arrived is a `tool-arrival` record, so the
 * request stays a pure function of the timeline and a resume puts the message at the same index.
 */
import { isMainCompactBoundary, type TimelineEntry, type ToolArrivalRecord } from "../../messages/index.js";
import type { ProviderCapabilities } from "../../provider/index.js";
import type { ToolArrival, ToolDefinition } from "../../request/index.js";

/** Whether late tools go into tool-change messages: declared, and the server takes beta headers. */
export function offersToolChanges(declared: ProviderCapabilities): boolean {
  return declared.toolChanges === true && declared.betas !== false;
}

/** The arrivals recorded since the latest main compact boundary (earlier ones joined `tools` there). */
export function arrivalsFromEntries(entries: readonly TimelineEntry[]): ToolArrival[] {
  let arrivals: ToolArrival[] = [];
  for (const entry of entries) {
    if (isMainCompactBoundary(entry)) arrivals = [];
    else if (entry.type === "tool-arrival") arrivals.push({ beforeMessage: entry.beforeMessage, tools: entry.tools });
  }
  return arrivals;
}

/**
 * The late definitions not offered yet: neither in the tools block nor in an earlier arrival, in name order
 * (so the same search gives the same bytes).
 */
export function pendingArrivals(
  late: readonly ToolDefinition[],
  toolsBlock: readonly ToolDefinition[],
  arrivals: readonly ToolArrival[],
): ToolDefinition[] {
  const offered = new Set([
    ...toolsBlock.map((tool) => tool.name),
    ...arrivals.flatMap((arrival) => arrival.tools.map((tool) => tool.name)),
  ]);
  return late
    .filter((tool) => !offered.has(tool.name))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/** The record of `tools` arriving before normalized message `beforeMessage` (definitions without markers). */
export function toolArrivalRecord(
  beforeMessage: number,
  tools: readonly ToolDefinition[],
  sessionId: string,
  now: Date,
): ToolArrivalRecord {
  return {
    type: "tool-arrival",
    beforeMessage,
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.input_schema })),
    timestamp: now.toISOString(),
    sessionId,
  };
}
