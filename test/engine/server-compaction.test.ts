/**
 * Server-side compaction where declared, over HTTP on the emulator: threadline sends the compact_20260112 edit
 * under beta compact-2026-01-12 instead of running its own autocompact, records the `compaction` block the server
 * answers with, continues the turn after `stop_reason: "compaction"`, sends the block back byte-identically (first
 * in the request: nothing before it is uploaded or billed), bills every pass in `usage.iterations`, and a resume
 * sends the same block again.
 *
 * Mutations this catches (each applied once while writing it):
 * - not continuing on `stop_reason: "compaction"` (stage-decide) fails "crosses the trigger twice" (the turn ends
 *   with only a compaction block and the scenario answer is never asked for);
 * - sending the whole history instead of cutting at the compaction block (`fromLastCompaction` returning its
 *   input) fails "the compaction block first";
 * - a placeholder between the compaction block and the answer after the pause (ensure-alternation not merging)
 *   fails it too (the answer is then a second assistant message);
 * - billing the top-level usage only (`billedUsage` returning `usage`) fails "every pass is billed";
 * - sending the edit without the capability (betas declared) fails "not declared, never sent";
 * - leaving compaction blocks out of the transcript check (content-check.ts) fails "a resume after it".
 */

import type { RequestLogEntry } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

const MODEL = "claude-sonnet-4-20250514";
const TRIGGER = 50_000;
let harness: Harness | undefined;
let resumed: QueryEngine | undefined;
afterEach(async () => {
  await resumed?.close();
  resumed = undefined;
  await harness?.close();
  harness = undefined;
});

/** A prompt of about `tokens` tokens (characters / 4) carrying one fact. */
const bigPrompt = (fact: string, tokens: number) =>
  `Remember: ${fact}. Log follows. ${"The build failed at step 4 with exit code 2. ".repeat(Math.ceil((tokens * 4) / 45))}`;

// A loopback server is `compatible` (no betas) unless declared otherwise: the declaration names both.
const DECLARED = { capabilities: { serverCompaction: true, betas: true } };
const answers = ["One.", "Two.", "Three.", "Four.", "Five."];

function posts(h: Harness): RequestLogEntry[] {
  return h.emulator.requests.filter((entry) => entry.path === "/v1/messages" && entry.status === 200);
}
const bodyOf = (entry: RequestLogEntry) =>
  entry.body as { messages: { role: string; content: unknown }[]; context_management?: unknown };

async function runFourTurns(h: Harness, engine: QueryEngine = h.engine) {
  const ends = [];
  for (let turn = 0; turn < 4; turn++)
    ends.push(turnEnd(await collect(engine.submitMessage(bigPrompt(`fact-${turn}`, 30_000)))));
  return ends;
}

describe("server-side compaction, where the server declares it", () => {
  it("crosses the trigger twice: edit sent, paused turns continue, the compaction block first", async () => {
    harness = await startHarness(
      { scenario: answers },
      { model: MODEL, serverCompaction: { triggerTokens: TRIGGER } },
      DECLARED,
    );
    const ends = await runFourTurns(harness);
    expect(ends.map((end) => [end.reason, end.lastText])).toEqual([
      ["completed", "One."],
      ["completed", "Two."],
      ["completed", "Three."],
      ["completed", "Four."],
    ]);
    const sent = posts(harness);
    // Oracle: the literal edit and beta the SDK types and docs name.
    for (const entry of sent) {
      expect(bodyOf(entry).context_management).toEqual({
        edits: [
          { type: "compact_20260112", trigger: { type: "input_tokens", value: 50_000 }, pause_after_compaction: true },
        ],
      });
      expect(String(entry.headers["anthropic-beta"] ?? "")).toContain("compact-2026-01-12");
    }
    const paused = sent.filter((entry) => (entry.usage?.iterations ?? []).some((pass) => pass.type === "compaction"));
    expect(paused.length).toBe(2);
    // Every request after the first compaction starts with the latest compaction block the server sent, verbatim.
    const compactions = harness.engine.timeline.entries.flatMap((entry) =>
      entry.type === "assistant" ? entry.message.content.filter((block) => block.type === "compaction") : [],
    );
    expect(compactions.length).toBe(2);
    const firstPause = sent.indexOf(paused[0]!);
    for (const entry of sent.slice(firstPause + 1)) {
      const [head, compacted] = bodyOf(entry).messages;
      // Before the block only the placeholder that keeps the first message a user's (the API's rule).
      expect(head).toEqual({ role: "user", content: [{ type: "text", text: "(no content)" }] });
      expect(compacted!.role).toBe("assistant");
      // The stored block verbatim (a cache marker, when the breakpoint falls on it, comes after its own keys).
      const { cache_control: _marker, ...block } = (compacted!.content as Record<string, unknown>[])[0]!;
      expect(compactions).toContainEqual(block);
      expect(Object.keys(block)).toEqual(["type", "content", "encrypted_content"]);
      // The answer after a pause continues the compaction's message: no placeholder between them.
      const placeholders = bodyOf(entry).messages.filter((message) => JSON.stringify(message).includes("(no content)"));
      expect(placeholders.length).toBe(1);
    }
    // Nothing before the block is billed: the request after the second compaction is far under the trigger.
    const last = sent.at(-1)!;
    const billed =
      (last.usage?.input_tokens ?? 0) +
      (last.usage?.cache_read_input_tokens ?? 0) +
      (last.usage?.cache_creation_input_tokens ?? 0);
    expect(billed).toBeLessThan(TRIGGER);
  });

  it("every pass in usage.iterations is billed", async () => {
    harness = await startHarness(
      { scenario: answers },
      { model: MODEL, serverCompaction: { triggerTokens: TRIGGER } },
      DECLARED,
    );
    const ends = await runFourTurns(harness);
    // Oracle: the logged responses' iterations (when present) else top-level figures, added up here.
    const sent = posts(harness);
    const input = sent.reduce((sum, entry) => {
      const usage = entry.usage!;
      const passes = usage.iterations ?? null;
      if (passes === null || passes.length === 0) return sum + usage.input_tokens;
      return sum + passes.reduce((inner, pass) => inner + pass.input_tokens, 0);
    }, 0);
    const counted = ends.reduce((sum, end) => sum + end.usage.inputTokens, 0);
    expect(counted).toBe(input);
    const compactionPasses = sent.flatMap((entry) =>
      (entry.usage?.iterations ?? []).filter((p) => p.type === "compaction"),
    );
    expect(compactionPasses.length).toBe(2);
  });

  it("a resume after it sends the compaction block back byte-identically", async () => {
    harness = await startHarness(
      { scenario: [...answers, "After resume."] },
      { model: MODEL, serverCompaction: { triggerTokens: TRIGGER } },
      DECLARED,
    );
    await runFourTurns(harness);
    const before = posts(harness).at(-1)!;
    // The first process is done with the session (one writer per session: docs/EXACTLY-ONCE.md).
    await harness.engine.close();
    const result = await QueryEngine.resume(harness.engine.transcriptPath!, {
      cwd: harness.workspace,
      home: harness.home,
      provider: fastProvider(harness.emulator.url, DECLARED),
      permission: { mode: "bypassPermissions" },
      model: MODEL,
      serverCompaction: { triggerTokens: TRIGGER },
    });
    resumed = result.engine;
    expect(turnEnd(await collect(resumed.submitMessage("Which facts do you remember?"))).reason).toBe("completed");
    const after = posts(harness).at(-1)!;
    // Oracle: the raw bytes of the first message as the last live request sent them.
    // Oracle: the raw bytes of the compaction block as the last live request sent it (cache markers aside: the
    // breakpoint moves with the conversation's end).
    const blockBytes = (entry: RequestLogEntry) => {
      const first = (bodyOf(entry).messages[1]!.content as Record<string, unknown>[])[0]!;
      const { cache_control: _marker, ...block } = first;
      return JSON.stringify(block);
    };
    expect(blockBytes(after)).toBe(blockBytes(before));
    expect(blockBytes(after)).toContain('"type":"compaction"');
    expect(result.problems).toEqual([]);
  });

  it("not declared, never sent", async () => {
    // Betas declared, server compaction not: the capability alone decides.
    harness = await startHarness(
      { scenario: answers },
      { model: MODEL, serverCompaction: { triggerTokens: TRIGGER } },
      { capabilities: { betas: true } },
    );
    turnEnd(await collect(harness.engine.submitMessage("Hello")));
    for (const entry of posts(harness)) {
      expect(bodyOf(entry).context_management).toBeUndefined();
      expect(String(entry.headers["anthropic-beta"] ?? "")).not.toContain("compact-2026-01-12");
    }
  });
});
