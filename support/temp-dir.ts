/**
 * Temporary directories for tests and benchmarks: a real directory under the OS temp dir, named
 * `threadline-<purpose>-XXXXXX` so a leftover one says which test made it.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh, empty directory `threadline-<purpose>-XXXXXX` under the OS temp dir; the caller removes it. */
export function makeTempDir(purpose: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `threadline-${purpose}-`));
}
