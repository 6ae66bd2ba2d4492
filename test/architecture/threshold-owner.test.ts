/**
 * Nothing computes a threshold of its own (issue 52 item 4; docs/CONTEXT-BUDGET.md "One value, one unit"): the
 * formulas of compaction/budget/thresholds.ts are called only by compaction/budget/context-thresholds.ts, which works the one
 * budget (`ContextThresholds`) out of the server's window once; `/context`, the status line, the loop and the tiers
 * read that value. Before, `thresholds.ts`' functions were called with a window by context-report.ts (the
 * server's), blocking.ts, budget-learning.ts and the tiers (the estimate's), and at a ratio of 4 they disagreed.
 * This test names any other source file that calls one of those formulas. The behaviour it protects is tested in
 * test/engine/one-budget.test.ts (mutations `threshold-owner-loop`, `threshold-owner-status-line`,
 * `threshold-owner-context-report`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const OWNERS = new Set([
  join("compaction", "budget", "thresholds.ts"),
  join("compaction", "budget", "context-thresholds.ts"),
]);
const FORMULAS = [
  "autoCompactThreshold",
  "blockingLimit",
  "effectiveContextWindow",
  "compactionTargetTokens",
  "compactionTargetFrom",
  "outputReserveTokens",
  "warningThreshold",
  "errorThreshold",
  "calculateTokenWarningState",
  "autoCompactBufferTokens",
  "warningBufferTokens",
];
const CALL = new RegExp(`\\b(${FORMULAS.join("|")})\\s*\\(`);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Code lines of `text` that call a threshold formula, as "line: text" (1-based; comments skipped). */
function formulaCalls(text: string): string[] {
  return text.split("\n").flatMap((line, index) => {
    const code = line.trim();
    if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) return [];
    return CALL.test(code.replace(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""'))
      ? [`${index + 1}: ${code.slice(0, 90)}`]
      : [];
  });
}

describe("the thresholds have one owner", () => {
  it("the rule names a call to any formula and passes reads of the budget", () => {
    expect(formulaCalls("const limit = blockingLimit(model, limits.contextWindow);")).toHaveLength(1);
    expect(formulaCalls("const t = autoCompactThreshold (input.model, window);")).toHaveLength(1);
    expect(formulaCalls("const limit = limits.thresholds.estimate.blocking;")).toEqual([]);
    expect(formulaCalls(" * `blockingLimit(model, window)` in a comment")).toEqual([]);
  });

  it("no source file but the owners calls a threshold formula", () => {
    const calls = sourceFiles(SRC)
      .filter((path) => !OWNERS.has(relative(SRC, path)))
      .flatMap((path) => formulaCalls(readFileSync(path, "utf8")).map((call) => `${relative(SRC, path)}:${call}`));
    expect(calls).toEqual([]);
  });
});
