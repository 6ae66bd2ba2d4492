/**
 * Temporary directories for tests and benchmarks: a real directory under the OS temp dir, named
 * `threadline-<purpose>-XXXXXX` so a leftover one says which test made it.
 *
 * Benchmarks whose tables CI re-runs (bench/check-fresh.ts, support/stable-run.ts) need the same bytes on every run, and a path is part
 * of every request (the workspace in the system prompt): the emulator counts with a real tokenizer, for which
 * two random suffixes of the same length are not the same number of tokens. With `THREADLINE_STABLE_TEMP=1` the
 * suffix is a counter (`000001`, `000002`, … in the order the process asks), the directory emptied first: two
 * runs of one script then see the same paths. Two such runs at once would share them; benches run one at a time.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

let stableCount = 0;

/** A fresh, empty directory `threadline-<purpose>-XXXXXX` under the OS temp dir; the caller removes it. */
export async function makeTempDir(purpose: string): Promise<string> {
  if (process.env.THREADLINE_STABLE_TEMP !== "1") return mkdtemp(join(tmpdir(), `threadline-${purpose}-`));
  stableCount++;
  // "/tmp" itself, not tmpdir(): a machine whose TMPDIR differs must still see the same paths (and tokens).
  const path = join("/tmp", `threadline-${purpose}-${String(stableCount).padStart(6, "0")}`);
  await rm(path, { recursive: true, force: true });
  await mkdir(path, { recursive: true });
  return path;
}
