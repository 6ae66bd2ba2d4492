import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CacheBreakDetector } from "../../src/cache/index.js";
import { formatInspectReport, type InspectReport, inspectRecords, runInspect } from "../../src/cli/inspect/inspect.js";
import type { Usage } from "../../src/messages/content.js";
import type { CollapseCommitRecord, TimelineEntry } from "../../src/messages/entries.js";
import {
  createAssistantEntry,
  createSystemEntry,
  createUserEntry,
  type EntryContext,
  textBlock,
} from "../../src/messages/index.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { makeRequest, SYSTEM } from "../cache/request-fixture.js";
import { capture } from "./inspect-helpers.js";

const SESSION = "tl-session";
let clock = Date.parse("2025-11-01T09:00:00.000Z");

function context(uuid: string, parentUuid: string | null): EntryContext {
  clock += 5_000;
  return { sessionId: SESSION, parentUuid, uuid, now: new Date(clock) };
}

function usage(input: number, cacheWrite: number, cacheRead: number, output: number): Usage {
  return {
    input_tokens: input,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: output,
  };
}

/**
 * A session with every compaction tier and two cache drops: one right after a microcompact (expected) and one
 * the live detector explained and recorded as a system notice.
 */
async function buildTranscript(diffDir: string): Promise<Array<TimelineEntry | Record<string, unknown>>> {
  const detector = new CacheBreakDetector({ diffDir, now: () => clock });
  const records: Array<TimelineEntry | Record<string, unknown>> = [
    {
      type: "header",
      version: 1,
      sessionId: SESSION,
      cwd: "/work",
      createdAt: "2025-11-01T09:00:00.000Z",
      generator: "threadline",
    },
  ];
  const user1 = createUserEntry(context("u1", null), "x".repeat(4_000)); // 1,000 tokens
  const reply1 = createAssistantEntry(context("a1", "u1"), textBlock("z".repeat(400)), {
    messageId: "msg_a",
    model: "claude-sonnet-4-5",
    usage: usage(100, 30_000, 0, 100),
  }); // 100 tokens
  const user2 = createUserEntry(context("u2", "a1"), "y".repeat(8_000)); // 2,000 tokens
  const reply2 = createAssistantEntry(context("b1", "u2"), textBlock("b".repeat(800)), {
    messageId: "msg_b",
    model: "claude-sonnet-4-5",
    usage: usage(100, 2_000, 30_000, 100),
  }); // 200 tokens
  records.push(user1, reply1, user2, reply2);
  records.push(
    createSystemEntry(context("s1", "b1"), "snip_boundary", "Snipped 2 messages", {
      snipMetadata: { removedUuids: ["u1", "a1"] },
    }),
  );
  records.push(
    createSystemEntry(context("m1", "s1"), "microcompact_boundary", "Cleared old tool results", {
      microcompactMetadata: { trigger: "time", preTokens: 40_000, tokensSaved: 5_000, compactedToolIds: ["toolu_1"] },
    }),
  );
  records.push(createUserEntry(context("u3", "m1"), "w".repeat(2_000)));
  records.push(
    createAssistantEntry(context("c1", "u3"), textBlock("ok"), {
      messageId: "msg_c",
      model: "claude-sonnet-4-5",
      usage: usage(100, 500, 20_000, 100),
    }),
  );
  // The live detector sees the same two requests and a changed system prompt.
  detector.beforeRequest(makeRequest());
  detector.afterResponse(usage(100, 500, 20_000, 100));
  const edited = [SYSTEM[0]!, { ...SYSTEM[1]!, text: "Environment: linux\nCwd: /changed" }];
  detector.beforeRequest(makeRequest({ system: edited }));
  const cacheBreak = detector.afterResponse(usage(100, 19_000, 1_000, 100));
  if (cacheBreak === null) throw new Error("the detector should have reported a break");
  records.push(createUserEntry(context("u4", "c1"), "next"));
  records.push(
    createAssistantEntry(context("d1", "u4"), textBlock("done"), {
      messageId: "msg_d",
      model: "claude-sonnet-4-5",
      usage: usage(100, 19_000, 1_000, 100),
    }),
  );
  records.push(
    createSystemEntry(context("n1", "d1"), "informational", detector.describe(cacheBreak), { level: "warning" }),
  );
  records.push(
    createSystemEntry(context("k1", "n1"), "compact_boundary", "Conversation compacted", {
      compactMetadata: { trigger: "auto", preTokens: 150_000, postTokens: 20_000 },
      logicalParentUuid: "n1",
    }),
  );
  const commit: CollapseCommitRecord = {
    type: "collapse-commit",
    collapseId: "col-1",
    summaryUuid: "sum-1",
    summary: "s".repeat(40), // 10 tokens
    firstArchivedUuid: "u2",
    lastArchivedUuid: "b1",
    timestamp: new Date(clock).toISOString(),
    sessionId: SESSION,
  };
  records.push(commit);
  return records;
}

describe("threadline inspect on a threadline transcript", () => {
  let directory: string;
  let records: Array<TimelineEntry | Record<string, unknown>>;
  let report: InspectReport;

  beforeAll(async () => {
    directory = await makeTempDir("inspect-tl");
    records = await buildTranscript(directory);
    report = await inspectRecords(records);
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("shows what each compaction tier saved", () => {
    expect(report.format).toBe("threadline");
    expect(report.compaction.map(({ savedUsd: _, ...tier }) => tier)).toEqual([
      { tier: "snip", events: 1, tokensSaved: 1_100 },
      { tier: "microcompact", events: 1, tokensSaved: 5_000 },
      { tier: "collapse", events: 1, tokensSaved: 2_190 },
      { tier: "compact", events: 1, tokensSaved: 130_000 },
    ]);
    // Dollars: saved tokens × later main requests × the cache-read price ($0.30/MTok for Sonnet 4.5).
    // Snip and microcompact came after request 2 of 4 (2 later requests); collapse and compact after the last.
    const dollars = report.compaction.map((tier) => Number(tier.savedUsd.toFixed(9)));
    expect(dollars).toEqual([(1_100 * 2 * 0.3) / 1e6, (5_000 * 2 * 0.3) / 1e6, 0, 0]);
  });

  it("groups requests by prompt and places compactions and breaks on the timeline", () => {
    expect(report.prompts.map((prompt) => [prompt.index, prompt.requests, prompt.text.length])).toEqual([
      [1, 1, 80],
      [2, 1, 80],
      [3, 1, 80],
      [4, 1, 4],
    ]);
    expect(report.requests[2]!.after).toBe("snipped 2 messages; 1 old tool result cleared (~5,000 tokens)");
    expect(report.events.map((event) => [event.beforeRequest, event.kind])).toEqual([
      [3, "snip"],
      [3, "microcompact"],
      [4, "break"],
      [5, "compact"],
      [5, "collapse"],
    ]);
    expect(report.unknownModels).toEqual([]);
  });

  it("marks a drop right after a compaction record as expected, and takes recorded causes from notices", async () => {
    expect(report.breaks).toHaveLength(2);
    expect(report.breaks[0]).toMatchObject({
      requestIndex: 3,
      kind: "expected",
      causes: ["expected drop after microcompact_boundary"],
    });
    const recorded = report.breaks[1]!;
    expect(recorded).toMatchObject({
      requestIndex: 4,
      previousCacheRead: 20_000,
      cacheRead: 1_000,
      kind: "client_change",
      causes: ["system prompt changed"],
      source: "notice",
    });
    expect(await readFile(recorded.diffPath!, "utf8")).toContain("+Cwd: /changed");
  });

  it("reads the same from a file, in text and JSON", async () => {
    const path = join(directory, `${SESSION}.jsonl`);
    await writeFile(path, records.map((record) => JSON.stringify(record)).join("\n") + "\n");
    const json = await capture((io) => runInspect(["--json", path], io));
    expect(json.code).toBe(0);
    const fromFile = JSON.parse(json.stdout) as InspectReport;
    expect(fromFile.compaction).toEqual(report.compaction);
    expect(fromFile.breaks).toEqual(report.breaks);
    const text = formatInspectReport(fromFile);
    expect(text).toMatch(/compact\s+1 events\s+130,000 tokens/);
    expect(text).toContain("request #4: cache read 20,000 → 1,000 (-19,000): system prompt changed (diff: ");
    expect(text).toContain("1 expected drop after a compaction or clear, not breaks");
  });
});
