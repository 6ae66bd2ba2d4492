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
  // Files whose Read result (~2,400 estimated tokens with line numbers and the <file> frame) fits the restore
  // budget with room: after the summary it is the aim minus system, tools, summary and tail (~2,800 here). Files of
  // 2,500 (~2,970 a block) fit it by a few tokens, and Agent's run_in_background / isolation / model fields
  // (~190 tokens more in the tools block) took those away.
  await writeDataFiles(harness.workspace, 8, 2_000);
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
