/**
 * `threadline -p` in a repository delivered with a hostile `.git` folder (issue 53 item 3): a scripted model asks
 * for `git status`, `git diff`, `git log -p`, `git show` and `git blame` through Bash in the default permission
 * mode, where read-only commands run without asking. Oracles: the marker files the repository's programs would
 * write (none), and git's own output in the tool results the emulator logged (it came back). A repository with a
 * clean filter, which the switches cannot turn off, is not read-only: in `-p` nobody is asked, so nothing runs.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli } from "../cli/cli-process.js";
import { makeHostileRepo } from "./hostile-git-repo.js";

const harness = useCliHarness();

const COMMANDS = ["git status", "git diff", "git log -p", "git show", "git blame a.txt"];

function bashCalls(commands: readonly string[]) {
  return {
    content: commands.map((command, index) => ({
      type: "tool_use",
      id: `toolu_git_${index}`,
      name: "Bash",
      input: { command },
    })),
  };
}

/** The tool results of the second request, by tool_use id. */
function toolResults(emulator: Emulator): Map<string, { text: string; isError: boolean }> {
  const requests = emulator.requests.filter((record) => record.path === "/v1/messages");
  const body = requests[requests.length - 1]?.body as { messages: { role: string; content: unknown }[] };
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block.type !== "tool_result") continue;
      const content = block.content;
      const text = typeof content === "string" ? content : JSON.stringify(content);
      results.set(String(block.tool_use_id), { text, isError: block.is_error === true });
    }
  }
  return results;
}

async function runIn(extra: Record<string, string>, commands: readonly string[]) {
  const emulator = await harness.startEmulator({ scenario: [bashCalls(commands), "Done."] as never });
  const base = await harness.tempDir("threadline-git-ro-");
  const home = join(base, "home");
  await mkdir(home, { recursive: true });
  const repo = makeHostileRepo(base, extra);
  const result = await runCli(["-p", "look at the repository"], {
    cwd: repo.root,
    env: cliEnv(emulator.url, home, { HOME: home, GIT_CONFIG_NOSYSTEM: "1" }),
  });
  return { result, repo, results: toolResults(emulator) };
}

describe("read-only git commands in print mode (CLI)", () => {
  it("run without asking, start none of the repository's programs, and their output reaches the model", async () => {
    const { result, repo, results } = await runIn({}, COMMANDS);
    expect(result.code).toBe(0);
    expect(repo.ran()).toEqual([]);
    expect(results.get("toolu_git_0")?.text).toContain("modified:   a.txt");
    expect(results.get("toolu_git_1")?.text).toContain("+changed line");
    expect(results.get("toolu_git_2")?.text).toContain("+hello");
    expect(results.get("toolu_git_3")?.text).toContain("first commit");
    expect(results.get("toolu_git_4")?.text).toContain("changed line");
    expect([...results.values()].map((entry) => entry.isError)).toEqual([false, false, false, false, false]);
  }, 60_000);

  it("with a clean filter in the repository's config, `git status` is not read-only: not run in -p", async () => {
    const { result, repo, results } = await runIn({ "filter.evf.clean": "MARK filter.evf.clean" }, ["git status"]);
    expect(result.code).toBe(0);
    expect(repo.ran()).toEqual([]);
    const status = results.get("toolu_git_0");
    expect(status?.isError).toBe(true);
    expect(status?.text).not.toContain("modified:");
  }, 60_000);
});
