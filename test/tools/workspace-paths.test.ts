import { link, mkdir, readFile, realpath, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../src/tools/files/read-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import { resolveWorkspacePath, resolveWorkspaceWritePath } from "../../src/tools/permissions/workspace-paths.js";
import { runTool } from "../../src/tools/run-tool.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

let root: string;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await makeTempDirectory();
  workspace = path.join(root, "workspace");
  outside = path.join(root, "outside");
  await mkdir(workspace);
  await mkdir(outside);
  await writeFile(path.join(outside, "secret.txt"), "top secret\n");
  await writeFile(path.join(workspace, "inside.txt"), "hello\n");
});
afterEach(() => removeDirectory(root));

describe("path confinement", () => {
  it("resolves relative paths against the workspace", async () => {
    const resolved = await resolveWorkspacePath(makeContext(workspace), "inside.txt");
    expect(resolved).toBe(path.join(workspace, "inside.txt"));
    const output = await runTool(readTool, { file_path: "inside.txt" }, makeContext(workspace), BYPASS);
    expect(outputText(output.content)).toContain("hello");
  });

  it("refuses ../ escapes with a message naming the workspace", async () => {
    const output = await runTool(readTool, { file_path: "../outside/secret.txt" }, makeContext(workspace), BYPASS);
    expect(output.isError).toBe(true);
    expect(outputText(output.content)).toContain(`${path.join(outside, "secret.txt")} is outside the workspace`);
    expect(outputText(output.content)).toContain(workspace);
    expect(outputText(output.content)).not.toContain("top secret");
  });

  it("refuses absolute paths outside the workspace, for writes too", async () => {
    const target = path.join(outside, "new.txt");
    const output = await runTool(writeTool, { file_path: target, content: "x" }, makeContext(workspace), BYPASS);
    expect(output.isError).toBe(true);
    expect(outputText(output.content)).toMatch(/Access denied: .* is outside the workspace/);
    await expect(readFile(target)).rejects.toThrow();
  });

  it("refuses a symlinked file that points outside", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
    const output = await runTool(readTool, { file_path: "link.txt" }, makeContext(workspace), BYPASS);
    expect(output.isError).toBe(true);
    expect(outputText(output.content)).toContain("symlink that resolves to");
    expect(outputText(output.content)).not.toContain("top secret");
  });

  it("refuses a new file under a symlinked directory that points outside", async () => {
    await symlink(outside, path.join(workspace, "escape"), "dir");
    const output = await runTool(
      writeTool,
      { file_path: "escape/sub/created.txt", content: "x" },
      makeContext(workspace),
      BYPASS,
    );
    expect(output.isError).toBe(true);
    expect(outputText(output.content)).toContain("outside the workspace");
    await expect(readFile(path.join(outside, "sub", "created.txt"))).rejects.toThrow();
  });

  it("refuses writing through a dangling symlink whose target is outside", async () => {
    const target = path.join(outside, "planted.txt");
    await symlink(target, path.join(workspace, "dangling.txt"));
    const output = await runTool(
      writeTool,
      { file_path: "dangling.txt", content: "x" },
      makeContext(workspace),
      BYPASS,
    );
    expect(output.isError).toBe(true);
    expect(outputText(output.content)).toContain(`symlink that resolves to ${target}`);
    await expect(readFile(target)).rejects.toThrow();
  });

  it("allows symlinks that stay inside the workspace", async () => {
    await symlink(path.join(workspace, "inside.txt"), path.join(workspace, "alias.txt"));
    const output = await runTool(readTool, { file_path: "alias.txt" }, makeContext(workspace), BYPASS);
    expect(output.isError).toBeUndefined();
    expect(outputText(output.content)).toContain("hello");
  });

  it("allows an additional directory", async () => {
    const context = makeContext(workspace, { additionalDirectories: [outside] });
    const output = await runTool(readTool, { file_path: path.join(outside, "secret.txt") }, context, BYPASS);
    expect(output.isError).toBeUndefined();
    expect(outputText(output.content)).toContain("top secret");
  });
});

/** Edges of the same guard, unit by unit, as Stryker mutates it (docs/MUTATION-TESTING.md): real files and links. */
describe("path confinement at its edges", () => {
  it("the refusal names the path and every root, and says nothing of a symlink when the path is plainly outside", async () => {
    const context = makeContext(workspace, { additionalDirectories: [path.join(root, "extra")] });
    await expect(resolveWorkspacePath(context, path.join(outside, "secret.txt"))).rejects.toThrow(
      `Access denied: ${path.join(outside, "secret.txt")} is outside the workspace. Tools may only access files under ${workspace}, ${path.join(root, "extra")}. Use a path inside the workspace.`,
    );
  });

  it("a path outside the workspace that is a symlink into it is still outside (the path given is what is judged)", async () => {
    await symlink(workspace, path.join(outside, "into-workspace"), "dir");
    await expect(
      resolveWorkspacePath(makeContext(workspace), path.join(outside, "into-workspace", "inside.txt")),
    ).rejects.toThrow(`${path.join(outside, "into-workspace", "inside.txt")} is outside the workspace. Tools`);
  });

  it("a workspace reached through a symlink accepts its files by either spelling, and returns the spelling given", async () => {
    const linked = path.join(root, "linked-workspace");
    await symlink(workspace, linked, "dir");
    const real = await realpath(workspace);
    const context = makeContext(linked);
    expect(await resolveWorkspacePath(context, "inside.txt")).toBe(path.join(linked, "inside.txt"));
    expect(await resolveWorkspacePath(context, path.join(real, "inside.txt"))).toBe(path.join(real, "inside.txt"));
    expect(await resolveWorkspacePath(context, path.join(linked, "new", "file.txt"))).toBe(
      path.join(linked, "new", "file.txt"),
    );
  });

  it("the workspace itself, a file whose name starts with two dots, and a path through a file are inside", async () => {
    await writeFile(path.join(workspace, "..notes"), "dots\n");
    const context = makeContext(workspace);
    expect(await resolveWorkspacePath(context, ".")).toBe(workspace);
    expect(await resolveWorkspacePath(context, "..notes")).toBe(path.join(workspace, "..notes"));
    expect(await resolveWorkspacePath(context, "inside.txt/below")).toBe(path.join(workspace, "inside.txt", "below"));
    await expect(resolveWorkspacePath(context, "..")).rejects.toThrow(`Access denied: ${root} is outside`);
  });

  it("a refusal is a PathOutsideWorkspaceError; an existing link out, or a new file two folders under one, names where it leads", async () => {
    await symlink(path.join(outside, "secret.txt"), path.join(workspace, "link.txt"));
    await symlink(outside, path.join(workspace, "escape"), "dir");
    const context = makeContext(workspace);
    await expect(resolveWorkspacePath(context, "link.txt")).rejects.toMatchObject({
      name: "PathOutsideWorkspaceError",
      message: `Access denied: ${path.join(workspace, "link.txt")} is outside the workspace (it is a symlink that resolves to ${path.join(outside, "secret.txt")}). Tools may only access files under ${workspace}. Use a path inside the workspace.`,
    });
    await expect(resolveWorkspacePath(context, "escape/sub/created.txt")).rejects.toThrow(
      `(it is a symlink that resolves to ${path.join(outside, "sub", "created.txt")})`,
    );
  });

  it("a workspace that does not exist yet still confines by its own path", async () => {
    const context = makeContext(path.join(root, "not-yet"));
    expect(await resolveWorkspacePath(context, "a.txt")).toBe(path.join(root, "not-yet", "a.txt"));
    await expect(resolveWorkspacePath(context, "../outside/secret.txt")).rejects.toThrow("is outside the workspace");
  });

  it("a dangling symlink that leads back to itself stops after 40 hops; a chain of exactly 40 is followed", async () => {
    await symlink("no-such-folder/../self", path.join(workspace, "self"));
    await expect(resolveWorkspacePath(makeContext(workspace), "self")).rejects.toThrow(
      `Too many levels of symbolic links: ${path.join(workspace, "self")}`,
    );
    for (let hop = 1; hop <= 40; hop++)
      await symlink(hop === 40 ? "landing.txt" : `chain${hop + 1}`, path.join(workspace, `chain${hop}`));
    expect(await resolveWorkspacePath(makeContext(workspace), "chain1")).toBe(path.join(workspace, "chain1"));
  });

  it("a symlink loop is the system's error (ELOOP), not a refusal and not a hang", async () => {
    await symlink(path.join(workspace, "b"), path.join(workspace, "a"));
    await symlink(path.join(workspace, "a"), path.join(workspace, "b"));
    await expect(resolveWorkspacePath(makeContext(workspace), "a")).rejects.toMatchObject({ code: "ELOOP" });
  });

  it("a chain of dangling symlinks is followed to where the write would land", async () => {
    await symlink(path.join(workspace, "hop2"), path.join(workspace, "hop1"));
    await symlink(path.join(outside, "landing.txt"), path.join(workspace, "hop2"));
    await expect(resolveWorkspacePath(makeContext(workspace), "hop1")).rejects.toThrow(
      `(it is a symlink that resolves to ${path.join(outside, "landing.txt")})`,
    );
    await symlink(path.join(workspace, "landing.txt"), path.join(workspace, "hop3"));
    expect(await resolveWorkspacePath(makeContext(workspace), "hop3")).toBe(path.join(workspace, "hop3"));
  });

  it("a file with a second hard link is refused for writing (naming the count); one link, a folder or a new file is not", async () => {
    await link(path.join(workspace, "inside.txt"), path.join(workspace, "second-name.txt"));
    await writeFile(path.join(workspace, "single.txt"), "one\n");
    const context = makeContext(workspace);
    await expect(resolveWorkspaceWritePath(context, "inside.txt")).rejects.toThrow(
      `Access denied: ${path.join(workspace, "inside.txt")} has 2 hard links, and another name of the same file may be outside the workspace, so it is treated as outside. Copy it to a new file first if it should be changed here.`,
    );
    expect(await resolveWorkspacePath(context, "inside.txt")).toBe(path.join(workspace, "inside.txt"));
    expect(await resolveWorkspaceWritePath(context, "single.txt")).toBe(path.join(workspace, "single.txt"));
    await mkdir(path.join(workspace, "folder", "sub"), { recursive: true });
    expect(await resolveWorkspaceWritePath(context, "folder")).toBe(path.join(workspace, "folder"));
    expect(await resolveWorkspaceWritePath(context, "fresh.txt")).toBe(path.join(workspace, "fresh.txt"));
    await expect(resolveWorkspaceWritePath(context, "../outside/secret.txt")).rejects.toThrow(
      "is outside the workspace",
    );
  });
});
