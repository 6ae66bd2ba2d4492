import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../src/tools/files/read-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import { resolveWorkspacePath } from "../../src/tools/permissions/workspace-paths.js";
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
