/**
 * Read-only git commands run none of the repository's programs (issue 53 item 3). A real repository whose
 * `.git/config` names a marker-writing program for core.fsmonitor, diff.external, a textconv and a diff driver's
 * command, core.pager, core.sshCommand and a hooks folder (post-index-change). Oracles: the marker files on disk
 * and literal lines of git's output. The control runs the same commands as a plain shell would and finds the
 * markers, so the oracle can see a program run.
 *
 * Mutations it catches (scripts/mutation-check.mjs): git-read-only-env-dropped, git-fsmonitor-not-off,
 * git-textconv-flags-dropped, git-config-scan-ignored.
 */
import { execFileSync } from "node:child_process";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool } from "../../src/tools/run-tool.js";
import { isReadOnlyCommand } from "../../src/tools/shell/bash-read-only.js";
import { bashTool } from "../../src/tools/shell/bash-tool.js";
import { readOnlyGitEnv } from "../../src/tools/shell/git-read-only.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "../tools/tool-test-context.js";
import { type HostileRepo, makeHostileRepo } from "./hostile-git-repo.js";

let base: string;
beforeEach(async () => {
  base = await makeTempDirectory("git-read-only");
});
afterEach(() => removeDirectory(base));

/** Each command with a line of its output that only git's own diff machinery prints. */
const COMMANDS: readonly (readonly [string, string])[] = [
  ["git status", "modified:   a.txt"],
  ["git diff", "+changed line"],
  ["git log -p", "+hello"],
  ["git show", "first commit"],
  ["git blame a.txt", "changed line"],
];

/** Makes the index's stat data stale, so status has to look at the file again (fsmonitor, hooks, filters). */
function stale(repo: HostileRepo): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(repo.root, "a.txt"), past, past);
}

describe("read-only git commands in a repository whose config names programs", () => {
  it("control: run as a plain shell would, git starts the repository's programs", () => {
    const repo = makeHostileRepo(base);
    for (const [command] of COMMANDS) {
      stale(repo);
      execFileSync("bash", ["-c", `${command} > /dev/null 2>&1; true`], { cwd: repo.root });
    }
    expect(repo.ran()).toEqual(expect.arrayContaining(["core.fsmonitor", "diff.evil.textconv", "diff.evil.command"]));
  });

  it("each counts as read-only, runs none of them, and its output comes back", async () => {
    const repo = makeHostileRepo(base);
    for (const [command, line] of COMMANDS) {
      expect(isReadOnlyCommand(command, { cwd: repo.root, additionalDirectories: [] })).toBe(true);
      stale(repo);
      const result = await runTool(bashTool, { command }, makeContext(repo.root), BYPASS);
      expect({ command, ran: repo.ran() }).toEqual({ command, ran: [] });
      expect(result.isError ?? false).toBe(false);
      expect(outputText(result.content)).toContain(line);
    }
  });

  it.each([
    ["a clean filter", { "filter.evf.clean": "MARK filter.evf.clean" }],
    ["a smudge filter's process", { "filter.evf.process": "MARK filter.evf.process" }],
    ["a work tree elsewhere", { "core.worktree": "/" }],
    ["a signature program", { "gpg.program": "MARK gpg.program" }],
  ])("%s keeps `git status` from counting as read-only", (_label, extra) => {
    const repo = makeHostileRepo(base, extra);
    expect(isReadOnlyCommand("git status", { cwd: repo.root, additionalDirectories: [] })).toBe(false);
    expect(isReadOnlyCommand("git log -p | head -n 5", { cwd: repo.root, additionalDirectories: [] })).toBe(false);
    // Commands without git are not held back by the repository's config.
    expect(isReadOnlyCommand("cat a.txt", { cwd: repo.root, additionalDirectories: [] })).toBe(true);
    expect(repo.ran()).toEqual([]);
  });

  it("the user's own command-line config is kept ahead of the read-only switches", () => {
    const env = readOnlyGitEnv({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "me" });
    expect(env.GIT_CONFIG_KEY_0).toBe("user.name");
    expect(env.GIT_CONFIG_VALUE_0).toBe("me");
    expect(env.GIT_CONFIG_KEY_1).toBe("core.fsmonitor");
    expect(env.GIT_CONFIG_COUNT).toBe("7");
  });
});
