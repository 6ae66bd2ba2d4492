/**
 * A full disk while a checkpoint is taken (issue 53 item 5): the call whose file could not be kept is not run,
 * says in one line what failed and what was kept, and the blob store holds no `*.tmp` left by the failed write.
 * Real disk: a 64 KiB tmpfs holds the checkpoints; the workspace is on the ordinary temp disk. Oracles: the
 * literal line, the file's bytes, the store's listing. Mutations it catches (scripts/mutation-check.mjs):
 * checkpoint-tmp-blob-left, checkpoint-failure-bare.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Checkpoints, withCheckpoints } from "../../src/checkpoints/index.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { mountSmallDisk, type SmallDisk } from "../../support/reliability/small-disk.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "../tools/tool-test-context.js";

const disk: SmallDisk | string = await mountSmallDisk(64);
afterAll(async () => {
  if (typeof disk !== "string") await disk.unmount();
});
if (typeof disk === "string") console.warn(`checkpoint-disk.test.ts: skipped: ${disk}`);

/** 100,000 bytes that do not repeat in a way a filesystem could share: more than the 64 KiB disk holds. */
const BIG = Buffer.from(Array.from({ length: 100_000 }, (_, index) => 97 + ((index * 7919) % 26)));

async function listAll(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true });
  return entries.map(String).sort();
}

describe.skipIf(typeof disk === "string")("a checkpoint on a full disk", () => {
  const root = typeof disk === "string" ? "" : disk.path;
  let workspace: string;
  beforeEach(async () => {
    workspace = await makeTempDirectory("checkpoint-disk");
  });
  afterEach(() => removeDirectory(workspace));

  it("refuses the call in one line, keeps the file, and leaves no temporary blob", async () => {
    const dir = path.join(root, `cp-${Date.now()}`);
    await writeFile(path.join(workspace, "big.txt"), BIG);
    await writeFile(path.join(workspace, "small.txt"), "small\n");
    const checkpoints = new Checkpoints({ dir, cwd: workspace });
    await checkpoints.beginPrompt("prompt-1");
    // The prompt's snapshot kept small.txt (the disk works; only what does not fit fails).
    const [write] = withCheckpoints([writeTool], checkpoints);
    if (write === undefined) throw new Error("no Write tool");
    const result = await runTool(
      write,
      { file_path: path.join(workspace, "big.txt"), content: "replaced\n" },
      makeContext(workspace),
      BYPASS,
    );
    expect(result.isError).toBe(true);
    expect(outputText(result.content)).toBe(
      `Write not run: the checkpoint of big.txt could not be kept in ${dir}: the disk is full (ENOSPC). big.txt is ` +
        "unchanged, earlier checkpoints are kept, and no partial blob was left. Free some space and try again.",
    );
    expect((await readFile(path.join(workspace, "big.txt"))).equals(BIG)).toBe(true);
    const listing = await listAll(dir);
    expect(listing.filter((name) => name.endsWith(".tmp"))).toEqual([]);
    // The small file's blob is the one whole blob kept: sha256("small\n").
    expect(listing.filter((name) => name.split(path.sep).length === 3)).toEqual([
      path.join("blobs", "4c", "47b3e816fbe7d40cef9f665ba8f0be1ae68b5e8e7ed70f5b6bab7f70528e8f"),
    ]);
  });
});
