import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectFile, runInspect } from "../../src/cli/inspect/inspect.js";
import { whatIf } from "../../src/cli/inspect/what-if.js";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/index.js";
import { importClaudeCodeTranscript } from "../../src/transcript/index.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { capture } from "./inspect-helpers.js";

const FIXTURE = new URL("../fixtures/inspect/claude-code-session.jsonl", import.meta.url).pathname;
const MODEL = "claude-sonnet-4-6"; // $3 / $15 per MTok, 1,024-token cache minimum

/**
 * A two-response Claude Code transcript with sizes chosen for round token counts under the replay's ruler (the
 * emulator's ledger counts with the Claude tokenizer: `word ` repeated n times is n tokens).
 */
const tokens = (n: number, seed: string) => `${seed} `.repeat(n).trimEnd();
function smallTranscript(): string {
  const base = { isSidechain: false, userType: "external", cwd: "/home/dev/app", sessionId: "s", version: "2.1.328" };
  const usage = (input: number, write: number, read: number, output: number) => ({
    input_tokens: input,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    output_tokens: output,
  });
  const records = [
    {
      ...base,
      type: "user",
      parentUuid: null,
      uuid: "u1",
      timestamp: "2026-01-01T10:00:00.000Z",
      message: { role: "user", content: tokens(100, "word") },
    }, // 100 tokens
    {
      ...base,
      type: "assistant",
      parentUuid: "u1",
      uuid: "a1",
      timestamp: "2026-01-01T10:00:05.000Z",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: MODEL,
        content: [{ type: "text", text: tokens(50, "answer") }],
        stop_reason: "end_turn",
        usage: usage(5, 1_200, 0, 50),
      },
    }, // 50 tokens
    {
      ...base,
      type: "user",
      parentUuid: "a1",
      uuid: "u2",
      timestamp: "2026-01-01T10:01:00.000Z",
      message: { role: "user", content: tokens(100, "note") },
    }, // 100 tokens
    {
      ...base,
      type: "assistant",
      parentUuid: "u2",
      uuid: "a2",
      timestamp: "2026-01-01T10:01:05.000Z",
      message: {
        id: "msg_2",
        type: "message",
        role: "assistant",
        model: MODEL,
        content: [{ type: "text", text: "done" }],
        stop_reason: "end_turn",
        usage: usage(5, 160, 1_200, 60),
      },
    },
  ];
  return `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
}

describe("threadline inspect --what-if", () => {
  let directory: string;
  beforeAll(async () => {
    directory = await makeTempDir("what-if");
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("matches a hand-computed replay of a small conversation", async () => {
    const path = join(directory, "small.jsonl");
    await writeFile(path, smallTranscript());
    const report = await inspectFile(path, { stderr: process.stderr, isTTY: false });
    const { entries } = await importClaudeCodeTranscript(path);
    // A 1,000-token system prompt, no tools, snip tags off: every block's size is known by hand.
    const result = await whatIf(entries, report, {
      systemPrompt: [tokens(1_000, "system")],
      tools: [],
      compactableTools: new Set(),
      compaction: { ...DEFAULT_COMPACTION_SETTINGS, snip: false },
    });
    // Actual: (5×3 + 1,200×1.25×3 + 50×15) + (5×3 + 160×1.25×3 + 1,200×0.1×3 + 60×15) µ$ = 5,265 + 1,875 µ$.
    expect(result.actual.costUsd).toBeCloseTo(0.00714, 12);
    // Replay, request 1: system 1,000 (under the 1,024 minimum, not written alone) + user 100 → write 1,100.
    //   1,100×1.25×3 + 50×15 = 4,875 µ$.
    // Request 2: reads the 1,100 written, writes assistant 50 + user 100 = 150 more.
    //   1,100×0.1×3 + 150×1.25×3 + 60×15 = 330 + 562.5 + 900 = 1,792.5 µ$.
    expect(result.threadline).toEqual({
      requests: 2,
      inputTokens: 0,
      cacheReadTokens: 1_100,
      cacheWriteTokens: 1_250,
      outputTokens: 110,
      costUsd: expect.closeTo(0.0066675, 12),
    });
    expect(result.notReplayedUsd).toBeCloseTo(0, 12);
  });

  it("prints both costs and its assumptions for a Claude Code transcript", async () => {
    const result = await capture((io) => runInspect(["--what-if", FIXTURE], io));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/actually paid \(the transcript's usage\)\s+\$0\.1693/);
    expect(result.stdout).toMatch(/threadline, default policy \(replayed\)\s+\$\d+\.\d{4}\s+3 requests/);
    expect(result.stdout).toContain("Not replayed (subagents, side requests): $0.0040");
    expect(result.stdout).toContain("the model answers the same");
    expect(result.stdout).toContain("chars/4 ruler");
  });
});
