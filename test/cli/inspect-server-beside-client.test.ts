/**
 * `inspect` shows the server's cache-miss reason beside the client's own break detection, and says where they
 * disagree (issue 55: the server compared the two requests itself, so a disagreement is the client detector's
 * bug). Oracles: the emulator's own ledger reason over HTTP (a session whose system prompt changes at turn 3),
 * and literal notices and requests for the disagreement the live pipeline cannot be made to produce.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { CacheBreak } from "../../src/cache/index.js";
import { findBreaks } from "../../src/cli/inspect/breaks.js";
import { inspectRecords } from "../../src/cli/inspect/report.js";
import { emptyRequest } from "../../src/cli/inspect/request.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("inspect: the server's reason beside the client's", () => {
  // Mutations caught: cache-miss-reason-unrecorded (no reason on the request), diagnostics-fingerprinted (the
  // client blames the diagnostics field itself).
  it("a changed system prompt: the server's words first, the client detector agreeing beside them", async () => {
    const scenario = [...readEachFileScenario(sourceFileNames(2)), "Second.", "Third."];
    // The anthropic profile declares diagnostics (generally available): no switch needed.
    harness = await startHarness({ scenario }, { model: "claude-sonnet-4-20250514" }, { profile: "anthropic" });
    await writeSourceFiles(harness.workspace, 2);
    await collect(harness.engine.submitMessage("Read both modules."));
    await collect(harness.engine.submitMessage("And now?"));
    harness.engine.config.systemPrompt = [...harness.engine.config.systemPrompt, "Always answer in French."];
    await collect(harness.engine.submitMessage("Encore?"));
    // The emulator's own ledger said why: the last response carried system_changed.
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    expect(posts.every((entry) => (entry.body as Record<string, unknown>).diagnostics !== undefined)).toBe(true);
    const report = await inspectRecords(harness.engine.timeline.entries);
    const last = report.requests.at(-1)!;
    expect(last.serverCacheMiss?.reason).toBe("system_changed");
    const found = report.breaks.find((each) => each.requestIndex === last.index);
    expect(found?.source).toBe("server");
    expect(found?.causes[0]).toMatch(/^server says: system prompt changed/);
    expect(found?.client?.agrees).toBe(true);
    expect(found?.client?.causes[0]).toBe("system prompt changed");
    // `diagnostics` names the previous response on every request: never a cause (the detector bug this found).
    expect(JSON.stringify(found?.client?.causes)).not.toContain("diagnostics");
    expect(found?.causes[1]).toMatch(/^client detector agrees: system prompt changed/);
  });

  // Mutation caught: server-client-disagreement-hidden (every client verdict called an agreement).
  it("says so where they disagree: the client named another part, or found no change", () => {
    const request = (index: number, cacheRead: number, reason: string | null) => ({
      afterBoundary: null,
      request: {
        ...emptyRequest(`msg_${index}`, "main", "claude-opus-5-5", null, index),
        index,
        cacheReadTokens: cacheRead,
        serverCacheMiss: reason === null ? null : { reason, missedTokens: 9_000 },
      },
    });
    const notice = (previousCacheRead: number, cacheRead: number, causes: string[]): CacheBreak => ({
      scope: "main",
      previousCacheRead,
      cacheRead,
      drop: previousCacheRead - cacheRead,
      kind: "client_change",
      causes,
      gapMs: 1_000,
    });
    const breaks = findBreaks(
      [
        request(1, 0, null),
        request(2, 10_000, null),
        request(3, 1_000, "tools_changed"),
        request(4, 20_000, null),
      ].concat([request(5, 2_000, "messages_changed")]),
      [
        notice(10_000, 1_000, ["server says: tools changed (~9,000 tokens missed)", "system prompt changed"]),
        notice(20_000, 2_000, ["server says: an earlier message changed (~9,000 tokens missed)"]),
      ],
    );
    expect(breaks.map((each) => [each.requestIndex, each.client])).toEqual([
      [3, { causes: ["system prompt changed"], agrees: false }],
      [5, { causes: [], agrees: false }],
    ]);
    expect(breaks[0]!.causes).toEqual([
      "server says: tools changed (~9,000 tokens missed)",
      "client detector system prompt changed: disagrees with the server (a detector bug)",
    ]);
    expect(breaks[1]!.causes[1]).toBe("client detector found no change: disagrees with the server (a detector bug)");
  });

  it("a tool change the client named agrees with tools_changed", () => {
    const breaks = findBreaks(
      [
        {
          afterBoundary: null,
          request: { ...emptyRequest("a", "main", "m", null, 1), index: 1, cacheReadTokens: 8_000 },
        },
        {
          afterBoundary: null,
          request: {
            ...emptyRequest("b", "main", "m", null, 2),
            index: 2,
            cacheReadTokens: 100,
            serverCacheMiss: { reason: "tools_changed", missedTokens: null },
          },
        },
      ],
      [
        {
          scope: "main",
          previousCacheRead: 8_000,
          cacheRead: 100,
          drop: 7_900,
          kind: "client_change",
          causes: ["tool Read changed (description)"],
          gapMs: 0,
        },
      ],
    );
    expect(breaks[0]!.client).toEqual({ causes: ["tool Read changed (description)"], agrees: true });
  });
});
