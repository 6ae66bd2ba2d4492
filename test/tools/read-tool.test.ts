import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../src/tools/files/read-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

/** A real 1×1 PNG. */
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

let workspace: string;
beforeEach(async () => {
  workspace = await makeTempDirectory();
});
afterEach(() => removeDirectory(workspace));

async function read(input: Record<string, unknown>) {
  return runTool(readTool, input, makeContext(workspace), BYPASS);
}

function numbered(count: number): string {
  return Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n") + "\n";
}

describe("Read", () => {
  it("numbers lines like cat -n: right-aligned to six columns, then a tab", async () => {
    await writeFile(path.join(workspace, "a.txt"), "first\nsecond\r\nthird");
    const output = await read({ file_path: "a.txt" });
    expect(output.content).toBe("     1\tfirst\n     2\tsecond\n     3\tthird");
  });

  // Mutation caught: decoding as UTF-8 regardless turns "é" (0xE9) into U+FFFD with no word to the model.
  it("reads a Latin-1 file as Latin-1, with a note, instead of replacement characters", async () => {
    await writeFile(path.join(workspace, "legacy.csv"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0xe4, 0x0a]));
    const text = outputText((await read({ file_path: "legacy.csv" })).content);
    expect(text).not.toContain("\uFFFD");
    expect(text.split("\n").slice(0, 2)).toEqual(["     1\tcafé", "     2\tnä"]);
    expect(text).toContain("not valid UTF-8; it was read as Latin-1");
    // Valid UTF-8 (a multi-byte character) gets no note.
    await writeFile(path.join(workspace, "utf8.txt"), "café\n");
    const utf8 = outputText((await read({ file_path: "utf8.txt" })).content);
    expect(utf8).toBe("     1\tcafé");
  });

  it("reads a window with offset and limit and says how to continue", async () => {
    await writeFile(path.join(workspace, "long.txt"), numbered(50));
    const text = outputText((await read({ file_path: "long.txt", offset: 10, limit: 3 })).content);
    expect(text.split("\n").slice(0, 3)).toEqual(["    10\tline 10", "    11\tline 11", "    12\tline 12"]);
    expect(text).toContain("call Read with offset=13 to read more");
  });

  it("reads 2000 lines by default", async () => {
    await writeFile(path.join(workspace, "many.txt"), numbered(2500));
    const text = outputText((await read({ file_path: "many.txt" })).content);
    expect(text).toContain("  2000\tline 2000");
    expect(text).not.toContain("line 2001\n");
    expect(text).toContain("offset=2001");
  });

  it("says when the offset is past the end", async () => {
    await writeFile(path.join(workspace, "short.txt"), numbered(5));
    const output = await read({ file_path: "short.txt", offset: 9 });
    expect(output.isError).toBe(true);
    expect(output.content).toContain("has 5 lines; offset 9 is past the end");
  });

  it("truncates lines over 2000 characters", async () => {
    await writeFile(path.join(workspace, "wide.txt"), `${"x".repeat(5000)}\nshort\n`);
    const text = outputText((await read({ file_path: "wide.txt" })).content);
    const [first, second] = text.split("\n");
    expect(first).toBe(`     1\t${"x".repeat(2000)}... [line truncated: 5000 characters]`);
    expect(second).toBe("     2\tshort");
  });

  it("refuses a file over 256 KB without offset/limit, and reads it with them", async () => {
    await writeFile(path.join(workspace, "big.txt"), `${"y".repeat(99)}\n`.repeat(3000));
    const refused = await read({ file_path: "big.txt" });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("over the 256.0 KB limit");
    expect(refused.content).toContain("offset and limit");
    const part = await read({ file_path: "big.txt", offset: 2999, limit: 5 });
    expect(part.isError).toBeUndefined();
    expect(outputText(part.content).split("\n")).toHaveLength(2);
  });

  it("stops a window of long lines at the size limit, on a line boundary", async () => {
    await writeFile(path.join(workspace, "wide-many.txt"), `${"z".repeat(1500)}\n`.repeat(400));
    const text = outputText((await read({ file_path: "wide-many.txt", offset: 1, limit: 400 })).content);
    expect(text.length).toBeLessThan(256 * 1024 + 200);
    const lastLine = text.split("\n\n")[0]?.split("\n").at(-1) ?? "";
    expect(lastLine).toMatch(/^ +\d+\tz{1500}$/);
    expect(text).toMatch(/The file continues; call Read with offset=\d+ to read more\.\)$/);
  });

  it("returns a PNG (sniffed by bytes, not extension) as an image block", async () => {
    await writeFile(path.join(workspace, "picture.dat"), TINY_PNG);
    const output = await read({ file_path: "picture.dat" });
    expect(output.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG.toString("base64") } },
    ]);
  });

  it("refuses an image whose base64 exceeds 5 MB, naming the size", async () => {
    const huge = Buffer.concat([TINY_PNG.subarray(0, 16), Buffer.alloc(4 * 1024 * 1024, 7)]);
    await writeFile(path.join(workspace, "huge.png"), huge);
    const output = await read({ file_path: "huge.png" });
    expect(output.isError).toBe(true);
    expect(output.content).toContain("4.0 MB on disk, 5.3 MB as base64, over the 5.0 MB limit");
  });

  it("refuses binary files with a clear message", async () => {
    await writeFile(path.join(workspace, "blob.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    const output = await read({ file_path: "blob.bin" });
    expect(output.isError).toBe(true);
    expect(output.content).toContain("it is a binary file (8 bytes)");
  });

  it("reports a missing file and suggests similar names", async () => {
    await writeFile(path.join(workspace, "config.json"), "{}");
    await writeFile(path.join(workspace, "unrelated.md"), "");
    const output = await read({ file_path: "config.jsn" });
    expect(output.isError).toBe(true);
    expect(output.content).toBe(
      `File does not exist: ${path.join(workspace, "config.jsn")}. Did you mean: ${path.join(workspace, "config.json")}?`,
    );
  });

  it("says when the path is a directory, and when a file is empty", async () => {
    await mkdir(path.join(workspace, "folder"));
    await writeFile(path.join(workspace, "empty.txt"), "");
    expect((await read({ file_path: "folder" })).content).toContain("is a directory");
    expect((await read({ file_path: "empty.txt" })).content).toContain("exists but is empty");
  });
});
