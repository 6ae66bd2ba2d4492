/**
 * The skip policy of CI: with `CI=true`, a skipped test fails the run unless its file is listed in
 * test/allowed-skips.json with the reason it may skip. A test that skips silently in CI guards nothing (the
 * eight ripgrep tests of issue 33 skipped there for months without a line saying so).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository's list (`THREADLINE_ALLOWED_SKIPS` points elsewhere, for the policy's own test). */
export const DEFAULT_ALLOWED_SKIPS_PATH = join(import.meta.dirname, "..", "test", "allowed-skips.json");

/** One file whose tests may skip in CI, and why. */
export interface AllowedSkip {
  /** Path from the repository root, e.g. `test/cli/inspect-page.e2e.test.ts`. */
  file: string;
  reason: string;
}

/** One test that was skipped: its file (from the repository root) and full name. */
export interface SkippedTest {
  file: string;
  name: string;
}

/** The allowed skips in `text` (the JSON file's content); throws one line naming the first bad entry. */
export function parseAllowedSkips(text: string, source: string): AllowedSkip[] {
  const parsed: unknown = JSON.parse(text);
  const list = (parsed as { allowed?: unknown }).allowed;
  if (!Array.isArray(list)) throw new Error(`${source}: expected {"allowed": [{"file", "reason"}, …]}`);
  return list.map((entry: unknown, index) => {
    const { file, reason } = (entry ?? {}) as { file?: unknown; reason?: unknown };
    if (typeof file !== "string" || file === "")
      throw new Error(`${source}: allowed[${index}] has no "file"; nothing from it is allowed`);
    if (typeof reason !== "string" || reason.trim() === "")
      throw new Error(`${source}: allowed[${index}] (${file}) gives no "reason"; a skip is allowed only with one`);
    return { file, reason };
  });
}

/** Reads the allowed skips from `path` (default DEFAULT_ALLOWED_SKIPS_PATH). */
export function loadAllowedSkips(
  path = process.env.THREADLINE_ALLOWED_SKIPS ?? DEFAULT_ALLOWED_SKIPS_PATH,
): AllowedSkip[] {
  return parseAllowedSkips(readFileSync(path, "utf8"), path);
}

/** The skipped tests whose file is not allowed to skip. */
export function disallowedSkips(skipped: readonly SkippedTest[], allowedSkips: readonly AllowedSkip[]): SkippedTest[] {
  const allowed = new Set(allowedSkips.map((entry) => entry.file));
  return skipped.filter((test) => !allowed.has(test.file));
}

/** The line CI prints for a skip that is not allowed. */
export function disallowedSkipLine(test: SkippedTest): string {
  return `ci: skipped test not allowed: ${test.file} > ${test.name} (list it in test/allowed-skips.json with a reason, or make it run)`;
}
