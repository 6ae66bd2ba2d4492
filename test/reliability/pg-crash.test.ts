import { afterAll, describe, expect, it } from "vitest";
import { postgresForTests } from "../../support/postgres-cluster.js";
import { KILL_MOMENTS, runCrash } from "../../support/reliability/crash-run.js";
import { seededRandom } from "../../support/reliability/seeded-random.js";

const postgres = await postgresForTests(afterAll);

/** One kill per moment; the file store's suite runs more, the load benchmark many more. */
const KILLS = 4;

describe.skipIf(postgres === undefined)("crash and resume on the PostgreSQL store (SIGKILL of a child session)", () => {
  it(`${KILLS} kills: the stored entries are a prefix of those appended, every acknowledged one is there, and the session is taken over and resumed`, async () => {
    const random = seededRandom(2426);
    const reports = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const moment = KILL_MOMENTS[kill % KILL_MOMENTS.length] ?? "random";
      const report = await runCrash({ moment, random, storeUrl: postgres!.url });
      // failures covers: stored entries not a prefix of those appended, an acknowledged entry missing, and a
      // resume (through the lease, after the dead child's lapsed) that was not served or broke the contract.
      expect(report.failures, `${moment} kill #${kill}: ${JSON.stringify(report)}`).toEqual([]);
      expect(report.loadProblems).toEqual([]);
      reports.push(report);
    }
    expect(reports.filter((report) => !report.finishedBeforeKill).length).toBeGreaterThanOrEqual(KILLS / 2);
  }, 300_000);
});
