/**
 * Builds dist/ (tsc -p tsconfig.build.json, then the bundle bin/threadline loads) unless the bundle is newer
 * than every file under src/. A lock directory keeps parallel test files from compiling into dist/ at the
 * same time. Without the bundle step a changed src/ reached dist/cli/ but not dist/bundle/, so the CLI tests
 * ran the old code (and a mutation check of a CLI test could not fail).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "threadline");

function newestMtime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function upToDate(): boolean {
  try {
    return statSync(join(ROOT, "dist", "bundle", "main.js")).mtimeMs >= newestMtime(join(ROOT, "src"));
  } catch {
    return false;
  }
}

function sleepSync(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/** Ensures dist/ is current; safe to call from several processes at once. */
export function buildOnce(): void {
  const lock = join(tmpdir(), `threadline-build-${ROOT.replace(/[^a-zA-Z0-9]/g, "-")}.lock`);
  for (;;) {
    if (upToDate()) return;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than two minutes is stale.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      } catch {}
      sleepSync(200);
      continue;
    }
    try {
      if (!upToDate()) {
        execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
        execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd: ROOT, stdio: "inherit" });
      }
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
