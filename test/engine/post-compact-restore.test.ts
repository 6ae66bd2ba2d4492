/**
 * Re-attaching recently read files after an autocompact (`postCompactRestoreTokens`): with a budget the
 * request after the summary carries the files as they are on disk; with 0 it carries the summary and the
 * kept tail only. (Measured in bench/README.md: it saves a re-read on the demo, costs 2-3 % behind
 * autocompact alone on the 220-step session.)
 */
import { afterEach, describe, expect, it } from "vitest";
import type { MessagesRequest } from "../../src/request/types.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import { isSummaryRequest, messageRecords, runTask, taskSteps, writeDataFiles } from "./compaction-scenario.js";

const WINDOW = 60_000;
const ATTACHED = "Files read before the compaction, attached again as they are now:";
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Runs four tasks of Reads through one autocompact; returns the main request right after the summary. */
async function requestAfterCompaction(postCompactRestoreTokens?: number): Promise<string> {
  const tasks = 4;
  const steps = Array.from({ length: tasks }, (_, task) => taskSteps(task, 4, 8)).flat();
  harness = await startHarness(
    { scenario: steps, contextWindow: WINDOW },
    {
      contextWindow: WINDOW,
      compaction: {
        collapse: false,
        microcompact: false,
        ...(postCompactRestoreTokens === undefined ? {} : { postCompactRestoreTokens }),
      },
      sessionMemory: false,
    },
  );
  await writeDataFiles(harness.workspace, 8, 2_500);
  for (let task = 0; task < tasks; task++) expect((await runTask(harness.engine, task)).end.reason).toBe("completed");
  const records = messageRecords(harness);
  const summaryIndex = records.findIndex((record) => isSummaryRequest(record.body));
  expect(summaryIndex).toBeGreaterThan(0);
  return JSON.stringify((records[summaryIndex + 1]!.body as MessagesRequest).messages);
}

describe("post-compact file restore", () => {
  it("with 0, the request after the summary attaches no file", async () => {
    const next = await requestAfterCompaction(0);
    expect(next).not.toContain(ATTACHED);
    expect(next).not.toContain("<file path=");
  });

  it("by default (50,000), attaches recently read files as they are on disk", async () => {
    const next = await requestAfterCompaction();
    expect(next).toContain(ATTACHED);
    expect(next).toMatch(/<file path=\\"data-\d\.txt\\">/);
    expect(next).toMatch(/file \d line 0: abcdefghij/);
  });
});
