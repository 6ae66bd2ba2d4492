import { readFile, rm } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CacheBreakDetector, formatCacheReport, parseCacheBreakNotice, TTL_5M_MS } from "../../src/cache/index.js";
import type { Usage } from "../../src/messages/content.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { BASH_TOOL, makeRequest, READ_TOOL, SYSTEM } from "./request-fixture.js";

function usage(cacheRead: number, cacheWrite = 0): Usage {
  return {
    input_tokens: 10,
    output_tokens: 50,
    cache_read_input_tokens: cacheRead,
    cache_creation_input_tokens: cacheWrite,
  };
}

describe("CacheBreakDetector", () => {
  let diffDir: string;
  let clock: number;
  let detector: CacheBreakDetector;

  beforeEach(async () => {
    diffDir = await makeTempDir("cache-test");
    clock = 1_000_000;
    detector = new CacheBreakDetector({ diffDir, now: () => clock });
  });
  afterEach(async () => {
    await rm(diffDir, { recursive: true, force: true });
  });

  /** One request/response round, 10 seconds after the previous. */
  function round(request = makeRequest(), cacheRead = 50_000, scope?: string) {
    clock += 10_000;
    detector.beforeRequest(request, scope);
    return detector.afterResponse(usage(cacheRead), scope);
  }

  it("a steady cache reports nothing", () => {
    expect(round(makeRequest(), 0)).toBeNull();
    expect(round(makeRequest(), 50_000)).toBeNull();
    expect(round(makeRequest(), 52_000)).toBeNull();
  });

  it("a system prompt change is a client_change break with a diff file showing the changed line", async () => {
    round();
    const edited = [SYSTEM[0]!, { ...SYSTEM[1]!, text: "Environment: linux\nCwd: /elsewhere" }];
    const cacheBreak = round(makeRequest({ system: edited }), 3_000);
    expect(cacheBreak).not.toBeNull();
    expect(cacheBreak!.kind).toBe("client_change");
    expect(cacheBreak!.causes).toEqual(["system prompt changed"]);
    expect(cacheBreak!.drop).toBe(47_000);
    expect(cacheBreak!.diffPath?.startsWith(diffDir)).toBe(true);
    const diff = await readFile(cacheBreak!.diffPath!, "utf8");
    expect(diff).toContain("-Cwd: /work\n");
    expect(diff).toContain("+Cwd: /elsewhere\n");
    expect(diff).toContain("=== tools ===\n(unchanged)");
  });

  it("a changed tool description names that tool", async () => {
    round();
    const read = { ...READ_TOOL, description: "Reads any file, fast." };
    const cacheBreak = round(makeRequest({ tools: [read, BASH_TOOL] }), 0);
    expect(cacheBreak?.causes).toEqual(["tool Read changed (description)"]);
    const diff = await readFile(cacheBreak!.diffPath!, "utf8");
    expect(diff).toContain('+  "description": "Reads any file, fast.",');
  });

  it("model and beta changes are named with their values", () => {
    round(makeRequest(), 50_000);
    clock += 10_000;
    detector.beforeRequest(makeRequest({ model: "claude-opus-4-5" }, ["beta-x"]));
    const cacheBreak = detector.afterResponse(usage(0));
    expect(cacheBreak?.causes).toEqual([
      "model changed: claude-sonnet-4-5 → claude-opus-4-5",
      "betas changed: +beta-x",
    ]);
  });

  it("an idle gap over 5 minutes with nothing changed is TTL expiry", () => {
    round();
    clock += 6 * 60 * 1000;
    detector.beforeRequest(makeRequest());
    const cacheBreak = detector.afterResponse(usage(0));
    expect(cacheBreak?.kind).toBe("ttl_expiry");
    expect(cacheBreak?.gapMs).toBeGreaterThan(TTL_5M_MS);
    expect(cacheBreak?.diffPath).toBeUndefined();
  });

  it("with a 1h TTL, a 6-minute gap is not TTL expiry but likely server-side", () => {
    const oneHour = [SYSTEM[0]!, { ...SYSTEM[1]!, cache_control: { type: "ephemeral" as const, ttl: "1h" as const } }];
    round(makeRequest({ system: oneHour }));
    clock += 6 * 60 * 1000;
    detector.beforeRequest(makeRequest({ system: oneHour }));
    const cacheBreak = detector.afterResponse(usage(0));
    expect(cacheBreak?.kind).toBe("server_side");
    expect(cacheBreak?.causes).toEqual(["likely server-side"]);
  });

  it("with a 1h system prompt under a 5m conversation (the cold-start hedge), a 6-minute gap is TTL expiry", () => {
    // Mutation caught: ttl-from-first-marker (the system prompt's 1h taken for the whole prefix's).
    const oneHour = [SYSTEM[0]!, { ...SYSTEM[1]!, cache_control: { type: "ephemeral" as const, ttl: "1h" as const } }];
    const messages = [
      {
        role: "user" as const,
        content: [{ type: "text" as const, text: "hello", cache_control: { type: "ephemeral" as const } }],
      },
    ];
    round(makeRequest({ system: oneHour, messages }));
    clock += 6 * 60 * 1000;
    detector.beforeRequest(makeRequest({ system: oneHour, messages }));
    const cacheBreak = detector.afterResponse(usage(3_000));
    expect(cacheBreak?.kind).toBe("ttl_expiry");
  });

  it("expectDrop suppresses the next break and resets the baseline to it", () => {
    round(makeRequest(), 50_000);
    detector.expectDrop("compaction");
    expect(round(makeRequest(), 10_000)).toBeNull();
    // The baseline is now 10,000: a further fall to 7,000 is a break measured from there.
    const cacheBreak = round(makeRequest(), 7_000);
    expect(cacheBreak?.previousCacheRead).toBe(10_000);
    expect(cacheBreak?.drop).toBe(3_000);
  });

  it("an expected drop does not hide a system prompt changed at the same time", () => {
    round(makeRequest(), 50_000);
    detector.expectDrop("compaction");
    const edited = [SYSTEM[0]!, { ...SYSTEM[1]!, text: "Environment: injected" }];
    const cacheBreak = round(makeRequest({ system: edited }), 0);
    expect(cacheBreak?.kind).toBe("client_change");
    expect(cacheBreak?.causes).toEqual(["system prompt changed"]);
  });

  it("cache-edit deletions of known size are expected up to that size, and a larger fall is still a break", () => {
    round(makeRequest(), 50_000);
    // Deleting 20,000 tokens: 30,500 read is what that explains (and 5% more would be fine too).
    detector.expectDrop("cache edits", undefined, 20_000);
    expect(round(makeRequest(), 30_500)).toBeNull();
    // Without the expectation the same fall is a break.
    expect(round(makeRequest(), 10_000)?.kind).toBe("server_side");
    round(makeRequest(), 50_000);
    detector.expectDrop("cache edits", undefined, 20_000);
    const tooMuch = round(makeRequest(), 5_000);
    expect(tooMuch).toMatchObject({ previousCacheRead: 50_000, cacheRead: 5_000, kind: "server_side" });
  });

  it("prefers the server's cache-miss reason, even over an expected drop", () => {
    round(makeRequest(), 50_000);
    detector.expectDrop("compaction");
    clock += 10_000;
    detector.beforeRequest(makeRequest());
    const cacheBreak = detector.afterResponse(usage(0), undefined, {
      type: "system_changed",
      cache_missed_input_tokens: 48_000,
    });
    expect(cacheBreak).toMatchObject({
      kind: "client_change",
      causes: ["server says: system prompt changed (~48,000 tokens missed)"],
    });
    // A server that could not tell adds its words to the client's own guess.
    round(makeRequest(), 50_000);
    clock += 10_000;
    detector.beforeRequest(makeRequest());
    const unknown = detector.afterResponse(usage(1_000), undefined, { type: "unavailable" });
    expect(unknown?.causes).toEqual(["likely server-side", "server says: the server could not tell"]);
  });

  it("a drop under 2,000 tokens is no break, even when proportionally large", () => {
    round(makeRequest(), 3_000);
    expect(round(makeRequest(), 1_500)).toBeNull();
  });

  it("a drop within 5% is no break, even when large in tokens", () => {
    round(makeRequest(), 100_000);
    expect(round(makeRequest(), 96_000)).toBeNull();
  });

  it("scopes keep separate baselines", () => {
    round(makeRequest(), 50_000, "main");
    expect(round(makeRequest(), 0, "agent-1")).toBeNull();
    expect(round(makeRequest(), 50_000, "main")).toBeNull();
    const cacheBreak = round(makeRequest({ model: "claude-opus-4-5" }), 0, "main");
    expect(cacheBreak?.scope).toBe("main");
  });

  it("describe gives one line that parses back to the same break, and the report lists it", () => {
    round();
    const cacheBreak = round(makeRequest({ tools: [READ_TOOL] }), 0)!;
    const line = detector.describe(cacheBreak);
    expect(line).not.toContain("\n");
    expect(parseCacheBreakNotice(line)).toEqual({ ...cacheBreak, gapMs: Math.round(cacheBreak.gapMs / 1000) * 1000 });
    const report = formatCacheReport(detector.stats());
    expect(report).toContain("[main] 2 requests");
    expect(report).toContain("tool Bash removed");
  });
});
