/**
 * The refusal line a Write/Edit gets when its checkpoint cannot be kept, and the manifest reader's edges.
 * Oracles: literal lines written out here, and manifest files written by hand on disk.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Checkpoints, checkpointFailure } from "../../src/checkpoints/checkpoints.js";

const TAIL = "earlier checkpoints are kept, and no partial blob was left. Free some space and try again.";

describe("checkpointFailure", () => {
  it("names a full disk by its code", () => {
    const error = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    expect(checkpointFailure("Write", "big.txt", "/cp", error)).toBe(
      `Write not run: the checkpoint of big.txt could not be kept in /cp: the disk is full (ENOSPC). big.txt is unchanged, ${TAIL}`,
    );
  });

  it("names a used-up quota by its code", () => {
    const error = Object.assign(new Error("EDQUOT: disk quota exceeded"), { code: "EDQUOT" });
    expect(checkpointFailure("Edit", "a.ts", "/cp", error)).toBe(
      `Edit not run: the checkpoint of a.ts could not be kept in /cp: the disk quota is used up (EDQUOT). a.ts is unchanged, ${TAIL}`,
    );
  });

  it("any other error: its message's first line only", () => {
    const error = Object.assign(new Error("EIO: i/o error\n    at write (fs.js:1)"), { code: "EIO" });
    expect(checkpointFailure("Write", "b.txt", "/cp", error)).toBe(
      `Write not run: the checkpoint of b.txt could not be kept in /cp: EIO: i/o error. b.txt is unchanged, ${TAIL}`,
    );
    expect(checkpointFailure("Write", "c.txt", "/cp", "plain words")).toContain(": plain words. c.txt is unchanged");
  });
});

describe("the manifest reader", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("has no lines before a manifest exists, and skips blank and damaged lines after", async () => {
    dir = mkdtempSync(join(tmpdir(), "checkpoint-lines-"));
    const checkpoints = new Checkpoints({ dir, cwd: dir });
    expect(await checkpoints.lines()).toEqual([]);
    writeFileSync(join(dir, "manifest.jsonl"), '{"prompt":"p1"}\n\n   \n{"prompt":\n{"prompt":"p2"}\n');
    expect(await checkpoints.lines()).toEqual([{ prompt: "p1" }, { prompt: "p2" }]);
  });
});
