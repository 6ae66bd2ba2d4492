/**
 * Writes one benchmark's table into bench/README.md between its own markers, so no figure there is copied by
 * hand and re-running a script rewrites its section and nothing else:
 *
 *   <!-- bench:compaction-pressure -->
 *   …written by the script…
 *   <!-- /bench:compaction-pressure -->
 *
 * A section that is not there yet is appended at the end of the file. Text outside the markers is never touched.
 *
 * Every section starts with its provenance (issue 45: tables that cannot go stale): the script, the arguments
 * it ran with, the commit and the date, and its kind. A `quick` section is deterministic and fast: CI re-runs
 * it with the same arguments (bench/check-fresh.ts, run by .ci/run) and fails when its table differs from
 * what the script writes now. A `slow` section is not re-run; its date says how old its figures are.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** bench/README.md, beside this folder's parent. */
export const BENCH_README = join(dirname(fileURLToPath(import.meta.url)), "..", "README.md");

/** Where a run writes its section instead of bench/README.md (the freshness check's scratch copy). */
export const BENCH_README_ENV = "THREADLINE_BENCH_README";

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** `quick`: deterministic and fast, re-run by CI. `slow`: too long for CI (or not deterministic), dated. */
export type SectionKind = "quick" | "slow";

/** What wrote a section, recorded inside it. */
export interface SectionProvenance {
  /** The script, relative to the repository (`bench/memory-session.ts`). */
  script: string;
  /** The arguments it ran with (`process.argv.slice(2)`). */
  args: readonly string[];
  kind: SectionKind;
  /** Short commit hash; `+changes` when src/, bench/ (its README aside) or support/ differed from it. */
  commit: string;
  /** UTC date of the run, YYYY-MM-DD. */
  date: string;
}

const PROVENANCE_PREFIX = "<!-- bench-provenance ";

function git(args: string[]): string | undefined {
  const run = spawnSync("git", args, { cwd: REPOSITORY, encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** The provenance of a run of `script` (the file's URL or path) with `args`, at this commit and date. */
export function provenanceOf(script: string, args: readonly string[], kind: SectionKind): SectionProvenance {
  const path = script.startsWith("file:") ? fileURLToPath(script) : script;
  const relative = path.startsWith(`${REPOSITORY}/`) ? path.slice(REPOSITORY.length + 1) : path;
  const head = git(["rev-parse", "--short=12", "HEAD"]) ?? "unknown";
  // The README itself is what runs write: a section written before this one is no change to the code.
  const changed = git([
    "status",
    "--porcelain",
    "--untracked-files=no",
    "--",
    "src",
    "bench",
    "support",
    ":(exclude)bench/README.md",
  ]);
  return {
    script: relative,
    args: [...args],
    kind,
    commit: changed === undefined || changed === "" ? head : `${head}+changes`,
    date: new Date().toISOString().slice(0, 10),
  };
}

/** The two lines a section starts with: the provenance as data, then as a sentence. */
export function provenanceLines(provenance: SectionProvenance): string {
  const command = ["node --import tsx", provenance.script, ...provenance.args].join(" ");
  const kind =
    provenance.kind === "quick"
      ? "quick and deterministic: CI re-runs it and fails when this table differs (bench/check-fresh.ts, run by .ci/run)"
      : `slow: not re-run by CI, so these figures are as of ${provenance.date}`;
  return `${PROVENANCE_PREFIX}${JSON.stringify(provenance)} -->\n_Written by \`${command}\` at commit \`${provenance.commit}\` on ${provenance.date}; ${kind}._`;
}

/** The provenance a section's body records, or undefined when it has none (written before issue 45). */
export function readProvenance(body: string): SectionProvenance | undefined {
  const line = body.split("\n").find((candidate) => candidate.startsWith(PROVENANCE_PREFIX));
  if (line === undefined) return undefined;
  return JSON.parse(line.slice(PROVENANCE_PREFIX.length, line.lastIndexOf(" -->"))) as SectionProvenance;
}

/** A section's body without its provenance lines: what a fresh run must reproduce byte for byte. */
export function withoutProvenance(body: string): string {
  const lines = body.split("\n");
  const at = lines.findIndex((line) => line.startsWith(PROVENANCE_PREFIX));
  if (at === -1) return body;
  lines.splice(at, lines[at + 1]?.startsWith("_Written by `") === true ? 2 : 1);
  return lines.join("\n");
}

/** Every section's name and body (between its markers) in `readme`. */
export function readmeSections(readme: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const match of readme.matchAll(/<!-- bench:([a-z0-9-]+) -->\n([\s\S]*?)\n?<!-- \/bench:\1 -->/g))
    sections.set(match[1]!, match[2]!);
  return sections;
}

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
 * Rewrites `section` of bench/README.md (or `path`, or the file THREADLINE_BENCH_README names) with its
 * provenance and `markdown`, then formats the file as `npm run lint` expects (tables aligned), so a bench run
 * leaves the tree lint-clean and a re-run changes nothing but the provenance line.
 */
export async function writeReadmeSection(
  section: string,
  markdown: string,
  provenance: SectionProvenance,
  path = process.env[BENCH_README_ENV] ?? BENCH_README,
): Promise<void> {
  const current = await readFile(path, "utf8");
  const next = replaceReadmeSection(current, section, `${provenanceLines(provenance)}\n\n${markdown.trim()}`);
  if (next === current) return;
  await writeFile(path, next);
  if (existsSync(BIOME)) spawnSync(BIOME, ["format", "--write", path], { stdio: "ignore" });
}
