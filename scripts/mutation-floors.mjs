#!/usr/bin/env node
/**
 * A floor per guard module (docs/MUTATION-TESTING.md, "Floors"). Stryker's `thresholds.break` is one number for
 * the whole run, so a module at 60 % hides behind three at 100 %. This reads Stryker's JSON report
 * (reports/mutation/mutation.json, written by every `npm run mutate` / `mutate:ci`; an incremental run reports
 * the reused results too) and the floors in test/mutation/floors.json, prints each module's score beside its
 * floor, and exits 1 when a module is under its floor, when a module in the report has no floor, or when a floor
 * names a module the report does not hold (renamed or dropped from `mutate`: fix the floor with it).
 *
 * Score as Stryker counts it: (killed + timed out) / (killed + timed out + survived + no coverage); mutants a
 * `Stryker disable` directive ignores and those that did not compile are left out.
 *
 * Usage: node scripts/mutation-floors.mjs [report.json] [floors.json]
 */
import { readFileSync } from "node:fs";

const reportPath = process.argv[2] ?? "reports/mutation/mutation.json";
const floorsPath = process.argv[3] ?? "test/mutation/floors.json";

function readJson(path, what) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    console.error(`mutation floors: cannot read ${what} ${path} (${error.message}); run npm run mutate first`);
    process.exit(1);
  }
}

/** `src/trust/**\/trust-store.ts` as a regular expression: `**\/` any folders (or none), `*` within one name. */
function globToRegExp(glob) {
  let pattern = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (glob.startsWith("**/", index)) {
      pattern += "(?:.*/)?";
      index += 2;
    } else if (char === "*") pattern += "[^/]*";
    else pattern += char.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`);
}

const report = readJson(reportPath, "Stryker's report");
const { floors } = readJson(floorsPath, "the floors");
const files = Object.entries(report.files ?? {}).map(([path, file]) => [path.replaceAll("\\", "/"), file]);

const problems = [];
const floored = new Set();
const rows = [];
for (const [glob, floor] of Object.entries(floors)) {
  const pattern = globToRegExp(glob);
  const matched = files.filter(([path]) => pattern.test(path));
  if (matched.length === 0) {
    problems.push(`${glob}: floor ${floor} % but no such module in the report (renamed, or left out of mutate?)`);
    continue;
  }
  const counts = { detected: 0, undetected: 0 };
  for (const [path, file] of matched) {
    floored.add(path);
    for (const mutant of file.mutants) {
      if (mutant.status === "Killed" || mutant.status === "Timeout") counts.detected++;
      else if (mutant.status === "Survived" || mutant.status === "NoCoverage") counts.undetected++;
    }
  }
  const total = counts.detected + counts.undetected;
  const score = total === 0 ? 100 : (100 * counts.detected) / total;
  const shown = `${score.toFixed(2)} %`;
  rows.push([glob, shown, `${floor} %`, score < floor ? "UNDER" : "ok"]);
  if (score < floor) problems.push(`${glob}: ${shown} is under its floor of ${floor} %`);
}
for (const [path] of files) if (!floored.has(path)) problems.push(`${path}: mutated but has no floor in ${floorsPath}`);

const widths = [0, 1, 2, 3].map((column) =>
  Math.max(...[["module", "score", "floor", ""], ...rows].map((row) => row[column].length)),
);
for (const row of [["module", "score", "floor", ""], ...rows])
  console.log(row.map((cell, column) => cell.padEnd(widths[column])).join("  "));
for (const problem of problems) console.error(`mutation floors: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
