import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { buildOnce, ROOT } from "./build-once.js";
import { runCli } from "./cli-process.js";

let home: string;

beforeAll(async () => {
  buildOnce();
  home = await makeTempDir("demo-home");
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("threadline demo", () => {
  it("runs the offline session on a copy of the sample project and prints the summary", async () => {
    const { ANTHROPIC_API_KEY: _key, ANTHROPIC_BASE_URL: _url, ...env } = process.env;
    const result = await runCli(["demo"], { cwd: ROOT, env: { ...env, THREADLINE_HOME: home, NO_COLOR: "1" } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain("Demo summary");
    // Every request the server served is counted, the compaction summary included.
    const modelRequests = Number(/Prompts: +4 \((\d+) model requests\)/.exec(out)?.[1] ?? 0);
    // The scenario's 18 calls, plus one Read per file the model had to read again after a tier took it away
    // (the emulator counts with a real tokenizer, so where compaction falls is the server's count, not ours).
    const reReads = Number(/^ +Re-reads: +(\d+) files?/m.exec(out)?.[1] ?? 0);
    expect(out).toMatch(
      new RegExp(
        `Tool calls: +${18 + reReads} \\(0 failed\\): Read ×${7 + reReads}, Glob ×1, Grep ×1, Bash ×7, Edit ×2`,
      ),
    );
    expect(out).toMatch(/Cache hit ratio: +[1-9]\d?\.\d%/);
    expect(out).toMatch(/Context window: +21,000 tokens \(demo setting; \S+ has 200,000\)/);
    for (const tier of ["snip", "microcompact", "collapse", "autocompact"])
      expect(out).toMatch(new RegExp(`^ +${tier} +(on|off) `, "m"));
    // The public path: no cache editing announced or used; microcompact clears in a client-side batch and the
    // summary prices what that saved, net of the rewrite it caused.
    expect(out).toContain("behaves as the public Messages API (no cache editing)");
    expect(out).toMatch(/^ +microcompact +on +\d+ tool results cleared \(~[\d.,k]+ tokens\), 0 cache edits pinned/m);
    const cleared = Number(/^ +microcompact +on +(\d+) tool results cleared/m.exec(out)?.[1] ?? 0);
    expect(cleared).toBeGreaterThan(0);
    expect(out).toMatch(/✻ Cleared \d+ old tool results/);
    // The net figure is printed in words, never as a negative saving: a clear followed soon by a compaction can
    // cost more than it saved ("saved $-0.0010" before).
    const saved =
      /^ +Cleared: +(\d+) old tool results in \d+ clears? .*: (?:saved \$(\d+\.\d+)|cost \$(\d+\.\d+) more than it saved) at list price$/m.exec(
        out,
      );
    expect(Number(saved?.[1])).toBe(cleared);
    expect(Number.isFinite(Number(saved?.[2] ?? saved?.[3]))).toBe(true);
    expect(out).not.toMatch(/saved \$-/);
    // Compaction is an expected cache drop, never reported as a break.
    expect(out).not.toContain("Prompt cache break");
    const requests = Number(/Emulator: +(\d+) HTTP requests, 0 contract violations/.exec(out)?.[1] ?? 0);
    expect(requests).toBeGreaterThanOrEqual(21);
    expect(modelRequests).toBe(requests);
    expect(out).toContain("Sample tests:     pass");
    const transcript = /Transcript: +(\S+\.jsonl)/.exec(out)?.[1];
    expect(transcript?.startsWith(home)).toBe(true);
    expect((await readFile(transcript ?? "", "utf8")).split("\n").length).toBeGreaterThan(20);
    // The copy is fixed; the bundled sample keeps its bug for the next run.
    const project = /Project copy: +(\S+)/.exec(out)?.[1] ?? "";
    expect(await readFile(join(project, "src", "stats.js"), "utf8")).toContain("sort((a, b) => a - b)");
    expect(await readFile(join(ROOT, "examples", "sample-project", "src", "stats.js"), "utf8")).toContain("sort();");
    // Printed as the interactive mode prints: markdown rendered (no backticks), the Edit's diff, Bash's first
    // lines. Mutation caught: the demo's renderer without markdown/details (as before) shows the backticks and
    // no diff.
    expect(out).toContain("[...values].sort() with no comparator sorts numbers as strings");
    expect(out).not.toContain("`[...values].sort()`");
    expect(out).toMatch(
      /10 - const sorted = \[\.\.\.values\]\.sort\(\);\n\s+10 \+ const sorted = \[\.\.\.values\]\.sort\(\(a, b\) => a - b\);/,
    );
    expect(out).toMatch(/✓ exit 0 · 6 lines\n\s+ok - mean of three numbers/);
    // The closing hint is a command that works from here after `npm ci` (no global install): run it.
    const hint = /Inspect it with: +(\S+) inspect (\S+)$/m.exec(out);
    expect(hint?.[1]).toBe("./bin/threadline");
    expect(hint?.[2]).toBe(transcript);
    const inspected = await runCli(["inspect", hint?.[2] ?? ""], { cwd: ROOT, env: { ...env, NO_COLOR: "1" } });
    expect(inspected.code).toBe(0);
    await rm(join(project, ".."), { recursive: true, force: true });
  });
});
