/**
 * The closed loop between clearing and the model: an Edit step needs the text it replaces. With
 * microcompact clearing old results aggressively, that text is gone from what the model sees, so the
 * scripted model re-reads the file before editing; with clearing off it edits at once. The engine and
 * emulator talk over real HTTP; the Edit runs on a real temp file.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TurnObject } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import type { CompactionSettings } from "../../src/compaction/index.js";
import { collect } from "../../support/collect.js";
import { startHarness, turnEnd } from "../../support/engine-harness.js";

const CONFIG = "export const retries = 3;\nexport const timeoutMs = 5000;\n";
const OLD = "export const retries = 3;";

function readStep(file: string): TurnObject {
  return { content: [{ type: "tool_use", name: "Read", input: { file_path: file } }] };
}

function scenario(): TurnObject[] {
  return [
    readStep("config.ts"),
    ...Array.from({ length: 7 }, (_, index) => readStep(`notes-${index}.md`)),
    {
      content: [
        {
          type: "tool_use",
          name: "Edit",
          input: { file_path: "config.ts", old_string: OLD, new_string: "export const retries = 5;" },
        },
      ],
      needs: [{ text: OLD, file: "config.ts" }],
    },
    {
      content: [{ type: "text", text: "Raised retries to 5." }],
      needs: [{ text: "export const timeoutMs = 5000;", file: "config.ts" }],
    },
  ];
}

async function run(compaction: Partial<CompactionSettings>) {
  // The public API's profile: context_management, no cache editing (a loopback URL alone means "compatible").
  const harness = await startHarness(
    { scenario: scenario() },
    { compaction: { cacheEdits: "off", ...compaction } },
    { profile: "anthropic" },
  );
  try {
    await writeFile(join(harness.workspace, "config.ts"), CONFIG);
    for (let index = 0; index < 7; index++)
      await writeFile(
        join(harness.workspace, `notes-${index}.md`),
        `# notes ${index}\n${"lorem ipsum ".repeat(400)}\n`,
      );
    const end = turnEnd(await collect(harness.engine.submitMessage("Raise the retries to 5.")));
    expect(end.reason).toBe("completed");
    expect(await readFile(join(harness.workspace, "config.ts"), "utf8")).toContain("retries = 5");
    return { stats: harness.emulator.stats(), requests: harness.emulator.requests };
  } finally {
    await harness.close();
  }
}

describe("closed loop: clearing costs re-reads", () => {
  it("with microcompact clearing aggressively, the Edit that needs a cleared result re-reads it first", async () => {
    const { stats, requests } = await run({
      snip: false,
      collapse: false,
      serverClearToolUses: true,
      contextManagementTriggerTokens: 1,
      minClearTokens: 0,
    });
    const rereads = requests.filter((request) => request.source === "reread");
    expect(rereads.length).toBeGreaterThan(0);
    expect(rereads[0]).toMatchObject({ step: 8, rereadFiles: ["config.ts"] });
    expect(stats).toMatchObject({ factsLost: 0, stepsRemaining: 0 });
  });

  it("with clearing off, it edits at once", async () => {
    const { stats } = await run({ snip: false, microcompact: false, collapse: false });
    expect(stats).toMatchObject({ rereads: 0, factsLost: 0, stepsRemaining: 0 });
  });
});
