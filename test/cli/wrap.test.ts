/** Wrapping output to a narrow terminal: nothing lost, nothing wider than the window, gutters kept. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { continuationPrefix, wrapLine, wrapOutput } from "../../src/cli/terminal/wrap.js";

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const plain = (text: string) => text.replace(ANSI, "");
const width = (text: string) => [...plain(text)].length;

describe("wrapLine", () => {
  // Mutation caught: dropping the mid-word break (a long path) leaves a row wider than the window; dropping
  // the prefix strip below would show a lost or duplicated character.
  it("keeps every row within the width and every non-space character, in order (property)", () => {
    const word = fc.stringMatching(/^[a-z/.()+-]{1,30}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 20, max: 120 }),
        (words, columns) => {
          const line = `    12 + ${words.join(" ")}`;
          const rows = wrapLine(line, columns, continuationPrefix(line));
          for (const row of rows) expect(width(row)).toBeLessThanOrEqual(columns);
          const body = rows.map((row, index) => (index === 0 ? row : row.slice("       + ".length))).join("");
          expect(body.replace(/\s/g, "")).toBe(line.replace(/\s/g, ""));
        },
      ),
    );
  });

  it("a diff line continues under its sign, a code line under its gutter, a tool line past its mark", () => {
    expect(wrapOutput("   3 - alpha beta gamma delta epsilon zeta", 24).split("\n")).toEqual([
      "   3 - alpha beta gamma",
      "     - delta epsilon",
      "     - zeta",
    ]);
    const code = "  │ const answer = computeTheAnswer(input)";
    expect(wrapLine(code, 24, continuationPrefix(code))).toEqual([
      "  │ const answer =",
      "  │ computeTheAnswer(inp", // wider than the row: broken mid-word, under the gutter
      "  │ ut)",
    ]);
    expect(wrapOutput("  ⎿ ✗ exit 1 · npm ERR! missing script: test", 24).split("\n")).toEqual([
      "  ⎿ ✗ exit 1 · npm ERR!",
      "      missing script:",
      "      test",
    ]);
  });

  // Mutation caught: breaking long words in printed output splits a path a person copies across two lines.
  it("printed output leaves a word wider than a row whole, where it stands (a path copies as one line)", () => {
    const path = "/tmp/threadline-home/projects/-tmp-x/0d9e6b2c-1f7a-4c55-9a57-3c8f7f1d2e4b.jsonl";
    expect(wrapOutput(`Transcript: ${path}`, 40)).toBe(`Transcript: ${path}`);
    expect(wrapOutput(`  Inspect it with:  ./bin/threadline inspect ${path}`, 40).split("\n")).toEqual([
      "  Inspect it with:  ./bin/threadline",
      `  inspect ${path}`,
    ]);
  });

  it("closes the colour at a break and opens it again after the prefix", () => {
    const red = "\x1b[31m   3 - alpha beta gamma delta\x1b[39m";
    const rows = wrapLine(red, 20, continuationPrefix(red));
    expect(rows[0]).toBe("\x1b[31m   3 - alpha beta\x1b[0m");
    expect(rows[1]).toBe("\x1b[31m     - gamma delta\x1b[39m");
  });
});
