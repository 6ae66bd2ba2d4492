/**
 * Plugin commands run as Claude Code runs the published ones (issue 57, "published commands do not run as
 * published"): a commit command's `` !`git diff HEAD` ``, `` !`git branch --show-current` `` and
 * `` !`git log …` `` run under allowed-tools that name only `git add`, `git status` and `git commit` (Claude Code's
 * Bash check lets read-only commands through), while a `touch` they do not allow does not run — unless the session
 * bypasses permissions, where everything not denied runs; a loop command's fenced ```` ```! ```` block runs with
 * `${CLAUDE_PLUGIN_ROOT}` expanded; `/commit` finds the one plugin command of that name; an unknown `/name` in -p
 * sends nothing. The plugin is test/fixtures/plugins/market/plugins/git-kit (written for these tests in the
 * published plugins' shapes). Oracles: what reached the model (the emulator's logged requests), files the shell
 * would write, and the git repository's own state.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();
const PLUGIN = resolve("test/fixtures/plugins/market/plugins/git-kit");
const CHANGED_LINE = "CHANGED-LINE-7c1d in the working tree";

function firstPrompt(emulator: Emulator): string {
  const body = emulator.requests.find((record) => record.path === "/v1/messages")?.body as { messages?: unknown };
  return JSON.stringify(body?.messages ?? "");
}

/** A git repository on branch `feature-x` with one commit ("first-commit-subject") and an uncommitted change. */
async function repository(scenario: string[]) {
  const setup = await harness.setup({ scenario: scenario as never }, "threadline-published-");
  const userHome = await harness.tempDir("threadline-published-user-");
  const plugin = join(await harness.tempDir("threadline-published-plugin-"), "git-kit");
  await cp(PLUGIN, plugin, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
      cwd: setup.cwd,
      env: { ...process.env, HOME: userHome },
    });
  git("init", "-q", "-b", "feature-x");
  await writeFile(join(setup.cwd, "app.txt"), "first line\n");
  git("add", "app.txt");
  git("commit", "-q", "-m", "first-commit-subject");
  await writeFile(join(setup.cwd, "app.txt"), `first line\n${CHANGED_LINE}\n`);
  return { ...setup, plugin, env: { ...setup.env, HOME: userHome } };
}

describe("published command shapes (CLI)", () => {
  it("a commit command's read-only git lines run under allowed-tools that do not name them; a write it does not allow does not", async () => {
    const { cwd, env, emulator, plugin } = await repository(["Committed."]);
    const result = await runCli(["-p", "/git-kit:commit", "--plugin-dir", plugin], { cwd, env });
    expect(result.code).toBe(0);
    const sent = firstPrompt(emulator);
    // git status --short (allowed by Bash(git status:*)), then the three lines Claude Code runs as read-only.
    expect(sent).toContain("Status:  M app.txt");
    expect(sent).toContain(`+${CHANGED_LINE}`);
    expect(sent).toContain("Branch: feature-x");
    expect(sent).toMatch(/History: [0-9a-f]{7,} first-commit-subject/);
    expect(sent).not.toContain("(not run: `git");
    // touch is neither allowed nor read-only: it is named, not run.
    expect(sent).toContain("(not run: `touch commit-side-effect.txt` is not allowed by this command's allowed-tools)");
    expect(existsSync(join(cwd, "commit-side-effect.txt"))).toBe(false);
  });

  it("with --dangerously-skip-permissions every line runs, except one a deny rule names", async () => {
    const { cwd, env, emulator, plugin } = await repository(["Committed."]);
    const result = await runCli(
      [
        "-p",
        "/git-kit:commit",
        "--plugin-dir",
        plugin,
        "--dangerously-skip-permissions",
        "--disallowedTools",
        "Bash(git log:*)",
      ],
      { cwd, env },
    );
    expect(result.code).toBe(0);
    expect(existsSync(join(cwd, "commit-side-effect.txt"))).toBe(true);
    const sent = firstPrompt(emulator);
    expect(sent).toContain("Branch: feature-x");
    expect(sent).not.toContain("first-commit-subject");
    expect(sent).toContain("(not run: `git log --oneline -3`");
  });

  it("a fenced ```! block runs with the plugin root variable expanded, under an allowed-tools rule that names the script by that root", async () => {
    const { cwd, env, emulator, plugin } = await repository(["Looping."]);
    const result = await runCli(["-p", '/git-kit:loop "Fix the tests" --rounds 3', "--plugin-dir", plugin], {
      cwd,
      env,
    });
    expect(result.code).toBe(0);
    // The script ran: its state file names the plugin's folder (the variable is set too) and the arguments.
    expect(existsSync(join(cwd, ".claude", "loop-state.local.md"))).toBe(true);
    expect(await readFile(join(cwd, ".claude", "loop-state.local.md"), "utf8")).toBe(
      `root=${plugin}\nargs=Fix the tests --rounds 3\n`,
    );
    const sent = firstPrompt(emulator);
    expect(sent).toContain("LOOP-STARTED with: Fix the tests --rounds 3");
    expect(sent).not.toContain("```!");
    expect(sent).not.toContain("CLAUDE_PLUGIN_ROOT");
    expect(sent).toContain("Work on the task; the loop brings it back each time you stop.");
  });

  it("/commit without the plugin's prefix runs the one plugin command of that name", async () => {
    const { cwd, env, emulator, plugin } = await repository(["Committed."]);
    const result = await runCli(["-p", "/commit", "--plugin-dir", plugin], { cwd, env });
    expect(result.code).toBe(0);
    const sent = firstPrompt(emulator);
    expect(sent).toContain("Stage and commit the changes above in one message.");
    expect(sent).toContain("Branch: feature-x");
    expect(sent).not.toContain('"/commit"');
  });

  it("-p with a /name no command has sends nothing and says so (a path on disk is still a prompt)", async () => {
    const { cwd, env, emulator, plugin } = await repository(["Answered."]);
    const unknown = await runCli(["-p", "/comit", "--plugin-dir", plugin], { cwd, env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "threadline: unknown command /comit (did you mean /git-kit:commit?); nothing was sent",
    );
    expect(emulator.requests.filter((record) => record.path === "/v1/messages")).toHaveLength(0);
    const path = await runCli(["-p", "/tmp is full, why?", "--plugin-dir", plugin], { cwd, env });
    expect(path.code).toBe(0);
    expect(firstPrompt(emulator)).toContain("/tmp is full, why?");
  });

  it("plugin commands are offered to the model in the Skill tool; called, one renders with its !`cmd` lines run", async () => {
    const { cwd, env, emulator, plugin } = await repository([
      { content: [{ type: "tool_use", name: "Skill", input: { skill: "git-kit:commit" } }] },
      "Done.",
    ] as never);
    const result = await runCli(["-p", "commit my work", "--plugin-dir", plugin], { cwd, env });
    expect(result.code).toBe(0);
    const bodies = emulator.requests
      .filter((record) => record.path === "/v1/messages")
      .map((record) => record.body as { messages: unknown; tools?: Array<{ name: string; description?: string }> });
    const listing = bodies[0]?.tools?.find((tool) => tool.name === "Skill")?.description ?? "";
    expect(listing).toContain("- git-kit:commit: Record the work as one commit");
    // hide-from-slash-command-tool: "true" keeps the loop command out of the model's list.
    expect(listing).not.toContain("git-kit:loop");
    const second = JSON.stringify(bodies[1]?.messages);
    expect(second).toContain("Branch: feature-x");
    expect(second).toContain(`+${CHANGED_LINE}`);
    expect(second).not.toContain("!`git diff HEAD`");
  });
});
