import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forEachJsonlLine } from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs();

async function collect(path: string, chunkBytes: number) {
  const lines: Array<[string, number, boolean]> = [];
  await forEachJsonlLine(path, (line, lineNumber, terminated) => void lines.push([line, lineNumber, terminated]), {
    chunkBytes,
  });
  return lines;
}

describe("forEachJsonlLine", () => {
  it("splits on LF only: U+2028, U+2029 and CR stay inside the line", async () => {
    const path = join(await tempDir(), "separators.jsonl");
    await writeFile(path, 'a\u2028b\u2029c\r\n{"x":"\u2028"}\n');
    expect(await collect(path, 3)).toEqual([
      ["a\u2028b\u2029c\r", 1, true],
      ['{"x":"\u2028"}', 2, true],
    ]);
  });

  it("rebuilds lines and multi-byte characters split across chunks, for every chunk size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: "binary", maxLength: 30 }).map((line) => line.replaceAll("\n", "")),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 9 }),
        async (lines, finalNewline, chunkBytes) => {
          const path = join(await tempDir(), "chunks.jsonl");
          await writeFile(path, lines.join("\n") + (finalNewline ? "\n" : ""));
          const got = await collect(path, chunkBytes);
          const expected = lines.map((line, index) => [line, index + 1, finalNewline || index < lines.length - 1]);
          // A file that ends in LF has no empty line after it; one that does not ends with an unterminated line.
          if (!finalNewline && lines.at(-1) === "") expected.pop();
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("stops when the handler returns false and reports progress", async () => {
    const path = join(await tempDir(), "stop.jsonl");
    await writeFile(path, "one\ntwo\nthree\n");
    const seen: string[] = [];
    const progress: Array<[number, number]> = [];
    await forEachJsonlLine(
      path,
      (line) => {
        seen.push(line);
        return line !== "two";
      },
      { chunkBytes: 4, onProgress: (read, total) => progress.push([read, total]) },
    );
    expect(seen).toEqual(["one", "two"]);
    expect(progress[0]).toEqual([4, 14]);
  });
});
