import { describe, expect, it } from "vitest";
import { parsePermissionAnswer } from "../../src/cli/modes/questions/permission-prompt.js";
import { TurnRenderer } from "../../src/cli/modes/render/render.js";
import { formatTierLines, tierActivity } from "../../src/cli/modes/slash/context-report.js";
import { isSlashCommand } from "../../src/cli/modes/slash/slash-commands.js";
import { cacheHitRatio, formatStatusLine, formatTokens } from "../../src/cli/modes/status/status-line.js";
import { PLAIN_STYLE } from "../../src/cli/terminal/style.js";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/index.js";
import type { EngineEvent } from "../../src/loop/events.js";
import {
  createSystemEntry,
  createToolResultEntry,
  emptyUsage,
  toolResultBlock,
  toolUseBlock,
} from "../../src/messages/index.js";

const context = { sessionId: "s", parentUuid: null };

class Buffer {
  text = "";
  constructor(readonly isTTY: boolean) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

function delta(text: string): EngineEvent {
  return { type: "text_delta", index: 0, text };
}

function toolEvents(
  id: string,
  name: string,
  input: unknown,
  output: string,
  isError = false,
): [EngineEvent, EngineEvent] {
  const block = toolUseBlock(id, name, input);
  return [
    { type: "tool_start", block },
    {
      type: "tool_end",
      block,
      entry: createToolResultEntry(context, [toolResultBlock(id, output, isError)]),
      isError,
    },
  ];
}

function render(events: EngineEvent[], isTTY = false, verbose = false): string {
  const out = new Buffer(isTTY);
  const renderer = new TurnRenderer(out, { style: PLAIN_STYLE, verbose });
  for (const event of events) renderer.handle(event);
  return out.text;
}

describe("TurnRenderer", () => {
  it("streams text as it arrives and puts each tool call and outcome on its own line", () => {
    const [start, result] = toolEvents("t1", "Read", { file_path: "a.ts" }, "1\tx\n2\ty\n");
    const text = render([delta("Let me "), delta("look."), start, result, delta("Done.")]);
    expect(text).toBe("Let me look.\n⏺ Read(a.ts)\n  ⎿ ✓ 2 lines\nDone.");
  });

  it("shows the first line of an error and names the tool when other lines came between", () => {
    const [startA, resultA] = toolEvents("a", "Read", { file_path: "a.ts" }, "ok");
    const [startB, resultB] = toolEvents("b", "Bash", { command: "false" }, "Exit code 1\nmore", true);
    const text = render([startA, startB, resultA, resultB]);
    expect(text).toBe("⏺ Read(a.ts)\n⏺ Bash(false)\n  ⎿ ✓ Read(a.ts): ok\n  ⎿ ✗ Bash(false): Exit code 1\n");
  });

  it("rewrites progress in place on a TTY and prints it only when verbose elsewhere", () => {
    const [start, result] = toolEvents("t", "Bash", { command: "make" }, "built");
    const progress: EngineEvent = { type: "tool_progress", toolUseId: "t", message: "compiling" };
    expect(render([start, progress, progress, result], true)).toBe(
      "⏺ Bash(make)\n\r\x1b[2K  ⎿ compiling\r\x1b[2K  ⎿ compiling\r\x1b[2K  ⎿ ✓ built\n",
    );
    expect(render([start, progress, result])).toBe("⏺ Bash(make)\n  ⎿ ✓ built\n");
    expect(render([start, progress, result], false, true)).toBe(
      "⏺ Bash(make)\n  ⎿ compiling\n  ⎿ ✓ Bash(make): built\n",
    );
  });

  it("reports interruptions and errors at the end of a turn, and compaction records", () => {
    const end = (reason: "aborted" | "error", error?: string): EngineEvent => ({
      type: "turn_end",
      reason,
      usage: emptyUsage(),
      iterations: 1,
      answeredRequests: 1,
      lastText: "",
      ...(error !== undefined ? { error } : {}),
    });
    expect(render([delta("partial"), end("aborted")])).toBe("partial\nInterrupted.\n");
    expect(render([end("error", "overloaded")])).toBe("✗ overloaded\n");
    const boundary = createSystemEntry(context, "compact_boundary", "compacted", {
      compactMetadata: { trigger: "manual", preTokens: 150_000, postTokens: 12_000 },
    });
    expect(render([{ type: "entry", entry: boundary }])).toBe("✻ Compacted: 150,000 → 12,000 tokens\n");
  });
});

describe("status line and tiers", () => {
  it("formats context percentage, tokens, cache ratio and cost", () => {
    const totals = {
      ...emptyUsage(),
      inputTokens: 1_000,
      cacheReadInputTokens: 9_000,
      outputTokens: 340,
      costUsd: 0.01234,
    };
    expect(cacheHitRatio(totals)).toBeCloseTo(0.9);
    const line = formatStatusLine({
      contextTokens: 24_300,
      contextWindow: 200_000,
      totals,
      turnMillis: 0,
      toolCalls: 0,
      toolErrors: 0,
      turns: 1,
    });
    expect(line).toBe("ctx 12% (24k/200k) · in 10k · out 340 · cache 90% · $0.0123");
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(1_250)).toBe("1.3k");
    expect(formatTokens(2_500_000)).toBe("2.50M");
  });

  it("counts what each tier recorded", () => {
    const entries = [
      createSystemEntry(context, "snip_boundary", "", { snipMetadata: { removedUuids: ["a", "b"] } }),
      createSystemEntry(context, "microcompact_boundary", "", {
        microcompactMetadata: { trigger: "cached", preTokens: 1, tokensSaved: 500, compactedToolIds: ["x", "y", "z"] },
      }),
    ];
    const activity = tierActivity(entries);
    expect(activity).toMatchObject({ snipBoundaries: 1, snippedMessages: 2, clearedToolResults: 3, compactions: 0 });
    const lines = formatTierLines(activity, { ...DEFAULT_COMPACTION_SETTINGS, collapse: false });
    expect(lines[0]).toContain("1 snips, 2 messages removed");
    expect(lines[1]).toContain("3 tool results cleared (~500 tokens)");
    expect(lines[2]).toMatch(/^collapse +off/);
  });
});

describe("prompt helpers", () => {
  it("treats only y/yes and a/always as consent", () => {
    expect(parsePermissionAnswer("Y")).toEqual({ answer: "yes", reason: "" });
    expect(parsePermissionAnswer(" always ")).toEqual({ answer: "always", reason: "" });
    expect(parsePermissionAnswer("")).toEqual({ answer: "no", reason: "" });
    expect(parsePermissionAnswer("sure")).toEqual({ answer: "no", reason: "" });
    // End of input (or Ctrl-C on a pipe) dismisses the question: the turn stops, nothing runs.
    expect(parsePermissionAnswer(null)).toEqual({ answer: "cancel", reason: "" });
    // A no can carry what to do instead; a word that merely starts with n is not a reason.
    expect(parsePermissionAnswer("n, run the tests first")).toEqual({ answer: "no", reason: "run the tests first" });
    expect(parsePermissionAnswer("no — use pnpm")).toEqual({ answer: "no", reason: "use pnpm" });
    expect(parsePermissionAnswer("nope")).toEqual({ answer: "no", reason: "" });
  });

  it("recognises slash commands but not paths", () => {
    expect(isSlashCommand("/cost")).toBe(true);
    expect(isSlashCommand("/compact keep the API notes")).toBe(true);
    expect(isSlashCommand("/usr/bin/env is odd")).toBe(false);
    expect(isSlashCommand("what does /cost do")).toBe(false);
  });
});
