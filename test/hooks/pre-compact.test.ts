/**
 * PreCompact (issue 30): runs before every automatic and manual compaction with `trigger` and the person's
 * instructions on stdin, and what it prints joins the summary request's instructions. The engine runs over real
 * HTTP against the emulator; the hook is a real shell command writing what it received to a file.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmulatorRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import type { HooksSettings } from "../../src/settings/index.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import {
  isSummaryRequest,
  lastUserText,
  messageRecords,
  runTask,
  taskSteps,
  writeDataFiles,
} from "../engine/compaction-scenario.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

// Compacts at ~27K (docs/ARCHITECTURE.md thresholds), so the ten reads below cross it.
const WINDOW = 37_000;

const HOOKS: HooksSettings = {
  PreCompact: [
    {
      matcher: "",
      hooks: [
        {
          command:
            'cat >> "$CLAUDE_PROJECT_DIR/precompact.log"; echo >> "$CLAUDE_PROJECT_DIR/precompact.log"; echo "Keep every ticket number like TL-123."',
          source: "test",
        },
      ],
    },
  ],
};

interface PreCompactInput {
  hook_event_name: string;
  trigger: string;
  custom_instructions: string;
  session_id: string;
}

async function hookInputs(workspace: string): Promise<PreCompactInput[]> {
  const text = await readFile(join(workspace, "precompact.log"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as PreCompactInput);
}

describe("PreCompact hooks", () => {
  it("run before an automatic and a manual compaction with their trigger; their output joins the summary instructions", async () => {
    const steps = [...taskSteps(0, 10, 10), "Summary written."];
    harness = await startHarness(
      { scenario: steps, contextWindow: WINDOW },
      {
        contextWindow: WINDOW,
        compaction: { collapse: false, microcompact: false },
        sessionMemory: false,
        hooks: HOOKS,
      },
    );
    await writeDataFiles(harness.workspace, 10, 2_500);
    const { end } = await runTask(harness.engine, 0);
    expect(end.reason).toBe("completed");
    const auto = messageRecords(harness).filter((record) => isSummaryRequest(record.body));
    // Mutation caught: not passing beforeCompact into the tiers' input runs no hook (no log file at all).
    expect(auto.length).toBeGreaterThan(0);
    expect((await hookInputs(harness.workspace)).map((input) => [input.hook_event_name, input.trigger])).toEqual(
      auto.map(() => ["PreCompact", "auto"]),
    );
    expect(lastUserText(auto[0]!.body as EmulatorRequest)).toContain("Keep every ticket number like TL-123.");

    await harness.engine.compact("Focus on the data files.");
    const inputs = await hookInputs(harness.workspace);
    expect(inputs.at(-1)).toMatchObject({
      hook_event_name: "PreCompact",
      trigger: "manual",
      custom_instructions: "Focus on the data files.",
      session_id: harness.engine.sessionId,
    });
    const manual = messageRecords(harness)
      .filter((record) => isSummaryRequest(record.body))
      .at(-1)!;
    // Mutation caught: dropping the hook's text (or the person's) from the instruction loses one of these.
    expect(lastUserText(manual.body as EmulatorRequest)).toContain("Focus on the data files.");
    expect(lastUserText(manual.body as EmulatorRequest)).toContain("Keep every ticket number like TL-123.");
  });
});
