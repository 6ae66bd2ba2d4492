/** Per-test temp directories (vitest only: benchmarks use `makeTempDir` and remove their own). */
import { rm } from "node:fs/promises";
import { afterEach } from "vitest";
import { makeTempDir } from "./temp-dir.js";

/** A maker of fresh temp directories `threadline-<purpose>-XXXXXX`, each removed after the test that made it. */
export function useTempDirs(purpose = "transcript"): () => Promise<string> {
  const created: string[] = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
  });
  return async () => {
    const directory = await makeTempDir(purpose);
    created.push(directory);
    return directory;
  };
}
