/**
 * Writes one benchmark's table into bench/README.md between its own markers, so no figure there is copied by
 * hand and re-running a script rewrites its section and nothing else:
 *
 *   <!-- bench:compaction-pressure -->
 *   …written by the script…
 *   <!-- /bench:compaction-pressure -->
 *
 * A section that is not there yet is appended at the end of the file. Text outside the markers is never touched.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** bench/README.md, beside this folder's parent. */
export const BENCH_README = join(dirname(fileURLToPath(import.meta.url)), "..", "README.md");

function markers(section: string): { open: string; close: string } {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(section)) throw new Error(`bench section name "${section}" is not kebab-case`);
  return { open: `<!-- bench:${section} -->`, close: `<!-- /bench:${section} -->` };
}

/** The README text with `section`'s body replaced by `markdown` (or the section appended). Pure, for tests. */
export function replaceReadmeSection(readme: string, section: string, markdown: string): string {
  const { open, close } = markers(section);
  const body = `${open}\n${markdown.trim()}\n${close}`;
  const start = readme.indexOf(open);
  if (start === -1) return `${readme.replace(/\s*$/, "")}\n\n${body}\n`;
  const end = readme.indexOf(close, start);
  if (end === -1) throw new Error(`bench/README.md has "${open}" but no "${close}"`);
  return readme.slice(0, start) + body + readme.slice(end + close.length);
}

/** The project's own biome, which `npm run lint` checks bench/README.md with (it aligns markdown tables). */
const BIOME = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "node_modules", ".bin", "biome");

/**
 * Rewrites `section` of bench/README.md (or `path`) with `markdown`, then formats the file as `npm run lint`
 * expects (tables aligned), so a bench run leaves the tree lint-clean and a re-run changes no byte.
 */
export async function writeReadmeSection(section: string, markdown: string, path = BENCH_README): Promise<void> {
  const current = await readFile(path, "utf8");
  const next = replaceReadmeSection(current, section, markdown);
  if (next === current) return;
  await writeFile(path, next);
  if (existsSync(BIOME)) spawnSync(BIOME, ["format", "--write", path], { stdio: "ignore" });
}
