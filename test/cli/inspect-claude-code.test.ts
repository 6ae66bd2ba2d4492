import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InspectReport, runInspect, UNKNOWN_BREAK_CAUSE } from "../../src/cli/inspect/inspect.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { capture } from "./inspect-helpers.js";

const FIXTURE = new URL("../fixtures/inspect/claude-code-session.jsonl", import.meta.url).pathname;

describe("threadline inspect on a Claude Code transcript", () => {
  let report: InspectReport;
  let directory: string;

  beforeAll(async () => {
    directory = await makeTempDir("inspect-cc");
    const result = await capture((io) => runInspect(["--json", FIXTURE], io));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    report = JSON.parse(result.stdout) as InspectReport;
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("counts one request per message.id, with the last record's usage", () => {
    expect(report.format).toBe("claude-code");
    expect(report.requests.map((request) => request.messageId)).toEqual(["msg_01", "msg_02", "msg_03", "msg_04"]);
    const first = report.requests[0]!;
    expect(first.outputTokens).toBe(120);
    expect(first.line).toBe(3);
  });

  it("prices each request from the model table with cache multipliers (1h writes at 2x)", () => {
    const costs = report.requests.map((request) => Number(request.costUsd.toFixed(9)));
    // msg_01: 10×3 + 20,000×1.25×3 + 120×15 = 76,830 µ$; msg_02: 5×3 + 1,000×2×3 + 20,000×0.1×3 + 50×15 = 12,765;
    // msg_03 (haiku): 100×1 + 3,000×1.25×1 + 30×5 = 4,000; msg_04: 8×3 + 21,000×1.25×3 + 60×15 = 79,674.
    expect(costs).toEqual([0.07683, 0.012765, 0.004, 0.079674]);
    expect(report.totals).toMatchObject({
      requests: 4,
      inputTokens: 123,
      cacheReadTokens: 20_000,
      cacheWriteTokens: 45_000,
      outputTokens: 260,
    });
    expect(report.totals.costUsd).toBeCloseTo(0.173269, 9);
    expect(report.totals.hitRatio).toBeCloseTo(20_000 / 65_123, 12);
  });

  it("attributes sidechain tokens to their agent", () => {
    expect(report.requests[2]).toMatchObject({ scope: "agent-a", model: "claude-haiku-4-5-20251001" });
    expect(report.scopes.map((scope) => [scope.scope, scope.requests, scope.inputTokens])).toEqual([
      ["main", 3, 23],
      ["agent-a", 1, 100],
    ]);
  });

  it("derives the cache break from the usage sequence, noting the idle gap", () => {
    expect(report.breaks).toHaveLength(1);
    expect(report.breaks[0]).toMatchObject({
      scope: "main",
      requestIndex: 4,
      previousCacheRead: 20_000,
      cacheRead: 0,
      drop: 20_000,
      kind: "unknown",
      source: "usage",
    });
    expect(report.breaks[0]!.causes[0]).toBe(UNKNOWN_BREAK_CAUSE);
    expect(report.breaks[0]!.causes[1]).toContain("9m 55s");
  });

  it("reports the malformed line by number and skips metadata records", () => {
    expect(report.malformedLines).toHaveLength(1);
    expect(report.malformedLines[0]!.line).toBe(11);
    expect(report.skippedRecords).toEqual({ summary: 1, "file-history-snapshot": 1, "custom-title": 1 });
  });

  it("prints a readable table with totals and the break", async () => {
    const result = await capture((io) => runInspect([FIXTURE], io));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Claude Code transcript");
    expect(result.stdout).toMatch(/Total: 4 requests, input 123, cache read 20,000, cache write 45,000, output 260/);
    expect(result.stdout).toContain("$0.1733");
    expect(result.stdout).toContain("request #4: cache read 20,000 → 0");
    expect(result.stdout).toContain("line 11:");
  });

  it("shows progress on stderr only when it is a terminal, and erases it before the report", async () => {
    const onTerminal = await capture((io) => runInspect(["inspect", FIXTURE], { ...io, isTTY: true }));
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.stderr).toMatch(/^\rreading claude-code-session\.jsonl: 100% .*\r\x1b\[K$/);
    const piped = await capture((io) => runInspect([FIXTURE], io));
    expect(piped.stderr).toBe("");
  });

  it("a missing file is one line on stderr and exit code 1", async () => {
    const result = await capture((io) => runInspect([join(directory, "nope.jsonl")], io));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`threadline inspect: no such file: ${join(directory, "nope.jsonl")}\n`);
  });

  it("a file that is not JSONL is one line on stderr and exit code 1", async () => {
    const path = join(directory, "notes.jsonl");
    await writeFile(path, "hello\nthis is not json\n");
    const result = await capture((io) => runInspect([path], io));
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("is not a JSONL transcript");
  });

  it("an empty file, a JSON file that is no transcript and a transcript without requests each say so and exit 1", async () => {
    const cases: Array<[string, string, string]> = [
      ["empty.jsonl", "", "is empty"],
      [
        "other.jsonl",
        '{"type":"event","name":"x"}\n{"type":"event","name":"y"}\n',
        "is not a threadline or Claude Code transcript",
      ],
      ["header.jsonl", '{"type":"header","version":1}\n', "holds no model requests"],
    ];
    for (const [name, content, words] of cases) {
      const path = join(directory, name);
      await writeFile(path, content);
      const result = await capture((io) => runInspect([path], io));
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `threadline inspect: ${path} ${words}${words === "is empty" ? "" : result.stderr.slice(`threadline inspect: ${path} ${words}`.length, -1)}\n`,
      );
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });

  it("flags a model missing from the price table in the JSON and the text", async () => {
    const body = await readFile(FIXTURE, "utf8");
    const path = join(directory, "unknown-model.jsonl");
    await writeFile(path, body.replaceAll("claude-sonnet-4-5-20250929", "claude-nonesuch-9"));
    const json = await capture((io) => runInspect(["--json", path], io));
    const parsed = JSON.parse(json.stdout) as InspectReport;
    expect(parsed.unknownModels).toEqual(["claude-nonesuch-9"]);
    expect(parsed.requests.map((request) => request.knownModel)).toEqual([false, false, true, false]);
    const text = await capture((io) => runInspect([path], io));
    expect(text.stdout).toContain("Warning: model claude-nonesuch-9 is not in threadline's price table");
    expect(text.stdout).toContain("unknown model: fallback prices");
  });

  it("usage errors exit 2", async () => {
    expect((await capture((io) => runInspect([], io))).code).toBe(2);
    expect((await capture((io) => runInspect(["--bogus", FIXTURE], io))).code).toBe(2);
    expect((await capture((io) => runInspect(["a.jsonl", "b.jsonl"], io))).code).toBe(2);
  });

  it("a session id is found under THREADLINE_HOME projects, then under ~/.claude/projects", async () => {
    const threadlineHome = join(directory, "tl-home");
    const userHome = join(directory, "user-home");
    const claudeProject = join(userHome, ".claude", "projects", "-home-dev-app");
    await mkdir(claudeProject, { recursive: true });
    await copyFile(FIXTURE, join(claudeProject, "cc-session.jsonl"));
    const env = { THREADLINE_HOME: threadlineHome, HOME: userHome };
    const fromClaude = await capture((io) => runInspect(["--json", "cc-session"], io), env);
    expect(fromClaude.code).toBe(0);
    expect((JSON.parse(fromClaude.stdout) as InspectReport).requests).toHaveLength(4);

    const otherProject = join(threadlineHome, "projects", "-some-other-dir");
    await mkdir(otherProject, { recursive: true });
    const body = await readFile(FIXTURE, "utf8");
    await writeFile(join(otherProject, "cc-session.jsonl"), `{"type":"header","version":1}\n${body}`);
    const fromThreadline = await capture((io) => runInspect(["--json", "cc-session"], io), env);
    expect((JSON.parse(fromThreadline.stdout) as InspectReport).format).toBe("threadline");

    const missing = await capture((io) => runInspect(["no-such-session"], io), env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^threadline inspect: no transcript for session no-such-session .*\n$/);
  });
});

describe("threadline inspect counts the requests Claude Code recorded as refused", () => {
  it("counts its retry entries and its synthetic error replies, by kind", async () => {
    const directory = await makeTempDir("inspect-cc-refused");
    try {
      const path = join(directory, "refused.jsonl");
      // The shapes Claude Code writes: a `system` `api_error` per retried attempt, a synthetic assistant reply
      // (`isApiErrorMessage`, model `<synthetic>`) for the one it gave up on.
      const lines = [
        { type: "user", uuid: "u1", timestamp: "2026-10-04T10:00:00.000Z", message: { role: "user", content: "hi" } },
        {
          type: "system",
          subtype: "api_error",
          level: "error",
          timestamp: "2026-10-04T10:00:01.000Z",
          retryAttempt: 1,
          maxRetries: 10,
          retryInMs: 500,
          error: { status: 529, message: "overloaded" },
        },
        {
          type: "assistant",
          uuid: "a1",
          timestamp: "2026-10-04T10:00:02.000Z",
          message: {
            id: "msg_1",
            model: "claude-sonnet-4-20250514",
            role: "assistant",
            content: [{ type: "text", text: "Hello" }],
            usage: { input_tokens: 10, output_tokens: 5 },
          },
        },
        {
          type: "assistant",
          uuid: "a2",
          timestamp: "2026-10-04T10:00:03.000Z",
          isApiErrorMessage: true,
          message: {
            id: "m2",
            model: "<synthetic>",
            role: "assistant",
            content: [{ type: "text", text: "Prompt is too long" }],
          },
        },
      ];
      await writeFile(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
      const result = await capture((io) => runInspect([path], io));
      expect(result.code).toBe(0);
      expect(result.stdout.split("\n")[0]).toContain(
        "1 requests answered, 2 refused by the server: overloaded ×1, prompt too long ×1",
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
