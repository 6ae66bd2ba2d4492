import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultTools } from "../../src/tools/index.js";
import type { Tool } from "../../src/tools/types.js";
import { cacheBreakNotices } from "../../support/cache-break-notices.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const MODEL = "claude-sonnet-4-20250514";
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const breaks = cacheBreakNotices;

/** A tool whose description the test can change mid-session. */
function noteTool(): Tool<{ text: string }> & { description: string } {
  return {
    name: "Note",
    description: "Records a note.",
    inputSchema: z.strictObject({ text: z.string() }),
    compactable: true,
    isReadOnly: () => true,
    async call(input) {
      return { content: `noted: ${input.text}` };
    },
  };
}

/** One warm-up turn that reads two big files, so the cached prefix is well over the 2,000-token floor. */
async function warmUp(h: Harness): Promise<void> {
  await writeSourceFiles(h.workspace, 2);
  expect(turnEnd(await collect(h.engine.submitMessage("Read both modules."))).reason).toBe("completed");
}

const warmTurns = () => [...readEachFileScenario(sourceFileNames(2)), "Second turn done."];

describe("cache-break detection on the emulator", () => {
  it("a changed system prompt is reported as the cause, with a diff file", async () => {
    harness = await startHarness({ scenario: warmTurns() }, { model: MODEL });
    await warmUp(harness);
    harness.engine.config.systemPrompt = [...harness.engine.config.systemPrompt, "Always answer in French."];
    const events = await collect(harness.engine.submitMessage("And now?"));
    const [found] = breaks(events);
    expect(found?.kind).toBe("client_change");
    expect(found?.causes).toContain("system prompt changed");
    expect(found?.diffPath && existsSync(found.diffPath)).toBe(true);
    expect(readFileSync(found!.diffPath!, "utf8")).toContain("+Always answer in French.");
  });

  it("a changed tool description names that tool", async () => {
    const note = noteTool();
    harness = await startHarness({ scenario: warmTurns() }, { model: MODEL, tools: [...defaultTools(), note] });
    await warmUp(harness);
    note.description = "Records a note for later.";
    const [found] = breaks(await collect(harness.engine.submitMessage("And now?")));
    expect(found?.kind).toBe("client_change");
    expect(found?.causes).toContain("tool Note changed (description)");
  });

  it("a 6-minute idle gap is reported as TTL expiry", async () => {
    let now = Date.parse("2026-11-29T10:00:00Z");
    harness = await startHarness({ scenario: warmTurns(), now: () => now }, { model: MODEL, now: () => new Date(now) });
    await warmUp(harness);
    now += 6 * 60_000;
    const [found] = breaks(await collect(harness.engine.submitMessage("Still there?")));
    expect(found?.kind).toBe("ttl_expiry");
    expect(found?.causes[0]).toMatch(/^TTL expiry: 6m/);
  });

  it("an unchanged session reports no break, and a cached microcompact is not reported as one", async () => {
    harness = await startHarness(
      { scenario: [...readEachFileScenario(sourceFileNames(20)), "Done."], cacheEditing: true },
      { model: MODEL, compaction: { cacheEdits: "on" } },
    );
    await writeSourceFiles(harness.workspace, 20);
    const events = await collect(harness.engine.submitMessage("Read them all."));
    expect(turnEnd(events).reason).toBe("completed");
    const edits = harness.engine.timeline.entries.filter((entry) => entry.type === "cache-edit-pin");
    expect(edits.length).toBeGreaterThan(0);
    expect(breaks(events)).toEqual([]);
  });
});
