/**
 * File checkpoints unit by unit (src/checkpoints/checkpoints.ts, docs/REWIND.md), as Stryker mutates them
 * (docs/MUTATION-TESTING.md). Real files, real shell commands run inside `aroundCommand` the way Bash runs
 * them, and oracles of their own: file contents read back from disk, sha256 taken here with node:crypto, the
 * manifest's lines parsed as JSON, reasons written out in full.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Checkpoints } from "../../src/checkpoints/checkpoints.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("checkpoints");

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

async function workspace(files: Record<string, string>, limits: { maxFileBytes?: number } = {}) {
  const root = await tempDir();
  const cwd = join(root, "work");
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(cwd, name, ".."), { recursive: true });
    writeFileSync(join(cwd, name), content);
  }
  mkdirSync(cwd, { recursive: true });
  const checkpoints = new Checkpoints({ dir: join(root, "checkpoints"), cwd, ...limits });
  const sh = (command: string) => checkpoints.aroundCommand(async () => execFileSync("sh", ["-c", command], { cwd }));
  const read = (name: string) => (existsSync(join(cwd, name)) ? readFileSync(join(cwd, name), "utf8") : null);
  const manifest = () =>
    existsSync(join(root, "checkpoints", "manifest.jsonl"))
      ? readFileSync(join(root, "checkpoints", "manifest.jsonl"), "utf8")
          .trimEnd()
          .split("\n")
          .map((line) => JSON.parse(line))
      : [];
  const rewind = async (...prompts: string[]) => checkpoints.restore(await checkpoints.plan(prompts));
  return { root, cwd, checkpoints, sh, read, manifest, rewind };
}

describe("checkpoints of a prompt's turn", () => {
  it("a file Bash deleted is put back by a rewind, with the content it had when the prompt arrived", async () => {
    const w = await workspace({ "a.txt": "A at prompt\n", "keep.txt": "untouched\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("rm a.txt");
    expect(w.read("a.txt")).toBe(null);
    expect(w.manifest()).toEqual([{ promptUuid: "p1", path: "a.txt", hash: sha("A at prompt\n"), by: "Bash" }]);
    expect(await w.rewind("p1")).toEqual({ restored: ["a.txt"], notRestorable: [] });
    expect(w.read("a.txt")).toBe("A at prompt\n");
    expect(w.read("keep.txt")).toBe("untouched\n");
  });

  it("a file Bash deleted with its folder comes back with the folder", async () => {
    const w = await workspace({ "deep/er/b.txt": "B\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("rm -r deep");
    await w.rewind("p1");
    expect(w.read("deep/er/b.txt")).toBe("B\n");
  });

  it("a file Bash created is removed by a rewind; one Bash edited gets its content back", async () => {
    const w = await workspace({ "a.txt": "A\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("printf new > made.txt && printf changed > a.txt");
    // One command's changes are written in the order their stat calls finish (no order is promised): by path.
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(w.manifest().sort(byPath)).toEqual([
      { promptUuid: "p1", path: "a.txt", hash: sha("A\n"), by: "Bash" },
      { promptUuid: "p1", path: "made.txt", hash: null, by: "Bash" },
    ]);
    const result = await w.rewind("p1");
    expect(result.restored.sort()).toEqual(["a.txt", "made.txt"]);
    expect(w.read("made.txt")).toBe(null);
    expect(w.read("a.txt")).toBe("A\n");
  });

  it("only the first change of a file in a turn is kept: a later command or tool does not overwrite it", async () => {
    const w = await workspace({ "a.txt": "A\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("printf one > a.txt");
    await w.sh("printf two > a.txt");
    await w.checkpoints.beforeFileChange(join(w.cwd, "a.txt"), "Write");
    expect(w.manifest()).toHaveLength(1);
    await w.rewind("p1");
    expect(w.read("a.txt")).toBe("A\n");
  });

  it("a command that changes nothing records nothing, and no prompt begun records nothing at all", async () => {
    const w = await workspace({ "a.txt": "A\n" });
    expect(await w.sh("printf x > a.txt; printf y")).toEqual(Buffer.from("y"));
    await w.checkpoints.beforeFileChange(join(w.cwd, "a.txt"), "Write");
    expect(w.manifest()).toEqual([]);
    await w.checkpoints.beginPrompt("p1");
    await w.sh("cat a.txt > /dev/null");
    expect(w.manifest()).toEqual([]);
  });

  it("a file changed by a command that then fails is still recorded", async () => {
    const w = await workspace({ "a.txt": "A\n" });
    await w.checkpoints.beginPrompt("p1");
    await expect(w.sh("rm a.txt; exit 3")).rejects.toThrow();
    await w.rewind("p1");
    expect(w.read("a.txt")).toBe("A\n");
  });

  it("a new prompt starts a new turn: its first change is kept again, from the state at that prompt", async () => {
    const w = await workspace({ "a.txt": "A1\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("printf 'A2\\n' > a.txt");
    await w.checkpoints.beginPrompt("p2");
    await w.sh("printf 'A3\\n' > a.txt");
    expect(w.manifest().map((line) => [line.promptUuid, line.hash])).toEqual([
      ["p1", sha("A1\n")],
      ["p2", sha("A2\n")],
    ]);
    // Undoing p2 only goes back to p2's start; undoing both to p1's, in whichever order the lines were given.
    expect(await w.checkpoints.plan(["p2"])).toEqual([{ path: "a.txt", hash: sha("A2\n") }]);
    expect(await w.checkpoints.plan(["p1", "p2"])).toEqual([{ path: "a.txt", hash: sha("A1\n") }]);
    expect(await w.checkpoints.plan(["p3"])).toEqual([]);
    await w.rewind("p1", "p2");
    expect(w.read("a.txt")).toBe("A1\n");
  });

  it("a file tool's before-state: the old content, or none for a new file (a rewind then removes it)", async () => {
    const w = await workspace({ "a.txt": "A\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.checkpoints.beforeFileChange(join(w.cwd, "a.txt"), "Edit");
    await w.checkpoints.beforeFileChange(join(w.cwd, "sub", "new.txt"), "Write");
    writeFileSync(join(w.cwd, "a.txt"), "edited\n");
    mkdirSync(join(w.cwd, "sub"));
    writeFileSync(join(w.cwd, "sub", "new.txt"), "new\n");
    expect(w.manifest()).toEqual([
      { promptUuid: "p1", path: "a.txt", hash: sha("A\n"), by: "Edit" },
      { promptUuid: "p1", path: "sub/new.txt", hash: null, by: "Write" },
    ]);
    await w.rewind("p1");
    expect(w.read("a.txt")).toBe("A\n");
    expect(w.read("sub/new.txt")).toBe(null);
  });

  it("a file of exactly the byte limit is kept; one byte more is named as not restorable, and left as it is", async () => {
    const w = await workspace({ "ten.txt": "0123456789", "eleven.txt": "0123456789X" }, { maxFileBytes: 10 });
    await w.checkpoints.beginPrompt("p1");
    await w.checkpoints.beforeFileChange(join(w.cwd, "ten.txt"), "Write");
    await w.checkpoints.beforeFileChange(join(w.cwd, "eleven.txt"), "Write");
    writeFileSync(join(w.cwd, "ten.txt"), "changed");
    writeFileSync(join(w.cwd, "eleven.txt"), "changed");
    expect(await w.rewind("p1")).toEqual({
      restored: ["ten.txt"],
      notRestorable: [{ path: "eleven.txt", reason: "11 bytes, over the 10-byte checkpoint limit" }],
    });
    expect(w.read("ten.txt")).toBe("0123456789");
    expect(w.read("eleven.txt")).toBe("changed");
  });

  it("Bash on a file over the limit at the prompt: named as not restorable with its size then; at the limit, restored", async () => {
    const w = await workspace({ "ten.txt": "0123456789", "eleven.txt": "0123456789X" }, { maxFileBytes: 10 });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("rm ten.txt eleven.txt");
    const result = await w.rewind("p1");
    expect(result.notRestorable).toEqual([
      { path: "eleven.txt", reason: "11 bytes when the prompt arrived, over the 10-byte checkpoint limit" },
    ]);
    expect(result.restored).toEqual(["ten.txt"]);
    expect(w.read("ten.txt")).toBe("0123456789");
  });

  it("a snapshot reuses what it knew of a file whose size and time did not move, and re-reads one that did", async () => {
    const w = await workspace({ "a.txt": "A1\n" });
    await w.checkpoints.beginPrompt("p1");
    writeFileSync(join(w.cwd, "a.txt"), "A2 longer\n");
    await w.checkpoints.beginPrompt("p2");
    await w.checkpoints.beginPrompt("p3");
    await w.sh("rm a.txt");
    await w.rewind("p3");
    expect(w.read("a.txt")).toBe("A2 longer\n");
  });

  it("a file that cannot be read at the prompt is not restorable by Bash's rewind, and says so", async () => {
    const w = await workspace({ "a.txt": "A\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("rm a.txt");
    rmSync(join(w.root, "checkpoints", "blobs"), { recursive: true });
    expect(await w.rewind("p1")).toEqual({
      restored: [],
      notRestorable: [{ path: "a.txt", reason: "its checkpoint content is missing or damaged" }],
    });
  });

  it("a restore that cannot write names the file and the reason, and goes on with the rest", async () => {
    const w = await workspace({ "a.txt": "A\n", "b.txt": "B\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("rm a.txt b.txt && mkdir a.txt");
    const result = await w.rewind("p1");
    expect(result.restored).toEqual(["b.txt"]);
    expect(result.notRestorable.map((item) => item.path)).toEqual(["a.txt"]);
    expect(result.notRestorable[0]?.reason).toMatch(/EISDIR|illegal operation on a directory/);
    expect(w.read("b.txt")).toBe("B\n");
  });

  it("names files inside the workspace by their relative path with /, files outside by their absolute path", async () => {
    const w = await workspace({});
    expect(w.checkpoints.nameOf(join(w.cwd, "x", "y.txt"))).toBe("x/y.txt");
    expect(w.checkpoints.nameOf(join(w.root, "outside.txt"))).toBe(join(w.root, "outside.txt"));
    expect(w.checkpoints.nameOf(w.cwd)).toBe(w.cwd);
    await w.checkpoints.beginPrompt("p1");
    writeFileSync(join(w.root, "outside.txt"), "O\n");
    await w.checkpoints.beforeFileChange(join(w.root, "outside.txt"), "Write");
    writeFileSync(join(w.root, "outside.txt"), "changed\n");
    await w.rewind("p1");
    expect(readFileSync(join(w.root, "outside.txt"), "utf8")).toBe("O\n");
  });

  it("a manifest line cut short by a crash is skipped; the lines around it still count", async () => {
    const w = await workspace({ "a.txt": "A\n", "b.txt": "B\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("rm a.txt");
    writeFileSync(join(w.root, "checkpoints", "manifest.jsonl"), '{"promptUuid":"p1","pa\n\n', { flag: "a" });
    await w.sh("rm b.txt");
    expect((await w.checkpoints.lines()).map((line) => line.path)).toEqual(["a.txt", "b.txt"]);
    await w.rewind("p1");
    expect([w.read("a.txt"), w.read("b.txt")]).toEqual(["A\n", "B\n"]);
  });

  it("watches at most maxWatchedFiles files: with one, a command that deletes two records one", async () => {
    const w = await workspace({ "a.txt": "A\n", "b.txt": "B\n" });
    const one = new Checkpoints({ dir: join(w.root, "checkpoints"), cwd: w.cwd, maxWatchedFiles: 1 });
    await one.beginPrompt("p1");
    await one.aroundCommand(async () => execFileSync("sh", ["-c", "rm a.txt b.txt"], { cwd: w.cwd }));
    expect(w.manifest()).toHaveLength(1);
  });

  it("a rewind with nothing recorded plans nothing and touches nothing", async () => {
    const w = await workspace({ "a.txt": "A\n" });
    expect(await w.checkpoints.plan(["p1"])).toEqual([]);
    expect(await w.rewind("p1")).toEqual({ restored: [], notRestorable: [] });
    expect(w.read("a.txt")).toBe("A\n");
  });

  it("the prompts to undo are taken in the order given: the first of them names the state to go back to", async () => {
    const w = await workspace({ "a.txt": "A1\n" });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("printf 'A2\\n' > a.txt");
    await w.checkpoints.beginPrompt("p2");
    await w.sh("printf 'A3\\n' > a.txt");
    expect(await w.checkpoints.plan(["p2", "p1"])).toEqual([{ path: "a.txt", hash: sha("A2\n") }]);
  });

  it("a file Bash made and someone then removed is still a clean rewind (nothing to remove is no error)", async () => {
    const w = await workspace({});
    await w.checkpoints.beginPrompt("p1");
    await w.sh("printf x > made.txt");
    rmSync(join(w.cwd, "made.txt"));
    expect(await w.rewind("p1")).toEqual({ restored: ["made.txt"], notRestorable: [] });
  });

  it("the manifest says Bash changed a file over the limit, and why it cannot be restored", async () => {
    const w = await workspace({ "eleven.txt": "0123456789X" }, { maxFileBytes: 10 });
    await w.checkpoints.beginPrompt("p1");
    await w.sh("rm eleven.txt");
    expect(w.manifest()).toEqual([
      {
        promptUuid: "p1",
        path: "eleven.txt",
        notRestorable: "11 bytes when the prompt arrived, over the 10-byte checkpoint limit",
        by: "Bash",
      },
    ]);
  });
});
