/**
 * The live-session cache report behind the `/cache` slash command: per scope, tokens, hit ratio and every
 * break so far.
 */

import type { ScopeCacheStats } from "./break-detector.js";
import { describeCacheBreak } from "./break-notice.js";

/** Share of prompt tokens served from cache: read / (uncached input + read + write); 0 when nothing was sent. */
export function hitRatio(inputTokens: number, cacheReadTokens: number, cacheWriteTokens: number): number {
  const total = inputTokens + cacheReadTokens + cacheWriteTokens;
  return total === 0 ? 0 : cacheReadTokens / total;
}

/** Multi-line text report of `CacheBreakDetector.stats()`. */
export function formatCacheReport(scopes: readonly ScopeCacheStats[]): string {
  if (scopes.length === 0) return "Prompt cache: no requests yet.";
  const lines: string[] = ["Prompt cache"];
  for (const scope of scopes) {
    const ratio = hitRatio(scope.inputTokens, scope.cacheReadTokens, scope.cacheWriteTokens);
    lines.push(
      `  [${scope.scope}] ${scope.requests} request${scope.requests === 1 ? "" : "s"}: ` +
        `input ${count(scope.inputTokens)}, cache read ${count(scope.cacheReadTokens)}, ` +
        `cache write ${count(scope.cacheWriteTokens)}, output ${count(scope.outputTokens)}, ` +
        `hit ratio ${(ratio * 100).toFixed(1)}%`,
    );
    if (scope.expectedDrops.length > 0) lines.push(`    expected drops: ${scope.expectedDrops.join(", ")}`);
    if (scope.breaks.length === 0) lines.push("    no cache breaks");
    for (const cacheBreak of scope.breaks) lines.push(`    ${describeCacheBreak(cacheBreak)}`);
  }
  return lines.join("\n");
}

function count(tokens: number): string {
  return tokens.toLocaleString("en-US");
}
