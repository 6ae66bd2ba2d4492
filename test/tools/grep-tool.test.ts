import { execFileSync } from "node:child_process";
import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createGrepTool, grepTool } from "../../src/tools/files/grep-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import type { Tool } from "../../src/tools/types.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

function ripgrepInstalled(): boolean {
  try {
    execFileSync("which", ["rg"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

let workspace: string;
const file = (relative: string) => path.join(workspace, relative);

beforeAll(async () => {
  workspace = await makeTempDirectory();
  await mkdir(file("src/nested"), { recursive: true });
  await mkdir(file("node_modules/dep"), { recursive: true });
  await mkdir(file(".git"), { recursive: true });
  await writeFile(file("src/a.ts"), "const alpha = 1;\nfunction beta() {}\n// TODO: Alpha cleanup\nconst gamma = 3;\n");
  await writeFile(file("src/b.js"), "let alpha;\nlet delta;\n");
  await writeFile(file("src/nested/c.ts"), "one\ntwo\nalpha here\nthree\nfour\nfive\nsix\nalpha again\n");
  await writeFile(file("README.md"), "# Title\nNo match in here.\n");
  await writeFile(file("node_modules/dep/index.js"), "alpha in a dependency\n");
  await writeFile(file(".git/config"), "alpha in git\n");
  await writeFile(file("src/blob.bin"), Buffer.from("alpha\0binary\n"));
  // mtimes: b.js newest, then nested/c.ts, then a.ts.
  await utimes(file("src/a.ts"), 1_000, 1_000);
  await utimes(file("src/nested/c.ts"), 2_000, 2_000);
  await utimes(file("src/b.js"), 3_000, 3_000);
});
afterAll(() => removeDirectory(workspace));

const grepWith = (tool: Tool<unknown>) => async (input: Record<string, unknown>) => {
  const output = await runTool(tool, input, makeContext(workspace), BYPASS);
  return { text: outputText(output.content), isError: output.isError };
};

function behavesLikeRipgrep(grep: ReturnType<typeof grepWith>): void {
  it("lists matching files newest first, skipping node_modules, .git and binary files", async () => {
    const { text } = await grep({ pattern: "alpha" });
    expect(text).toBe(["Found 3 files", file("src/b.js"), file("src/nested/c.ts"), file("src/a.ts")].join("\n"));
  });

  it("shows content lines with path and line number", async () => {
    const { text } = await grep({ pattern: "alpha", output_mode: "content", path: "src" });
    expect(text).toBe(
      [
        `${file("src/a.ts")}:1:const alpha = 1;`,
        `${file("src/b.js")}:1:let alpha;`,
        `${file("src/nested/c.ts")}:3:alpha here`,
        `${file("src/nested/c.ts")}:8:alpha again`,
      ].join("\n"),
    );
  });

  it("supports -i, -n false, and a glob filter", async () => {
    const { text } = await grep({ pattern: "ALPHA", "-i": true, "-n": false, output_mode: "content", glob: "*.ts" });
    expect(text).toBe(
      [
        `${file("src/a.ts")}:const alpha = 1;`,
        `${file("src/a.ts")}:// TODO: Alpha cleanup`,
        `${file("src/nested/c.ts")}:alpha here`,
        `${file("src/nested/c.ts")}:alpha again`,
      ].join("\n"),
    );
  });

  it("counts matching lines per file with a total", async () => {
    const { text } = await grep({ pattern: "alpha", output_mode: "count", type: "ts" });
    expect(text).toBe(`${file("src/a.ts")}:1\n${file("src/nested/c.ts")}:2\n\nFound 3 matching lines across 2 files.`);
  });

  it("shows context lines with - separators and -- between groups", async () => {
    const { text } = await grep({ pattern: "alpha", output_mode: "content", path: "src/nested/c.ts", "-C": 1 });
    const c = file("src/nested/c.ts");
    expect(text).toBe(
      [`${c}-2-two`, `${c}:3:alpha here`, `${c}-4-three`, "--", `${c}-7-six`, `${c}:8:alpha again`].join("\n"),
    );
  });

  it("applies head_limit with a note", async () => {
    const { text } = await grep({ pattern: "alpha", head_limit: 1 });
    expect(text).toBe(
      `Found 3 files\n${file("src/b.js")}\n(Showing the first 1 of 3 files; raise head_limit to see more.)`,
    );
  });

  it("matches across lines in multiline mode", async () => {
    const { text } = await grep({ pattern: "beta.*TODO", multiline: true, output_mode: "files_with_matches" });
    expect(text).toBe(`Found 1 file\n${file("src/a.ts")}`);
  });

  it("says when nothing matches", async () => {
    expect((await grep({ pattern: "zzz_nothing" })).text).toBe("No files found");
    expect((await grep({ pattern: "zzz_nothing", output_mode: "content" })).text).toBe("No matches found");
  });
}

describe("Grep, JavaScript engine (THREADLINE_NO_RIPGREP=1)", () => {
  beforeAll(() => {
    vi.stubEnv("THREADLINE_NO_RIPGREP", "1");
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });
  behavesLikeRipgrep(grepWith(grepTool));

  it("uses JavaScript regular expressions (lookahead, which rg lacks), even when rg is installed", async () => {
    const { text } = await grepWith(grepTool)({ pattern: "alpha(?= here)", output_mode: "content" });
    expect(text).toBe(`${file("src/nested/c.ts")}:3:alpha here`);
  });

  it("reports an invalid regular expression clearly", async () => {
    const { text, isError } = await grepWith(grepTool)({ pattern: "(unclosed" });
    expect(isError).toBe(true);
    expect(text).toContain('Invalid regular expression "(unclosed"');
  });

  it("reports an unknown file type with the known ones", async () => {
    const { text, isError } = await grepWith(grepTool)({ pattern: "a", type: "cobol" });
    expect(isError).toBe(true);
    expect(text).toContain('Unknown file type "cobol"');
    expect(text).toContain("ts, py");
  });

  it("refuses a search path outside the workspace and says when a path is missing", async () => {
    const outside = await grepWith(grepTool)({ pattern: "a", path: "/etc" });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain("outside the workspace");
    const missing = await grepWith(grepTool)({ pattern: "a", path: "no-such-dir" });
    expect(missing.text).toBe(`Path does not exist: ${file("no-such-dir")}. Check the path parameter.`);
  });
});

describe("Grep, forced JavaScript engine option", () => {
  behavesLikeRipgrep(grepWith(createGrepTool({ engine: "javascript" })));
});

const HAVE_RIPGREP = ripgrepInstalled();
if (!HAVE_RIPGREP) console.warn("[skip] Grep ripgrep-engine tests: rg is not on PATH (apt-get install ripgrep)");

describe.skipIf(!HAVE_RIPGREP)("Grep, ripgrep engine", () => {
  behavesLikeRipgrep(grepWith(createGrepTool({ engine: "ripgrep" })));
});
