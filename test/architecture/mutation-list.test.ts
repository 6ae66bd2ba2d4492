/**
 * The mutation check's list follows the code it mutates (scripts/mutation-check.mjs): every entry names an
 * existing file holding its `find` text exactly once, existing test files, and a unique name; the areas issue
 * 45 names each have at least two mutations, and the list has at least 30. Running the mutations is CI's
 * job (.ci/run); this catches a stale entry in an ordinary test run, before the slow check.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations.
import { failureKind, MUTATIONS } from "../../scripts/mutation-check.mjs";

interface Mutation {
  name: string;
  area: string;
  guards: string;
  file: string;
  find: string;
  replace: string;
  tests: string[];
}

const ROOT = join(import.meta.dirname, "..", "..");
const LIST = MUTATIONS as Mutation[];
const AREAS = ["memory", "permissions", "hooks", "mcp", "compaction-progress", "settings"];

describe("the mutation check's list", () => {
  it("has unique names, existing files and tests, and each find text exactly once in its file", () => {
    expect(new Set(LIST.map((mutation) => mutation.name)).size).toBe(LIST.length);
    const problems: string[] = [];
    for (const mutation of LIST) {
      for (const test of mutation.tests)
        if (!existsSync(join(ROOT, test))) problems.push(`${mutation.name}: no test file ${test}`);
      if (!existsSync(join(ROOT, mutation.file))) {
        problems.push(`${mutation.name}: no file ${mutation.file}`);
        continue;
      }
      const count = readFileSync(join(ROOT, mutation.file), "utf8").split(mutation.find).length - 1;
      if (count !== 1) problems.push(`${mutation.name}: its find text occurs ${count} times in ${mutation.file}`);
      if (mutation.find === mutation.replace) problems.push(`${mutation.name}: replace equals find`);
    }
    expect(problems).toEqual([]);
  });

  it("covers each area of issue 45 with at least two mutations, 30 or more in all", () => {
    const counts = Object.fromEntries(
      AREAS.map((area) => [area, LIST.filter((mutation) => mutation.area === area).length]),
    );
    expect(AREAS.filter((area) => (counts[area] ?? 0) < 2)).toEqual([]);
    expect(LIST.length).toBeGreaterThanOrEqual(30);
  });

  it("counts a mutation as caught only by a failed assertion, never by an error the mutated code threw", () => {
    const kinds = [
      "AssertionError: expected 1 to be 2 // Object.is equality\n    at test.ts:3",
      "AssertionError [ERR_ASSERTION]: false == true",
      'Error: promise resolved "1" instead of rejecting',
      "Error: Property failed after 32 tests\n{ seed: 1 }\nCounterexample: [0]\nGot AssertionError: expected 2 to be 3",
      "TypeError: Cannot read properties of undefined (reading 'x')",
      "Error: Test timed out in 60000ms.",
      "Error: Property failed after 3 tests\nGot TypeError: x is not a function",
      "SyntaxError: Unexpected token ')'",
      "",
    ].map((message) => (failureKind as (message: string) => string)(message));
    expect(kinds).toEqual([
      "assertion",
      "assertion",
      "assertion",
      "assertion",
      "error",
      "error",
      "error",
      "error",
      "error",
    ]);
  });
});
