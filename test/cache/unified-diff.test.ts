import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/cache/index.js";
import { makeTempDir } from "../../support/temp-dir.js";

const directory = await makeTempDir("diff-test");
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Applies our diff with the system `patch` tool and returns the patched lines. */
function applyWithPatch(before: string, diff: string): string {
  const source = join(directory, "before.txt");
  const patched = join(directory, "after.txt");
  const patchFile = join(directory, "change.diff");
  writeFileSync(source, before === "" ? "" : `${before}\n`);
  writeFileSync(patchFile, diff);
  execFileSync("patch", ["-s", "-o", patched, source, patchFile]);
  const text = readFileSync(patched, "utf8");
  return text === "" ? "" : text.slice(0, -1);
}

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\nb", "a\nb", { before: "x", after: "y" })).toBe("");
  });

  it("shows a changed line with three lines of context in diff -u form", () => {
    const before = ["1", "2", "3", "4", "5", "6", "7", "8"].join("\n");
    const after = ["1", "2", "3", "4", "five", "6", "7", "8"].join("\n");
    expect(unifiedDiff(before, after, { before: "old", after: "new" })).toBe(
      ["--- old", "+++ new", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8", ""].join("\n"),
    );
  });

  it("produces patches the system patch tool applies exactly", () => {
    const lines = fc.array(fc.constantFrom("alpha", "beta", "gamma", "delta", "", "tools: Read"), { maxLength: 14 });
    fc.assert(
      fc.property(lines, lines, (before, after) => {
        // Texts, not line arrays: [""] and [] are both the empty text, an empty file.
        const beforeText = before.join("\n");
        const afterText = after.join("\n");
        const diff = unifiedDiff(beforeText, afterText, { before: "a", after: "b" });
        if (beforeText === afterText) return diff === "";
        expect(applyWithPatch(beforeText, diff)).toBe(afterText);
        return true;
      }),
      { numRuns: 40 },
    );
  });
});
