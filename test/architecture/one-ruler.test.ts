/**
 * One ruler (issue 52 item 4; docs/CONTEXT-BUDGET.md "One value, one unit"): characters become tokens, and token
 * budgets become characters, only in `messages/tokens.ts` (`estimateTextTokens`, `estimateCharTokens`,
 * `charsForTokens`). Seven places once re-implemented characters ÷ 4 (tail-budget, post-compact-restore,
 * kept-prompt, turn-activity, memory-listing and mcp/result-content twice, with a constant of its own); a
 * calibration or a change of ruler would have missed them. This test reads every source file and names any code
 * line that divides or multiplies by a literal 4, or computes with CHARS_PER_TOKEN, outside the ruler. A line that
 * does so for another reason (a share of a budget, an edit distance) says why with `one-ruler:` on it or on the
 * comment line just above.
 * Mutation caught: `chars-per-token-reimplemented` (scripts/mutation-check.mjs).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const RULER = join("messages", "tokens.ts");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const BY_FOUR = /[/*]\s*4(?![\d._xe])/;
const WITH_CONSTANT = /[/*]\s*CHARS_PER_TOKEN\b|\bCHARS_PER_TOKEN\s*[/*]/;

/** Code lines of `text` that re-implement the ruler, as "line: text" (1-based). */
function rulerCopies(text: string): string[] {
  const lines = text.split("\n");
  const found: string[] = [];
  lines.forEach((line, index) => {
    const code = line.trim();
    if (code.startsWith("*") || code.startsWith("//") || code.startsWith("/*")) return;
    const withoutStrings = code.replace(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""');
    if (!BY_FOUR.test(withoutStrings) && !WITH_CONSTANT.test(withoutStrings)) return;
    if (line.includes("one-ruler:") || (lines[index - 1] ?? "").includes("one-ruler:")) return;
    found.push(`${index + 1}: ${code.slice(0, 90)}`);
  });
  return found;
}

describe("characters ÷ 4 lives in one place", () => {
  it("the rule names a copy however it is written, and passes what is not one", () => {
    const copies = [
      "const tokens = Math.ceil(text.length / 4);",
      "const room = (maxTokens - 60) * 4;",
      "const chars = maxTokens*4 - 200;",
      "const kept = joined.slice(0, limits.maxTokens * CHARS_PER_TOKEN);",
      "return Math.ceil(block.text.length / CHARS_PER_TOKEN);",
    ];
    for (const text of copies) expect(rulerCopies(text), text).toHaveLength(1);
    const fine = [
      "const tokens = estimateTextTokens(text);",
      "const share = total / 40;",
      "const x = a * 4.5;",
      "// characters / 4",
      " * (characters / 4 where the record does not say)",
      'const label = "chars / 4 ruler";',
      "// one-ruler: a quarter of a budget\nconst carry = Math.floor(budget / 4);",
    ];
    for (const text of fine) expect(rulerCopies(text), text).toEqual([]);
  });

  it("no source file but messages/tokens.ts turns characters into tokens by 4 itself", () => {
    const copies = sourceFiles(SRC)
      .filter((path) => relative(SRC, path) !== RULER)
      .flatMap((path) => rulerCopies(readFileSync(path, "utf8")).map((copy) => `${relative(SRC, path)}:${copy}`));
    expect(copies).toEqual([]);
    // The ruler itself is where the rule looks: it does compute with the constant.
    expect(rulerCopies(readFileSync(join(SRC, RULER), "utf8")).length).toBeGreaterThan(0);
  });
});
