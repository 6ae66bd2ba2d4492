/**
 * Tokens attributed to subagents, for `/context` and reports. Two sources: sidechain assistant entries (when a
 * sidechain transcript's entries are at hand) and the parent's Agent tool results, whose `toolUseResult`
 * records each run's totals (the parent's own timeline holds no sidechain entries).
 */
import { addResponseUsage, addUsage, type TimelineEntry, type TokenUsage } from "../messages/index.js";
import { isAgentToolDisplay } from "../tools/index.js";

/** One subagent's tokens (no cost: a sidechain's prices are its own model's, summed where shown). */
export interface SubagentUsage extends TokenUsage {
  agentId: string;
  /** The Agent call's description, when the parent's tool result is among the entries. */
  description?: string;
  subagentType?: string;
  /** The sidechain transcript file, when known. */
  transcriptPath?: string;
}

function emptyUsage(agentId: string): SubagentUsage {
  return {
    agentId,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    requests: 0,
  };
}

/**
 * Usage per subagent, in order of first appearance. Sidechain entries win over the parent's recorded totals
 * for the same agent (they are the primary record); each response is counted once (by `message.id`).
 */
export function subagentUsage(entries: readonly TimelineEntry[]): SubagentUsage[] {
  const byAgent = new Map<string, SubagentUsage>();
  const fromSidechain = new Set<string>();
  const seenMessages = new Set<string>();
  const get = (agentId: string): SubagentUsage => {
    let usage = byAgent.get(agentId);
    if (!usage) {
      usage = emptyUsage(agentId);
      byAgent.set(agentId, usage);
    }
    return usage;
  };

  for (const entry of entries) {
    if (entry.type !== "assistant" || !entry.isSidechain || entry.isVirtual) continue;
    const usage = entry.message.usage;
    const agentId = entry.agentId ?? "sidechain";
    const messageKey = `${agentId}:${entry.message.id}`;
    if (!usage || seenMessages.has(messageKey)) continue;
    seenMessages.add(messageKey);
    fromSidechain.add(agentId);
    const total = get(agentId);
    addResponseUsage(total, usage);
  }

  for (const entry of entries) {
    if (entry.type !== "user" || !isAgentToolDisplay(entry.toolUseResult)) continue;
    const display = entry.toolUseResult;
    const total = get(display.agentId);
    total.description = display.description;
    total.subagentType = display.subagentType;
    if (display.transcriptPath !== undefined) total.transcriptPath = display.transcriptPath;
    if (fromSidechain.has(display.agentId)) continue;
    addUsage(total, display.usage);
  }
  return [...byAgent.values()];
}
