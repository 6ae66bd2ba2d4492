/**
 * One line per compaction for `inspect`: what it bought (context tokens before → after) and what it cost (its
 * summary requests' usage as the boundary recorded it, priced at the model's cache prices when it ran). The
 * record is untrusted JSON: a boundary from before `summaryUsage` existed (or Claude Code's) just has no cost.
 */
import type { InspectCompaction } from "./types.js";

function numberField(record: Record<string, unknown>, key: string): number | undefined {
  const value = record[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A compact_boundary's `compactMetadata` as the report keeps it (null fields when absent or not numbers). */
export function compactionOf(metadata: Record<string, unknown> | null): InspectCompaction {
  const trigger = typeof metadata?.trigger === "string" ? metadata.trigger : "unknown";
  const preTokens = metadata === null ? 0 : (numberField(metadata, "preTokens") ?? 0);
  const postTokens = metadata === null ? null : (numberField(metadata, "postTokens") ?? null);
  const raw = metadata?.summaryUsage;
  let summary: InspectCompaction["summary"] = null;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const usage = raw as Record<string, unknown>;
    summary = {
      requests: numberField(usage, "requests") ?? 0,
      inputTokens: numberField(usage, "inputTokens") ?? 0,
      cacheReadInputTokens: numberField(usage, "cacheReadInputTokens") ?? 0,
      cacheCreationInputTokens: numberField(usage, "cacheCreationInputTokens") ?? 0,
      outputTokens: numberField(usage, "outputTokens") ?? 0,
      costUsd: numberField(usage, "costUsd") ?? 0,
    };
  }
  return { trigger, preTokens, postTokens, summary };
}

/** `12,114 → 4,336 tokens (−7,778); summary: 1 request, 11,900 in (11,500 cache read, 0 written), 401 out, $0.0061`. */
export function compactionLine(
  compaction: InspectCompaction,
  count: (value: number) => string,
  dollars: (value: number) => string,
): string {
  const { preTokens, postTokens, summary } = compaction;
  const bought =
    postTokens === null
      ? `from ${count(preTokens)} tokens`
      : `${count(preTokens)} → ${count(postTokens)} tokens (−${count(Math.max(0, preTokens - postTokens))})`;
  if (summary === null) return `${compaction.trigger}: ${bought}; summary cost not recorded`;
  const input = summary.inputTokens + summary.cacheReadInputTokens + summary.cacheCreationInputTokens;
  const requests = `${count(summary.requests)} request${summary.requests === 1 ? "" : "s"}`;
  return `${compaction.trigger}: ${bought}; summary: ${requests}, ${count(input)} in (${count(summary.cacheReadInputTokens)} cache read, ${count(summary.cacheCreationInputTokens)} written), ${count(summary.outputTokens)} out, ${dollars(summary.costUsd)}`;
}
