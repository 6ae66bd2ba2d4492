import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/files/edit-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

let workspace: string;
beforeEach(async () => {
  workspace = await makeTempDirectory();
});
afterEach(() => removeDirectory(workspace));

const edit = (input: Record<string, unknown>) => runTool(editTool, input, makeContext(workspace), BYPASS);

describe("Write", () => {
  it("creates parent directories and reports created vs updated", async () => {
    const created = await runTool(
      writeTool,
      { file_path: "deep/er/new.txt", content: "a\nb\n" },
      makeContext(workspace),
      BYPASS,
    );
    expect(created.content).toBe(`Created ${path.join(workspace, "deep/er/new.txt")} (2 lines, 4 bytes).`);
    expect(await readFile(path.join(workspace, "deep/er/new.txt"), "utf8")).toBe("a\nb\n");
    const updated = await runTool(
      writeTool,
      { file_path: "deep/er/new.txt", content: "c" },
      makeContext(workspace),
      BYPASS,
    );
    expect(outputText(updated.content)).toMatch(/^Updated .* \(1 line, 1 bytes\)\.$/);
  });
});

describe("Edit", () => {
  const source = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

  beforeEach(async () => {
    await writeFile(path.join(workspace, "code.js"), source);
  });

  it("replaces a unique string and returns a numbered snippet of the edited region", async () => {
    const output = await edit({
      file_path: "code.js",
      old_string: "function b() {\n  return 1;",
      new_string: "function b() {\n  return 2;",
    });
    expect(output.isError).toBeUndefined();
    const text = outputText(output.content);
    expect(text).toContain("has been updated");
    expect(text).toContain("     6\t  return 2;");
    expect(text).toContain("     2\t  return 1;");
    expect(await readFile(path.join(workspace, "code.js"), "utf8")).toBe(
      "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n",
    );
  });

  it("fails on an ambiguous old_string, saying how many matches, and leaves the file alone", async () => {
    const output = await edit({ file_path: "code.js", old_string: "return 1;", new_string: "return 3;" });
    expect(output.isError).toBe(true);
    expect(output.content).toContain("Found 2 matches of old_string");
    expect(output.content).toContain("set replace_all to true");
    expect(await readFile(path.join(workspace, "code.js"), "utf8")).toBe(source);
  });

  it("replaces every occurrence with replace_all", async () => {
    const output = await edit({
      file_path: "code.js",
      old_string: "return 1;",
      new_string: "return $&;",
      replace_all: true,
    });
    expect(output.content).toContain("All 2 occurrences were replaced");
    // `$&` is literal: no String.replace pattern expansion.
    expect(await readFile(path.join(workspace, "code.js"), "utf8")).toBe(source.split("return 1;").join("return $&;"));
  });

  it("fails clearly when old_string is missing", async () => {
    const output = await edit({ file_path: "code.js", old_string: "return 42;", new_string: "x" });
    expect(output.isError).toBe(true);
    expect(output.content).toContain("String to replace not found in");
    expect(output.content).toContain("including whitespace, indentation");
  });

  it("treats old_string === new_string as an error", async () => {
    const output = await edit({ file_path: "code.js", old_string: "return 1;", new_string: "return 1;" });
    expect(output.isError).toBe(true);
    expect(output.content).toContain("old_string and new_string are exactly the same");
  });

  it("matches LF old_string against a CRLF file and keeps CRLF", async () => {
    await writeFile(path.join(workspace, "dos.txt"), "one\r\ntwo\r\nthree\r\n");
    const output = await edit({ file_path: "dos.txt", old_string: "one\ntwo", new_string: "uno\ndos" });
    expect(output.isError).toBeUndefined();
    expect(await readFile(path.join(workspace, "dos.txt"), "utf8")).toBe("uno\r\ndos\r\nthree\r\n");
  });

  it("says when the file does not exist, and creates it for an empty old_string", async () => {
    const missing = await edit({ file_path: "nope.txt", old_string: "a", new_string: "b" });
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain("File does not exist");
    const created = await edit({ file_path: "nope.txt", old_string: "", new_string: "fresh\n" });
    expect(created.isError).toBeUndefined();
    expect(await readFile(path.join(workspace, "nope.txt"), "utf8")).toBe("fresh\n");
  });
});
