/**
 * Every guard the docs state names the test that holds it (issue 45): each invariant in docs/INVARIANTS.md
 * names at least one test file, and docs/HOOKS.md, SETTINGS.md, MEMORY.md and MCP.md end with a table of their
 * guards, each row naming at least one. Every test file named in those docs exists, so a renamed or deleted
 * test cannot leave a guard pointing at nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (name: string) => readFileSync(join(ROOT, "docs", name), "utf8");
const TEST_PATH = /`(test\/[\w./-]+\.test\.ts)`/g;
const testsIn = (text: string) => [...text.matchAll(TEST_PATH)].map((match) => match[1]!);

describe("guards name their tests", () => {
  it("each invariant in docs/INVARIANTS.md names a test", () => {
    const items = read("INVARIANTS.md")
      .split(/\n(?=\d+\. \*\*)/)
      .slice(1);
    expect(items.length).toBeGreaterThanOrEqual(8);
    expect(items.filter((item) => testsIn(item).length === 0).map((item) => item.slice(0, 60))).toEqual([]);
  });

  it.each(["HOOKS.md", "SETTINGS.md", "MEMORY.md", "MCP.md", "TOOLS.md", "TRUST.md"])(
    "docs/%s ends with its guards, each naming a test",
    (name) => {
      const text = read(name);
      const at = text.indexOf("\n## Guards and the tests that hold them\n");
      expect(at, `${name} has no "Guards and the tests that hold them" section`).toBeGreaterThan(0);
      const rows = text
        .slice(at)
        .split("\n")
        .filter((line) => line.startsWith("| ") && !line.startsWith("| guard") && !line.startsWith("| ---"));
      expect(rows.length).toBeGreaterThanOrEqual(5);
      expect(rows.filter((row) => testsIn(row).length === 0)).toEqual([]);
    },
  );

  it("every test file these docs name exists", () => {
    const named = ["INVARIANTS.md", "HOOKS.md", "SETTINGS.md", "MEMORY.md", "MCP.md", "TOOLS.md", "TRUST.md"].flatMap(
      (name) => testsIn(read(name)).map((test) => ({ name, test })),
    );
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter(({ test }) => !existsSync(join(ROOT, test)))).toEqual([]);
  });
});
