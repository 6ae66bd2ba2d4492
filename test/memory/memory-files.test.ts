/**
 * Memory files on a real directory tree: which files are read at session start and in what order, nested
 * files on first touch, `@path` imports (depth, confinement, cycles), the size cap, and resume.
 */
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attachmentExtra, MEMORY_ATTACHMENT_TYPE, MemoryFiles } from "../../src/memory/index.js";
import { createAttachmentEntry } from "../../src/messages/index.js";
import { type MemoryTree, makeMemoryTree } from "./memory-tree.js";

function session(tree: MemoryTree, cwd = tree.repo): MemoryFiles {
  return new MemoryFiles({ cwd, userHome: tree.home, threadlineHome: tree.threadlineHome });
}

describe("memory files at session start", () => {
  it("reads the user's file, then the project's from the root down, imports after their file, local last", async () => {
    const tree = await makeMemoryTree();
    const found = await session(tree).start([]);
    expect(found.notices).toEqual([]);
    // Mutations caught: another order in sessionStartCandidates or projectCandidates, an import placed
    // before its importer, AGENTS.md or CLAUDE.local.md not read, a different header label.
    expect(found.attachment?.content).toBe(
      [
        "Instructions from the user's memory files (CLAUDE.md, AGENTS.md) follow. Follow them: they take precedence over your defaults, and a later file is more specific than an earlier one.",
        `Contents of ${tree.home}/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nUser rule U1: answer in British English.`,
        `Contents of ${tree.repo}/CLAUDE.md (project instructions, checked into the codebase):\n\nRoot rule R1: run npm test before committing.\n@docs/style.md`,
        `Contents of ${tree.repo}/docs/style.md (project instructions, checked into the codebase):\n\nStyle rule S1: two-space indentation.`,
        `Contents of ${tree.repo}/.claude/CLAUDE.md (project instructions, checked into the codebase):\n\nDot rule D1: never edit generated files.`,
        `Contents of ${tree.repo}/AGENTS.md (project instructions, checked into the codebase):\n\nAgents rule A1: keep functions under 40 lines.`,
        `Contents of ${tree.repo}/CLAUDE.local.md (user's private project instructions, not checked in):\n\nLocal rule L1: my sandbox is at http://localhost:9999.`,
      ].join("\n\n"),
    );
    // The nested file is not read at start (Mutation: reading the whole tree up front).
    expect(found.attachment?.content).not.toContain("N1");
  });

  it("from a subdirectory, reads every directory up to the repository root", async () => {
    const tree = await makeMemoryTree({ "CLAUDE.md": "Root rule R1.\n", "pkg/CLAUDE.md": "Package rule P1.\n" });
    const found = await session(tree, join(tree.repo, "pkg")).start([]);
    const content = found.attachment?.content ?? "";
    // Mutation caught: stopping at the working directory instead of the repository root.
    expect(content.indexOf("Root rule R1.")).toBeGreaterThan(0);
    expect(content.indexOf("Package rule P1.")).toBeGreaterThan(content.indexOf("Root rule R1."));
  });

  it("a resumed session that already holds the start set reads nothing again", async () => {
    const tree = await makeMemoryTree();
    const first = await session(tree).start([]);
    const recorded = createAttachmentEntry(
      { sessionId: "s", parentUuid: null },
      MEMORY_ATTACHMENT_TYPE,
      first.attachment!.content,
      attachmentExtra(first.attachment!),
    );
    await writeFile(join(tree.repo, "CLAUDE.md"), "Changed on disk since.\n");
    const resumed = session(tree);
    // Mutation caught: start() not checking the timeline (the changed file would be attached again).
    expect(await resumed.start([recorded])).toEqual({ notices: [] });
    // The files it carries count as read: touching the root does not attach them as nested ones.
    expect(await resumed.touched("Read", { file_path: "src/y/b.ts" }, [recorded])).toEqual({ notices: [] });
  });
});

describe("nested memory files", () => {
  it("are attached the first time a tool touches their subtree, and only then", async () => {
    const tree = await makeMemoryTree();
    const memory = session(tree);
    await memory.start([]);
    expect(await memory.touched("Read", { file_path: "src/y/b.ts" }, [])).toEqual({ notices: [] });
    const found = await memory.touched("Read", { file_path: join(tree.repo, "src/x/a.ts") }, []);
    expect(found.attachment?.content).toBe(
      `Contents of ${tree.repo}/src/x/CLAUDE.md (project instructions, checked into the codebase):\n\nNested rule N1: x/ code is pure, no I/O.`,
    );
    expect(found.attachment?.memoryOrigin).toBe("nested");
    // Mutation caught: forgetting what was loaded (the file attached on every touch).
    expect(await memory.touched("Edit", { file_path: "src/x/a.ts" }, [])).toEqual({ notices: [] });
  });

  it("Glob and Grep count through their path; Bash and other tools do not", async () => {
    const tree = await makeMemoryTree();
    const memory = session(tree);
    await memory.start([]);
    // Mutation caught: every tool counted (a Bash command naming the folder would attach it).
    expect(await memory.touched("Bash", { command: "ls src/x", file_path: "src/x/a.ts" }, [])).toEqual({ notices: [] });
    const found = await memory.touched("Glob", { pattern: "*.ts", path: "src/x" }, []);
    expect(found.attachment?.content).toContain("Nested rule N1");
  });

  it("a path outside the workspace brings nothing in", async () => {
    const tree = await makeMemoryTree();
    const memory = session(tree, join(tree.repo, "src", "y"));
    await memory.start([]);
    // src/x is outside the workspace src/y: its CLAUDE.md is not the workspace's.
    expect(await memory.touched("Read", { file_path: "../x/a.ts" }, [])).toEqual({ notices: [] });
  });
});

describe("@path imports", () => {
  it("refuses a path outside the workspace with one line naming it, and keeps the importing file", async () => {
    const tree = await makeMemoryTree({ "CLAUDE.md": "Rule R1.\n@../outside.md\n" });
    await writeFile(join(tree.repo, "..", "outside.md"), "Secret outside.\n");
    const found = await session(tree).start([]);
    // Mutation caught: imports not confined (the outside file's text would be sent).
    expect(found.attachment?.content).not.toContain("Secret outside.");
    expect(found.attachment?.content).toContain("Rule R1.");
    expect(found.notices).toEqual([
      `memory: @../outside.md in ${tree.repo}/CLAUDE.md refused: ${join(tree.repo, "..", "outside.md")} is outside the workspace; kept ${tree.repo}/CLAUDE.md without it`,
    ]);
  });

  it("refuses a symlink that leads outside the workspace", async () => {
    const tree = await makeMemoryTree({ "CLAUDE.md": "Rule R1.\n@link.md\n" });
    await writeFile(join(tree.repo, "..", "target.md"), "Linked outside.\n");
    await symlink(join(tree.repo, "..", "target.md"), join(tree.repo, "link.md"));
    const found = await session(tree).start([]);
    // Mutation caught: confinement checked on the written path instead of the real one.
    expect(found.attachment?.content).not.toContain("Linked outside.");
    expect(found.notices).toHaveLength(1);
  });

  it("lets the user's own file import from ~/.claude, and refuses the rest of the home", async () => {
    const tree = await makeMemoryTree({ "~/.claude/CLAUDE.md": "User U1.\n@~/.claude/extra.md\n@~/private.md\n" });
    await writeFile(join(tree.home, ".claude", "extra.md"), "User extra U2.\n");
    await writeFile(join(tree.home, "private.md"), "Private P9.\n");
    const found = await session(tree).start([]);
    expect(found.attachment?.content).toContain("User extra U2.");
    expect(found.attachment?.content).not.toContain("Private P9.");
    expect(found.notices).toHaveLength(1);
  });

  it("refuses a cycle with one line and loads each file once", async () => {
    const tree = await makeMemoryTree({
      "CLAUDE.md": "Rule R1.\n@a.md\n",
      "a.md": "A.\n@b.md\n",
      "b.md": "B.\n@a.md\n",
    });
    const found = await session(tree).start([]);
    const content = found.attachment?.content ?? "";
    expect(content.match(/Contents of /g)).toHaveLength(3);
    // Mutation caught: the cycle skipped silently.
    expect(found.notices).toEqual([
      `memory: @a.md in ${tree.repo}/b.md refused: it imports a file already being read (a cycle); kept ${tree.repo}/b.md without it`,
    ]);
  });

  it("follows imports five deep, not six", async () => {
    const files: Record<string, string> = { "CLAUDE.md": "Top.\n@d1.md\n" };
    for (let depth = 1; depth <= 6; depth++) files[`d${depth}.md`] = `Depth ${depth}.\n@d${depth + 1}.md\n`;
    files["d7.md"] = "Depth 7.\n";
    const tree = await makeMemoryTree(files);
    const found = await session(tree).start([]);
    const content = found.attachment?.content ?? "";
    // Mutation caught: another depth limit (4 drops "Depth 5.", 6 keeps "Depth 6.").
    expect(content).toContain("Depth 5.");
    expect(content).not.toContain("Depth 6.");
    expect(found.notices).toEqual([
      `memory: @d6.md in ${tree.repo}/d5.md not followed: imports nest deeper than 5; kept ${tree.repo}/d5.md without it`,
    ]);
  });

  it("ignores @names in code and plain mentions that are no file", async () => {
    const tree = await makeMemoryTree({
      "CLAUDE.md": "Ask @alice.\nUse `@inline.md` here.\n```\n@fenced.md\n```\n",
      "inline.md": "INLINE\n",
      "fenced.md": "FENCED\n",
    });
    const found = await session(tree).start([]);
    expect(found.attachment?.content).not.toContain("INLINE");
    expect(found.attachment?.content).not.toContain("FENCED");
    expect(found.notices).toEqual([]);
  });
});

describe("caps", () => {
  it("cuts a file over 40,000 characters with one line saying what was kept", async () => {
    const tree = await makeMemoryTree({ "CLAUDE.md": `${"x".repeat(50_000)}` });
    const found = await session(tree).start([]);
    expect(found.attachment?.memoryFiles[0]?.chars).toBe(40_000);
    expect(found.notices).toEqual([`memory: ${tree.repo}/CLAUDE.md has 50,000 characters; kept the first 40,000`]);
  });

  it("stops loading once the session's memory would pass 120,000 characters", async () => {
    const files: Record<string, string> = {};
    for (const name of ["CLAUDE.md", ".claude/CLAUDE.md", "AGENTS.md", "CLAUDE.local.md"])
      files[name] = "y".repeat(39_000);
    const tree = await makeMemoryTree(files);
    const found = await session(tree).start([]);
    expect(found.attachment?.memoryFiles.map((file) => file.chars)).toEqual([39_000, 39_000, 39_000]);
    expect(found.notices).toEqual([
      `memory: ${tree.repo}/CLAUDE.local.md not loaded: memory files would pass 120,000 characters; kept the 3 loaded before it`,
    ]);
  });
});
