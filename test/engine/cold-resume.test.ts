/**
 * Claude Code 2.1.337's `idleCompaction` idea, by price (issue 52): a session resumed after its cache expired
 * clears old tool results before its first request (the rewrite is free: nothing is cached any more), keeping the
 * file the prompt named; one resumed while the cache is warm sends the conversation as it was, so the server
 * reads it. Oracle: the emulator's logged request bodies and its cache ledger (which ages entries on the same
 * injected clock).
 */
import type { RequestLogEntry } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { CLEARED_TOOL_RESULT_PREFIX } from "../../src/compaction/index.js";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const MODEL = "claude-sonnet-4-20250514";
const FIRST_LINE = "export function helper0_7(value: number): number { return value * 7 + 0; }";
let harness: Harness | undefined;
let resumed: QueryEngine | undefined;
afterEach(async () => {
  await resumed?.close();
  await harness?.close();
  harness = undefined;
  resumed = undefined;
});

function answered(h: Harness): RequestLogEntry[] {
  return h.emulator.requests.filter((r) => r.path === "/v1/messages" && r.status === 200 && r.source !== "side");
}

/** A 10-read session, ended; resumed `minutes` later with one more prompt. The resumed session's first request. */
async function resumeAfter(minutes: number): Promise<{ before: RequestLogEntry; after: RequestLogEntry }> {
  let now = Date.parse("2026-11-29T10:00:00Z");
  const clock = () => new Date(now);
  const h = await startHarness(
    { scenario: [...readEachFileScenario(sourceFileNames(10)), "Back again."], now: () => now },
    { model: MODEL, now: clock, sessionMemory: false, compaction: { cacheEdits: "off" } },
  );
  harness = h;
  await writeSourceFiles(h.workspace, 10, 6_000);
  const prompt = `Read the modules, starting with ${sourceFileNames(1)[0]}.`;
  expect(turnEnd(await collect(h.engine.submitMessage(prompt))).reason).toBe("completed");
  await h.engine.idle();
  const path = h.engine.transcriptPath!;
  await h.engine.close();
  const before = answered(h).at(-1)!;
  now += minutes * 60_000;
  resumed = (
    await QueryEngine.resume(path, {
      cwd: h.workspace,
      home: h.home,
      now: clock,
      model: MODEL,
      provider: fastProvider(h.emulator.url),
      permission: { mode: "bypassPermissions" },
      sessionMemory: false,
      compaction: { cacheEdits: "off" },
    })
  ).engine;
  expect(turnEnd(await collect(resumed.submitMessage("Anything else?"))).reason).toBe("completed");
  const after = answered(h).at(-1)!;
  return { before, after };
}

const placeholders = (record: RequestLogEntry) =>
  JSON.stringify(record.body).split(CLEARED_TOOL_RESULT_PREFIX).length - 1;

describe("a resumed session and the cache it left", () => {
  it("after the cache expired, clears old results before the first request, keeping the named file", async () => {
    const { before, after } = await resumeAfter(90);
    expect(placeholders(before)).toBe(0);
    // 10 reads: 5 kept by count, the named module-00 kept by the rule, 4 cleared.
    expect(placeholders(after)).toBe(4);
    expect(JSON.stringify(after.body)).toContain(FIRST_LINE);
    // The cache was cold: the server read nothing of the conversation it had seen.
    expect(after.usage!.cache_read_input_tokens ?? 0).toBeLessThan(before.usage!.cache_read_input_tokens ?? 0);
  });

  it("while the cache is warm, sends the conversation as it was and the server reads it", async () => {
    const { before, after } = await resumeAfter(3);
    expect(placeholders(after)).toBe(0);
    const beforeInput =
      before.usage!.input_tokens +
      (before.usage!.cache_read_input_tokens ?? 0) +
      (before.usage!.cache_creation_input_tokens ?? 0);
    expect(after.usage!.cache_read_input_tokens ?? 0).toBeGreaterThanOrEqual(beforeInput);
  });
});
