/**
 * A project's memory file may import only from the project (docs/MEMORY.md "Imports": "a project file may
 * import from the workspace, the additional directories and the repository root; the user's files also from
 * `~/.claude` and threadline's home"). A checked-in CLAUDE.md that could pull `~/.claude/…` into the request
 * would let any repository read a person's private notes. Oracle: the literal texts written to disk.
 *
 * Mutation caught (scripts/mutation-check.mjs `memory-project-imports-user-folders`): project imports
 * allowed the user's roots too.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryFiles } from "../../src/memory/index.js";
import { makeMemoryTree } from "./memory-tree.js";

describe("project memory imports stay in the project", () => {
  it("a project CLAUDE.md importing ~/.claude/notes.md gets one refusal line; the user's own file may import it", async () => {
    const tree = await makeMemoryTree({
      "CLAUDE.md": "Project rule P1.\n@~/.claude/notes.md\n",
      "~/.claude/CLAUDE.md": "User rule U1.\n",
    });
    await writeFile(join(tree.home, ".claude", "notes.md"), "Private note PN-2718.\n");
    const found = await new MemoryFiles({
      cwd: tree.repo,
      userHome: tree.home,
      threadlineHome: tree.threadlineHome,
    }).start([]);
    const content = found.attachment?.content ?? "";
    expect(content).toContain("Project rule P1.");
    expect(content).not.toContain("PN-2718");
    expect(found.notices).toEqual([
      `memory: @~/.claude/notes.md in ${tree.repo}/CLAUDE.md refused: ${tree.home}/.claude/notes.md is outside the workspace; kept ${tree.repo}/CLAUDE.md without it`,
    ]);

    // The same import from the user's own file is allowed (the refusal is about who imports, not the file).
    await writeFile(join(tree.home, ".claude", "CLAUDE.md"), "User rule U1.\n@~/.claude/notes.md\n");
    const user = await new MemoryFiles({
      cwd: tree.repo,
      userHome: tree.home,
      threadlineHome: tree.threadlineHome,
    }).start([]);
    expect(user.attachment?.content).toContain("Private note PN-2718.");
  });

  it("a project CLAUDE.md importing a file in threadline's home is refused too", async () => {
    const tree = await makeMemoryTree({ "CLAUDE.md": "Project rule P1.\n@~/.threadline/skills-notes.md\n" });
    await writeFile(join(tree.threadlineHome, "skills-notes.md"), "Home note HN-1618.\n");
    const found = await new MemoryFiles({
      cwd: tree.repo,
      userHome: tree.home,
      threadlineHome: tree.threadlineHome,
    }).start([]);
    expect(found.attachment?.content).not.toContain("HN-1618");
    expect(found.notices).toHaveLength(1);
  });
});
