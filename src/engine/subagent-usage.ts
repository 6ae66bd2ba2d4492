/**
 * Tokens attributed to subagents, for `/context` and reports. Two sources: sidechain assistant entries (when a
 * sidechain transcript's entries are at hand) and the parent's Agent tool results, whose `toolUseResult`
 * records each run's totals (the parent's own timeline holds no sidechain entries).
 */
import type { TimelineEntry } from "../messages/index.js";
import { isAgentToolDisplay } from "../tools/agent-tool.js";

export interface SubagentUsage {
  agentId: string;
  /** The Agent call's description, when the parent's tool result is among the entries. */
  description?: string;
  subagentType?: string;
  /** The sidechain transcript file, when known. */
  transcriptPath?: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Model requests the subagent made. */
  requests: number;
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
    total.inputTokens += usage.input_tokens;
    total.outputTokens += usage.output_tokens;
    total.cacheReadInputTokens += usage.cache_read_input_tokens ?? 0;
    total.cacheCreationInputTokens += usage.cache_creation_input_tokens ?? 0;
    total.requests += 1;
  }

  for (const entry of entries) {
    if (entry.type !== "user" || !isAgentToolDisplay(entry.toolUseResult)) continue;
    const display = entry.toolUseResult;
    const total = get(display.agentId);
    total.description = display.description;
    total.subagentType = display.subagentType;
    if (display.transcriptPath !== undefined) total.transcriptPath = display.transcriptPath;
    if (fromSidechain.has(display.agentId)) continue;
    total.inputTokens += display.usage.inputTokens;
    total.outputTokens += display.usage.outputTokens;
    total.cacheReadInputTokens += display.usage.cacheReadInputTokens;
    total.cacheCreationInputTokens += display.usage.cacheCreationInputTokens;
    total.requests += display.usage.requests;
  }
  return [...byAgent.values()];
}
