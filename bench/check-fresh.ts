/**
 * Bench freshness (issue 45): re-runs every `quick` section of bench/README.md with the arguments its
 * provenance records, into a scratch copy of the README (THREADLINE_BENCH_README), and fails when a table
 * differs from what the script writes now. `slow` sections are listed with their date, not re-run; a section
 * without provenance (written before sections recorded it) is listed as unchecked.
 *
 *   node --import tsx bench/check-fresh.ts             every quick section (CI: .ci/run)
 *   node --import tsx bench/check-fresh.ts --list      what each section is, without running anything
 *   node --import tsx bench/check-fresh.ts --only a,b  the named quick sections
 *
 * Exit code 0 only when every quick section is reproduced byte for byte (provenance lines aside: the commit
 * and date of a fresh run differ by nature).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  BENCH_README,
  BENCH_README_ENV,
  readmeSections,
  readProvenance,
  withoutProvenance,
} from "./lib/readme-section.js";

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * A section's text with table cells trimmed and alignment rows reduced to their colons: the README is formatted
 * by biome (aligned tables), a scratch copy outside the project is not, and alignment is no figure.
 */
function normalized(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const trimmed = line.trimEnd();
      if (!trimmed.startsWith("|")) return trimmed;
      const cells = trimmed
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim())
        .map((cell) => (/^:?-+:?$/.test(cell) ? cell.replace(/-+/, "-") : cell));
      return `|${cells.join("|")}|`;
    })
    .join("\n");
}

/** The first lines where `before` and `after` differ, for the failure message. */
function firstDifference(before: string, after: string): string {
  const old = before.split("\n");
  const now = after.split("\n");
  for (let line = 0; line < Math.max(old.length, now.length); line++)
    if (old[line] !== now[line])
      return `line ${line + 1}:\n  README:    ${old[line] ?? "(none)"}\n  fresh run: ${now[line] ?? "(none)"}`;
  return "no line differs (whitespace at the end?)";
}

function main(): number {
  const listOnly = process.argv.includes("--list");
  const onlyAt = process.argv.indexOf("--only");
  const only = onlyAt === -1 ? undefined : new Set((process.argv[onlyAt + 1] ?? "").split(","));
  const sections = readmeSections(readFileSync(BENCH_README, "utf8"));
  const problems: string[] = [];
  const started = performance.now();
  for (const [name, body] of sections) {
    if (only !== undefined && !only.has(name)) continue;
    const provenance = readProvenance(body);
    if (provenance === undefined) {
      console.log(`- ${name}: unchecked, no provenance (written before sections recorded it; re-run its script)`);
      continue;
    }
    const command = ["node --import tsx", provenance.script, ...provenance.args].join(" ");
    if (provenance.kind === "slow") {
      console.log(`- ${name}: slow, not re-run; written ${provenance.date} at ${provenance.commit} by ${command}`);
      continue;
    }
    if (listOnly) {
      console.log(`- ${name}: quick, re-run by CI: ${command}`);
      continue;
    }
    const scratch = mkdtempSync(join(tmpdir(), "threadline-bench-fresh-"));
    const copy = join(scratch, "README.md");
    copyFileSync(BENCH_README, copy);
    const ran = performance.now();
    const run = spawnSync(process.execPath, ["--import", "tsx", provenance.script, ...provenance.args], {
      cwd: REPOSITORY,
      encoding: "utf8",
      env: { ...process.env, [BENCH_README_ENV]: copy },
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = ((performance.now() - ran) / 1000).toFixed(1);
    const fresh = readmeSections(readFileSync(copy, "utf8")).get(name);
    rmSync(scratch, { recursive: true, force: true });
    if (run.status !== 0) {
      const tail = `${run.stdout}\n${run.stderr}`.trimEnd().split("\n").slice(-10).join("\n");
      console.log(`✗ ${name}: ${command} failed (exit ${run.status}) after ${seconds} s:\n${tail}`);
      problems.push(`${name}: its script failed`);
      continue;
    }
    if (fresh === undefined || readProvenance(fresh) === undefined) {
      console.log(`✗ ${name}: ${command} did not write its section (${seconds} s)`);
      problems.push(`${name}: not written by a fresh run`);
      continue;
    }
    const recorded = normalized(withoutProvenance(body));
    const now = normalized(withoutProvenance(fresh));
    if (recorded === now) console.log(`✓ ${name}: a fresh run writes the same table (${seconds} s)`);
    else {
      console.log(
        `✗ ${name}: STALE, a fresh run writes another table (${seconds} s); ${firstDifference(recorded, now)}`,
      );
      problems.push(`${name}: stale (re-run ${command} and commit bench/README.md)`);
    }
  }
  const total = ((performance.now() - started) / 1000).toFixed(0);
  if (problems.length === 0) {
    console.log(`bench-fresh: every quick section is fresh (${total} s)`);
    return 0;
  }
  console.log(`bench-fresh: ${problems.length} problem(s) (${total} s):\n- ${problems.join("\n- ")}`);
  return 1;
}

process.exitCode = main();
