/**
 * `--resume <path>` opens only a file threadline wrote (issue 53 item 4): a scratch file, a JSON file that is
 * not a transcript, an empty file and a FIFO are refused in one line, no request is sent, and the file is byte
 * for byte as it was. Oracles: the file's bytes, the emulator's request log, the exit code.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "../cli/cli-harness.js";
import { runCli } from "../cli/cli-process.js";

const harness = useCliHarness();

describe("--resume takes a session id or a file threadline wrote", () => {
  it.each([
    ["a scratch text file", "scratch.txt", "remember: buy milk\nline two\n", "its first line is not a JSON object"],
    [
      "JSON lines that are no transcript",
      "data.jsonl",
      '{"name":"x","value":1}\n',
      "its first line is neither a header nor",
    ],
    ["an empty file", "empty.jsonl", "", "it is empty"],
  ])("%s is refused in one line and left byte for byte", async (_what, name, content, why) => {
    const { cwd, env, emulator } = await harness.setup({ scenario: ["unused"] }, "resume-path");
    const path = join(cwd, name);
    await writeFile(path, content);
    const run = await runCli(["-p", "hello", "--resume", path], { cwd, env });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${path} is not a threadline transcript (${why}`);
    expect(await readFile(path, "utf8")).toBe(content);
    expect(emulator.requests).toHaveLength(0);
  });

  it("a FIFO is refused at once instead of waiting for a writer", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["unused"] }, "resume-fifo");
    const path = join(cwd, "pipe.jsonl");
    execFileSync("mkfifo", [path]);
    const run = await runCli(["-p", "hello", "--resume", path], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is not a threadline transcript (not a regular file)");
  });

  it("a transcript threadline wrote still resumes by its path", async () => {
    const { cwd, env, home, emulator } = await harness.setup(
      { scenario: ["First answer.", "Second answer."] },
      "resume-own",
    );
    expect((await runCli(["-p", "one"], { cwd, env })).code).toBe(0);
    const [project] = await readdir(join(home, "projects"));
    const [file] = await readdir(join(home, "projects", project!));
    const path = join(home, "projects", project!, file!);
    const run = await runCli(["-p", "two", "--resume", path], { cwd, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Second answer.");
    expect(emulator.requests).toHaveLength(2);
  });
});
