/**
 * Memory files, custom commands and /memory through the built CLI: real processes, a temp HOME with the
 * user's ~/.claude, a project with CLAUDE.md and .claude/commands, the emulator over loopback.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator, EmulatorOptions } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();
const ROOT_RULE = "Root rule R1: run npm test before committing.";
const USER_RULE = "User rule U1: answer in British English.";

async function project(options: EmulatorOptions) {
  const setup = await harness.setup(options, "threadline-memory-");
  const userHome = await harness.tempDir("threadline-memory-user-");
  await mkdir(join(userHome, ".claude"), { recursive: true });
  await writeFile(join(userHome, ".claude", "CLAUDE.md"), `${USER_RULE}\n`);
  await mkdir(join(setup.cwd, ".git"), { recursive: true });
  await writeFile(join(setup.cwd, "CLAUDE.md"), `${ROOT_RULE}\n`);
  await mkdir(join(setup.cwd, ".claude", "commands", "gh"), { recursive: true });
  await writeFile(
    join(setup.cwd, ".claude", "commands", "fix.md"),
    "---\ndescription: Fix a numbered issue\nargument-hint: <issue>\nallowed-tools: Bash(touch:*)\n---\nFix issue #$ARGUMENTS: first run touch fixing-$1.txt.\n",
  );
  await writeFile(join(setup.cwd, ".claude", "commands", "gh", "pr.md"), "Open a pull request.\n");
  return { ...setup, env: { ...setup.env, HOME: userHome } };
}

function bodies(server: Emulator): string[] {
  return server.requests
    .filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))
    .map((request) => JSON.stringify((request.body as { messages: unknown }).messages));
}

describe("memory files in the CLI", () => {
  it("sends the user's and the project's memory files in the first request", async () => {
    const { cwd, env, emulator } = await project({ scenario: ["Noted."] });
    const result = await runCli(["-p", "hello"], { cwd, env });
    expect(result.code).toBe(0);
    const first = bodies(emulator)[0]!;
    expect(first).toContain(ROOT_RULE);
    expect(first).toContain(USER_RULE);
  });

  it("--no-memory and THREADLINE_DISABLE_MEMORY=1 send none", async () => {
    // Mutation caught: the flag parsed but not passed to the engine (memoryFiles left on).
    const flagged = await project({ scenario: ["Noted."] });
    expect((await runCli(["-p", "hello", "--no-memory"], { cwd: flagged.cwd, env: flagged.env })).code).toBe(0);
    expect(bodies(flagged.emulator)[0]).not.toContain(ROOT_RULE);
    await flagged.emulator.close();
    const fromEnv = await project({ scenario: ["Noted."] });
    const env = { ...fromEnv.env, THREADLINE_DISABLE_MEMORY: "1" };
    expect((await runCli(["-p", "hello"], { cwd: fromEnv.cwd, env })).code).toBe(0);
    expect(bodies(fromEnv.emulator)[0]).not.toContain(USER_RULE);
  });
});

describe("custom commands", () => {
  it("-p /fix 123 sends the expanded prompt and allows the command's tools for its turn", async () => {
    const { cwd, env, emulator } = await project({
      scenario: [
        { content: [{ type: "tool_use", name: "Bash", input: { command: "touch fixing-123.txt" } }] },
        "Fixed.",
      ],
    });
    const result = await runCli(["-p", "/fix 123"], { cwd, env });
    expect(result.code).toBe(0);
    const [first, second] = bodies(emulator);
    expect(first).toContain("Fix issue #123: first run touch fixing-123.txt.");
    // Print mode's default policy denies a Bash command that writes; allowed-tools let this one through.
    // Mutation caught: allowedTools not passed to submitMessage (the result is a permission denial).
    expect(second).not.toContain("is_error");
    expect(existsSync(join(cwd, "fixing-123.txt"))).toBe(true);
  });

  it("/help lists custom commands with their namespace, /memory lists the loaded files", async () => {
    const { cwd, env } = await project({ scenario: ["Noted."] });
    const result = await runCli([], { cwd, env, input: "hello\n/help\n/memory\n/exit\n" });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\/fix <issue> +Fix a numbered issue \(project\)/);
    expect(result.stdout).toMatch(/\/gh:pr +Open a pull request\. \(project\)/);
    expect(result.stdout).toContain("Memory files loaded (2):");
    expect(result.stdout).toMatch(
      new RegExp(`${cwd.replaceAll("/", "\\/")}\\/CLAUDE\\.md \\(project\\) 46 chars, ~12 tokens`),
    );
  });
});
