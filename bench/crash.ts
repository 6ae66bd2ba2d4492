/**
 * Crash and resume, full size: 50 SIGKILLs of a child session (while streaming, during a tool run, right after
 * an entry is queued for the transcript, at a random time). Every transcript must load, resume and produce a
 * contract-valid next request; reports the entries lost per kill (target: at most the one being written).
 *
 *   node --import tsx bench/crash.ts [--kills 50] [--seed 1] [--postgres]
 * With --postgres the child writes to a throwaway PostgreSQL (skipped with a notice where none can start) and
 * resume goes through the lease takeover; "lost" there counts entries whose write was not yet acknowledged.
 */

import { startTestPostgres, type TestPostgres } from "../support/postgres-cluster.js";
import { type CrashRunReport, KILL_MOMENTS, runCrash } from "../support/reliability/crash-run.js";
import { seededRandom } from "../support/reliability/seeded-random.js";
import { reportResult } from "./lib/result.js";

/** Kills in the full run. */
export const DEFAULT_KILLS = 50;
/** Children run two at a time (the machines have two cores; most of a child's life is module loading). */
const CONCURRENCY = 2;

function numberArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main(): Promise<void> {
  const kills = numberArgument("--kills", DEFAULT_KILLS);
  let postgres: TestPostgres | undefined;
  if (process.argv.includes("--postgres")) {
    const started = await startTestPostgres();
    if (!started.ok) {
      console.log(`crash --postgres skipped: PostgreSQL cannot be started here (${started.reason})`);
      return;
    }
    postgres = started.postgres;
  }
  const store = postgres === undefined ? {} : { storeUrl: postgres.url };
  const bench = postgres === undefined ? "crash" : "crash-postgres";
  const random = seededRandom(numberArgument("--seed", 1));
  const reports: CrashRunReport[] = [];
  const started = performance.now();
  for (let batch = 0; batch < kills; batch += CONCURRENCY) {
    const runs: Promise<CrashRunReport>[] = [];
    for (let kill = batch; kill < Math.min(kills, batch + CONCURRENCY); kill++) {
      runs.push(runCrash({ moment: KILL_MOMENTS[kill % KILL_MOMENTS.length] ?? "random", random, ...store }));
    }
    for (const report of await Promise.all(runs)) {
      reports.push(report);
      const flag = report.failures.length === 0 ? "ok  " : "FAIL";
      console.log(
        `${flag} kill ${String(reports.length).padStart(2)} (${report.moment.padEnd(9)} last ${report.lastMarker.padEnd(6)}): ` +
          `${report.appended} appended, ${postgres === undefined ? "" : `${report.acknowledged} acknowledged, `}` +
          `${report.onDisk} stored, ${report.lost} lost` +
          `${report.finishedBeforeKill ? ", finished first" : ""}${report.loadProblems.length > 0 ? ", torn tail" : ""}` +
          (report.failures.length > 0 ? ` — ${report.failures.join("; ")}` : ""),
      );
    }
  }
  const failed = reports.filter((report) => report.failures.length > 0).length;
  const maxLost = Math.max(0, ...reports.map((report) => report.lost));
  const meanLost = reports.reduce((sum, report) => sum + report.lost, 0) / Math.max(1, reports.length);
  const landed = reports.filter((report) => !report.finishedBeforeKill).length;
  console.log(
    `${kills - failed}/${kills} kills resumed into a valid request; lost per kill: max ${maxLost}, mean ${meanLost.toFixed(2)}; ` +
      `${landed} kills landed mid-session; ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  reportResult({
    bench,
    metric: `kills that resumed into a contract-valid request (of ${kills})`,
    value: kills - failed,
    unit: "",
    target: `${kills}`,
  });
  reportResult({
    bench,
    metric: "entries lost per kill (max)",
    value: maxLost,
    unit: "",
    target: "≤ 1",
    note: `mean ${meanLost.toFixed(2)}`,
  });
  await postgres?.stop();
}

await main();
