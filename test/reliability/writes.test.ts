/**
 * Writes keep what was there (DESIGN.md invariant 15, issue 53 item 4). Oracles: the bytes and mode bits on a
 * real disk (a 64 KiB tmpfs for the full-disk cases), the directory listing (no temporary file left), and the
 * file outside the workspace behind a hard link.
 */
import { chmod, link, lstat, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/files/edit-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { mountSmallDisk, type SmallDisk } from "../../support/reliability/small-disk.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "../tools/tool-test-context.js";

const disk: SmallDisk | string = await mountSmallDisk(64);
afterAll(async () => {
  if (typeof disk !== "string") await disk.unmount();
});
if (typeof disk === "string") console.warn(`writes.test.ts: full-disk cases skip: ${disk}`);

const KIB = 1024;
const ORIGINAL = Buffer.from(`${"original line\n".repeat(731)}`); // 10,234 bytes

describe.skipIf(typeof disk === "string")("a full disk leaves the original intact", () => {
  const root = typeof disk === "string" ? "" : disk.path;
  const target = path.join(root, "kept.txt");
  beforeEach(async () => {
    for (const name of await readdir(root)) await rm(path.join(root, name), { recursive: true, force: true });
    await writeFile(target, ORIGINAL);
  });

  it("Write of 160 KiB over a 10 KB file: one line, the old bytes, no temporary file", async () => {
    const output = await runTool(
      writeTool,
      { file_path: target, content: "x".repeat(160 * KIB) },
      makeContext(root),
      BYPASS,
    );
    expect(output.isError).toBe(true);
    expect(outputText(output.content)).toBe(
      `Error: Could not write ${target}: no space left on the device (ENOSPC); the original file is unchanged.`,
    );
    expect((await readFile(target)).equals(ORIGINAL)).toBe(true);
    expect(await readdir(root)).toEqual(["kept.txt"]);
  });

  it("Edit that needs a second copy on a nearly full disk: the original, not a truncated file", async () => {
    // 44 KiB of filler leaves less room than one more copy of the 10 KB file.
    await writeFile(path.join(root, "filler"), Buffer.alloc(44 * KIB, 1));
    const output = await runTool(
      editTool,
      { file_path: target, old_string: "original line\n", new_string: "changed line!\n", replace_all: true },
      makeContext(root),
      BYPASS,
    );
    expect(output.isError).toBe(true);
    expect(outputText(output.content)).toMatch(
      /^Error: Could not write .*kept\.txt: .*\(ENOSPC\); the original file is unchanged\.$/,
    );
    expect((await readFile(target)).equals(ORIGINAL)).toBe(true);
    expect((await readdir(root)).sort()).toEqual(["filler", "kept.txt"]);
  });

  it("a new file that does not fit is not created", async () => {
    const fresh = path.join(root, "new.txt");
    const output = await runTool(
      writeTool,
      { file_path: fresh, content: "y".repeat(100 * KIB) },
      makeContext(root),
      BYPASS,
    );
    expect(outputText(output.content)).toBe(
      `Error: Could not write ${fresh}: no space left on the device (ENOSPC); nothing was written.`,
    );
    expect(await readdir(root)).toEqual(["kept.txt"]);
  });
});

describe("writes keep the file's identity and refuse what they cannot keep", () => {
  let workspace: string;
  let outside: string;
  let root: string;
  beforeEach(async () => {
    root = await makeTempDirectory("writes");
    workspace = path.join(root, "workspace");
    outside = path.join(root, "outside");
    await mkdir(workspace);
    await mkdir(outside);
  });
  afterEach(() => removeDirectory(root));

  it("Write and Edit keep the mode bits (0775, 0600), not the umask's", async () => {
    const script = path.join(workspace, "run.sh");
    await writeFile(script, "#!/bin/sh\necho one\n");
    await chmod(script, 0o775);
    await runTool(
      editTool,
      { file_path: script, old_string: "one", new_string: "two" },
      makeContext(workspace),
      BYPASS,
    );
    expect((await stat(script)).mode & 0o7777).toBe(0o775);
    expect(await readFile(script, "utf8")).toBe("#!/bin/sh\necho two\n");
    const secret = path.join(workspace, "private.txt");
    await writeFile(secret, "a");
    await chmod(secret, 0o600);
    await runTool(writeTool, { file_path: secret, content: "b" }, makeContext(workspace), BYPASS);
    expect((await stat(secret)).mode & 0o7777).toBe(0o600);
    expect(await readdir(workspace)).toEqual(["private.txt", "run.sh"]);
  });

  it("a write through a symlink inside the workspace changes its target and keeps the link", async () => {
    await writeFile(path.join(workspace, "real.txt"), "old\n");
    await symlink("real.txt", path.join(workspace, "alias.txt"));
    await runTool(writeTool, { file_path: "alias.txt", content: "new\n" }, makeContext(workspace), BYPASS);
    expect(await readFile(path.join(workspace, "real.txt"), "utf8")).toBe("new\n");
    expect((await lstat(path.join(workspace, "alias.txt"))).isSymbolicLink()).toBe(true);
  });

  it("Edit refuses a Latin-1 file in one line and leaves every byte", async () => {
    const file = path.join(workspace, "latin1.txt");
    const bytes = Buffer.from("caf\xe9 au lait\nna\xefve\nline three\n", "latin1");
    await writeFile(file, bytes);
    const output = await runTool(
      editTool,
      { file_path: file, old_string: "line three", new_string: "line 3" },
      makeContext(workspace),
      BYPASS,
    );
    expect(output.isError).toBe(true);
    const text = outputText(output.content);
    expect(text.split("\n")).toHaveLength(1);
    expect(text).toContain("is not valid UTF-8 (byte 0xe9 at offset 3;");
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it("Edit of a UTF-8 file keeps é, ï and a byte-order mark on the lines it did not touch", async () => {
    const file = path.join(workspace, "utf8.txt");
    await writeFile(file, Buffer.from("\ufeffcafé\nnaïve\nline three\n", "utf8"));
    const output = await runTool(
      editTool,
      { file_path: file, old_string: "line three", new_string: "line 3" },
      makeContext(workspace),
      BYPASS,
    );
    expect(output.isError).toBeUndefined();
    expect((await readFile(file)).equals(Buffer.from("\ufeffcafé\nnaïve\nline 3\n", "utf8"))).toBe(true);
  });

  it("a hard link to a file outside is treated as outside by Edit and Write", async () => {
    const secret = path.join(outside, "config");
    await writeFile(secret, "token=abc\n");
    await link(secret, path.join(workspace, "linked"));
    for (const [tool, input] of [
      [editTool, { file_path: "linked", old_string: "abc", new_string: "xyz" }],
      [writeTool, { file_path: "linked", content: "replaced\n" }],
    ] as const) {
      const output = await runTool(tool as typeof editTool, input as never, makeContext(workspace), BYPASS);
      expect(output.isError).toBe(true);
      expect(outputText(output.content)).toContain(`${path.join(workspace, "linked")} has 2 hard links`);
    }
    expect(await readFile(secret, "utf8")).toBe("token=abc\n");
    expect(await readFile(path.join(workspace, "linked"), "utf8")).toBe("token=abc\n");
  });
});
