import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globToRegExp, splitGlobBase } from "../../src/tools/files/glob-pattern.js";
import { globTool } from "../../src/tools/files/glob-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

let workspace: string;
const file = (relative: string) => path.join(workspace, relative);

async function touch(relative: string, mtimeSeconds: number): Promise<void> {
  await mkdir(path.dirname(file(relative)), { recursive: true });
  await writeFile(file(relative), relative);
  await utimes(file(relative), mtimeSeconds, mtimeSeconds);
}

beforeEach(async () => {
  workspace = await makeTempDirectory();
  await touch("src/old.ts", 1_000);
  await touch("src/deep/newest.ts", 5_000);
  await touch("src/middle.tsx", 3_000);
  await touch("src/readme.md", 4_000);
  await touch("top.ts", 2_000);
  await touch("node_modules/dep/skip.ts", 9_000);
});
afterEach(() => removeDirectory(workspace));

const glob = async (input: Record<string, unknown>) =>
  outputText((await runTool(globTool, input, makeContext(workspace), BYPASS)).content);

describe("Glob", () => {
  it("returns matches newest first, skipping node_modules", async () => {
    expect(await glob({ pattern: "**/*.ts" })).toBe(
      [file("src/deep/newest.ts"), file("top.ts"), file("src/old.ts")].join("\n"),
    );
  });

  it("supports a literal base directory, braces and a path", async () => {
    expect(await glob({ pattern: "src/*.{ts,tsx}" })).toBe([file("src/middle.tsx"), file("src/old.ts")].join("\n"));
    expect(await glob({ pattern: "*.md", path: "src" })).toBe(file("src/readme.md"));
  });

  it("enters node_modules when the pattern names it", async () => {
    expect(await glob({ pattern: "node_modules/**/*.ts" })).toBe(file("node_modules/dep/skip.ts"));
  });

  it("caps results at 100 with a note", async () => {
    for (let index = 0; index < 105; index++) await touch(`many/f${index}.txt`, 10_000 + index);
    const lines = (await glob({ pattern: "many/*.txt" })).split("\n");
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe(file("many/f104.txt"));
    expect(lines[100]).toBe(
      "(Showing 100 of 105 matches, newest first. Use a more specific path or pattern to see the rest.)",
    );
  });

  it("says when nothing matches, and refuses directories outside the workspace", async () => {
    expect(await glob({ pattern: "**/*.py" })).toBe("No files found");
    expect(await glob({ pattern: "*", path: ".." })).toContain("outside the workspace");
    expect(await glob({ pattern: "*", path: "missing" })).toBe(
      `Directory does not exist: ${file("missing")}. Check the path.`,
    );
  });
});

describe("glob patterns", () => {
  it("compiles ** , *, ?, classes and braces", () => {
    expect(globToRegExp("**/*.ts").test("a.ts")).toBe(true);
    expect(globToRegExp("**/*.ts").test("a/b/c.ts")).toBe(true);
    expect(globToRegExp("*.ts").test("a/b.ts")).toBe(false);
    expect(globToRegExp("src/**").test("src/a/b")).toBe(true);
    expect(globToRegExp("file?.[jt]s").test("file1.ts")).toBe(true);
    expect(globToRegExp("file?.[!jt]s").test("file1.ts")).toBe(false);
    expect(globToRegExp("*.{ts,tsx}").test("x.tsx")).toBe(true);
    expect(globToRegExp("a.b").test("aXb")).toBe(false);
  });

  it("splits the literal base from the glob part", () => {
    expect(splitGlobBase("src/**/*.ts")).toEqual({ base: "src", rest: "**/*.ts" });
    expect(splitGlobBase("*.ts")).toEqual({ base: "", rest: "*.ts" });
    expect(splitGlobBase("/abs/dir/*.ts")).toEqual({ base: "/abs/dir", rest: "*.ts" });
  });
});
