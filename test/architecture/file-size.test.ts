/**
 * Files small enough to read whole (docs/ARCHITECTURE.md, "Floors"; issue 43): no file under src/ over 400
 * lines. The oracle is the line count of each file read from disk against the literal 400.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `name: lines` for each text over `limit` lines (a final newline ends the last line, it starts none). */
function overLimit(files: readonly { name: string; text: string }[], limit: number): string[] {
  return files
    .map(({ name, text }) => ({ name, lines: text.replace(/\n$/, "").split("\n").length }))
    .filter(({ lines }) => lines > limit)
    .map(({ name, lines }) => `${name}: ${lines}`);
}

describe("file size", () => {
  // Guards: every file in src/ stays at or under 400 lines. Mutation caught: 20 comment lines inserted in
  // src/cli/modes/render/render.ts (400 lines), which then reports `cli/modes/render/render.ts: 420`.
  it("no file under src/ is over 400 lines", () => {
    const synthetic = [
      { name: "a.ts", text: `${"x\n".repeat(400)}` },
      { name: "b.ts", text: `${"x\n".repeat(401)}` },
    ];
    expect(overLimit(synthetic, 400)).toEqual(["b.ts: 401"]);
    const files = sourceFiles(SRC).map((path) => ({ name: relative(SRC, path), text: readFileSync(path, "utf8") }));
    expect(files.length).toBeGreaterThan(100);
    expect(overLimit(files, 400)).toEqual([]);
  });
});
