/**
 * One writer per session through the built CLI (docs/EXACTLY-ONCE.md): while a live process holds a session,
 * `--resume` is refused with one line naming it, and `--resume … --fork-session` goes on in a new session.
 * Oracle: the holder's real pid, the CLI's exit code and lines, the files on disk.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();
const lockChild = fileURLToPath(new URL("../transcript/lock-child.ts", import.meta.url));
let holder: ChildProcess | undefined;
afterEach(() => {
  holder?.kill("SIGKILL");
  holder = undefined;
});

function hold(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", lockChild, path, "hold"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve) => {
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("held")) resolve(child);
    });
  });
}

describe("a session held by a live process", () => {
  it("--resume is refused naming the holder; --fork-session branches into a new session", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["First answer.", "Forked answer."] }, "lock");
    const first = await runCli(["-p", "hello", "--output-format", "json"], { cwd, env });
    const { session_id: id } = JSON.parse(first.stdout) as { session_id: string };
    const home = env.THREADLINE_HOME ?? "";
    const folder = (await readdir(`${home}/projects`))[0] ?? "";
    const path = `${home}/projects/${folder}/${id}.jsonl`;
    holder = await hold(path);
    const refused = await runCli(["-p", "again", "--resume", id], { cwd, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain(`in use by pid ${holder.pid}`);
    const forked = await runCli(["-p", "again", "--resume", id, "--fork-session", "--output-format", "json"], {
      cwd,
      env,
    });
    expect(forked.code).toBe(0);
    const result = JSON.parse(forked.stdout) as { session_id: string; result: string };
    expect(result.session_id).not.toBe(id);
    expect(result.result).toBe("Forked answer.");
    expect((await readdir(dirname(path))).filter((name) => name.endsWith(".jsonl")).sort()).toEqual(
      [`${id}.jsonl`, `${result.session_id}.jsonl`].sort(),
    );
  });
});
