/**
 * Changes to the project's `.claude/settings.local.json` (the person's own, uncommitted file) made by slash
 * commands, as Claude Code's /plugin and /output-style save theirs: the file read as JSON, one key changed, the
 * rest kept. A file that cannot be read as settings is never overwritten.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Applies `change` to the file's object and writes it; the path written, or why nothing was. */
export async function updateLocalSettings(
  cwd: string,
  change: (data: Record<string, unknown>) => void,
): Promise<{ path: string } | { problem: string }> {
  const path = join(cwd, ".claude", "settings.local.json");
  let data: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not a JSON object");
    data = parsed as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      return {
        problem: `Not changed: ${path} cannot be read as settings (${(error as Error).message}); fix it first.`,
      };
  }
  change(data);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(data, null, 2)}\n`);
  return { path };
}
