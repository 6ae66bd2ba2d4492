/**
 * No tier that is on by default makes a session cost more than the same session without it. The emulator's
 * token counts are deterministic, so the cost (input at cache prices + output at 5×, over every request,
 * side requests included) of the bundled sessions on the public path is compared exactly, for every tier
 * DEFAULT_COMPACTION_SETTINGS turns on (a tier turned on by default later is checked without editing this):
 * - the 40-step read-each-file session (tiers off can finish it): the tier alone against tiers off, and the
 *   defaults against the defaults without the tier;
 * - a 4-task cut of the closed-loop long session at a 200K window (tiers off stops at the blocking limit):
 *   the tier with autocompact against autocompact only, and the defaults against the defaults without it.
 * The closing answers need early facts, so a tier that clears them pays for the re-reads it causes.
 */

import type { RequestLogEntry, Turn } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { sessionCost } from "../../bench/lib/cost.js";
import {
  DEFAULT_LONG_SESSION,
  longSessionPrompt,
  longSessionSteps,
  writeLongSessionFiles,
} from "../../bench/lib/long-session.js";
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/index.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { collect } from "../../support/collect.js";
import { startHarness } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";
import { isSummaryRequest } from "./compaction-scenario.js";

const STEPS = 40;
const FIRST_LINE = "export function helper0_0(value: number): number { return value * 0 + 0; }";
const TIERS = ["snip", "microcompact", "collapse", "autocompact"] as const;
type Tier = (typeof TIERS)[number];
const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false } as const;
const DEFAULT_ON: Tier[] = TIERS.filter((tier) => DEFAULT_COMPACTION_SETTINGS[tier]);
const LONG = { ...DEFAULT_LONG_SESSION, tasks: 4 };

function readEachScenario(): Turn[] {
  const turns = readEachFileScenario(sourceFileNames(STEPS));
  turns[turns.length - 1] = {
    content: [{ type: "text", text: `Done. The first helper is ${FIRST_LINE}` }],
    needs: [{ text: FIRST_LINE, file: sourceFileNames(1)[0]! }],
  };
  return turns;
}

interface Figures {
  cost: number;
  /** The part of `cost` spent on side requests (summaries, session memory, collapse). */
  sideCost: number;
  sideRequests: number;
  factsLost: number;
  completed: boolean;
}

async function readEachCost(compaction: Partial<CompactionSettings>): Promise<Figures> {
  const harness = await startHarness(
    { scenario: readEachScenario(), cacheEditing: false },
    { compaction: { cacheEdits: "off", ...compaction } },
  );
  try {
    await writeSourceFiles(harness.workspace, STEPS);
    const events = await collect(harness.engine.submitMessage("Read every module, one at a time."));
    await harness.engine.idle();
    const end = events.findLast((event) => event.type === "turn_end");
    return { ...sessionCost(harness.emulator.requests), completed: end?.reason === "completed" };
  } finally {
    await harness.close();
  }
}

async function longCost(compaction: Partial<CompactionSettings>): Promise<Figures> {
  const harness = await startHarness(
    { scenario: longSessionSteps(LONG), contextWindow: 200_000, cacheEditing: false },
    { contextWindow: 200_000, transcript: false, compaction: { cacheEdits: "off", ...compaction } },
  );
  try {
    await writeLongSessionFiles(harness.workspace, LONG);
    let completed = true;
    for (let task = 0; task < LONG.tasks && completed; task++) {
      const events = await collect(harness.engine.submitMessage(longSessionPrompt(task)));
      completed = events.findLast((event) => event.type === "turn_end")?.reason === "completed";
    }
    await harness.engine.idle();
    return { ...sessionCost(harness.emulator.requests), completed };
  } finally {
    await harness.close();
  }
}

describe("default-on tiers never cost more than going without them (public path)", () => {
  it("snip and collapse are off by default; microcompact and autocompact are on", () => {
    expect(DEFAULT_ON).toEqual(["microcompact", "autocompact"]);
  });

  // Measured once per configuration and shared by the checks below.
  const readEach = new Map<string, Promise<Figures>>();
  const readEachOnce = (key: string, compaction: Partial<CompactionSettings>) => {
    if (!readEach.has(key)) readEach.set(key, readEachCost(compaction));
    return readEach.get(key)!;
  };

  it("40-step session: each default-on tier alone costs no more than tiers off (autocompact: below), the defaults no more than the defaults without it", async () => {
    const off = await readEachOnce("off", { ...OFF });
    const defaults = await readEachOnce("defaults", {});
    expect(off.completed && defaults.completed).toBe(true);
    expect(defaults.factsLost).toBe(0);
    expect(defaults.cost).toBeLessThan(off.cost * 0.8);
    for (const tier of DEFAULT_ON) {
      const alone = await readEachOnce(tier, { ...OFF, [tier]: true });
      const without = await readEachOnce(`no ${tier}`, { [tier]: false });
      expect({ tier, lost: alone.factsLost, completed: alone.completed }).toEqual({ tier, lost: 0, completed: true });
      // Each session runs in its own temporary folder, whose random path (in every request) the server's tokenizer
      // counts differently by a few tokens: where a tier never acts the two costs differ by that noise alone, so
      // "more" means more than 0.1 % (far below one more request, thousands of tokens; far above the noise).
      const over = (cost: number, base: number) => cost > base * 1.001;
      if (tier !== "autocompact") expect({ tier, over: over(alone.cost, off.cost) }).toEqual({ tier, over: false });
      expect({ tier, over: over(defaults.cost, without.cost) }).toEqual({ tier, over: false });
    }
  }, 240_000);

  // The known exception, pinned rather than hidden: on this single 40-step turn (134K tokens, over 75 % of the
  // 167K autocompact threshold) autocompact alone costs more than tiers off (+3.8 %), and all of the difference
  // is its session memory's one background update, which the session ends before any compaction uses. In the
  // defaults microcompact keeps the context far below. When the exception is gone, the second assertion fails.
  it("40-step session: autocompact alone costs more than tiers off only by one unused session-memory update", async () => {
    const off = await readEachOnce("off", { ...OFF });
    const alone = await readEachOnce("autocompact", { ...OFF, autocompact: true });
    expect(alone.sideRequests).toBe(1);
    expect(alone.cost).toBeGreaterThan(off.cost);
    // The two sessions run in different temporary folders whose paths (in every request) the server's tokenizer
    // counts differently by a few tokens; 0.1 % is far below one more request (thousands) and above that noise.
    expect(alone.cost - alone.sideCost).toBeLessThanOrEqual(off.cost * 1.001);
  }, 240_000);

  it("long session cut to 4 tasks at 200K (tiers off cannot finish): each default-on tier costs no more than autocompact only", async () => {
    const off = await longCost({ ...OFF });
    expect(off.completed).toBe(false);
    const autocompactOnly = await longCost({ ...OFF, autocompact: true });
    const defaults = await longCost({});
    expect(autocompactOnly.completed && defaults.completed).toBe(true);
    expect(defaults.factsLost).toBe(0);
    expect(defaults.cost).toBeLessThan(autocompactOnly.cost);
    for (const tier of DEFAULT_ON.filter((name) => name !== "autocompact")) {
      const withTier = await longCost({ ...OFF, autocompact: true, [tier]: true });
      const without = await longCost({ [tier]: false });
      expect({ tier, completed: withTier.completed, lost: withTier.factsLost }).toEqual({
        tier,
        completed: true,
        lost: 0,
      });
      expect({ tier, over: withTier.cost > autocompactOnly.cost }).toEqual({ tier, over: false });
      expect({ tier, over: defaults.cost > without.cost }).toEqual({ tier, over: false });
    }
  }, 240_000);

  // Sessions that really compact (issue 33): autocompact alone on the long session at 200K, session memory
  // off so every summary is a model call. Oracles are literals and the logged requests, never the constants:
  // - one summary request per compaction (mutation: sending the summary request three times fails it);
  // - the files attached again after a compaction take at most 18,000 tokens, 10 % of the 180,000 effective
  //   window (mutation: tripling the restore budget's window share attaches 5 files, 24,866 tokens, and fails it);
  // - the first request after each compaction is at most 66,800 tokens, 40 % of the 167,000 threshold (the
  //   tail rule itself is pinned with literal sizes in test/compaction/tail-budget.test.ts);
  // - the session costs no more than a literal ceiling from a run of it (mutation: any extra summary or
  //   restore pushes it over).
  it("long session at 200K, autocompact alone: it compacts, one summary each, restore and target within their literals", async () => {
    const harness = await startHarness(
      { scenario: longSessionSteps(LONG), contextWindow: 200_000, cacheEditing: false },
      {
        contextWindow: 200_000,
        transcript: false,
        sessionMemory: false,
        compaction: { cacheEdits: "off", ...OFF, autocompact: true },
      },
    );
    try {
      await writeLongSessionFiles(harness.workspace, LONG);
      for (let task = 0; task < LONG.tasks; task++) {
        const events = await collect(harness.engine.submitMessage(longSessionPrompt(task)));
        expect(events.findLast((event) => event.type === "turn_end")?.reason).toBe("completed");
      }
      await harness.engine.idle();
      const records = harness.emulator.requests.filter((record) => record.path === "/v1/messages");
      const boundaries = harness.engine.timeline.entries.filter(
        (entry) => entry.type === "system" && entry.subtype === "compact_boundary",
      );
      const summaries = records.filter((record) => isSummaryRequest(record.body));
      expect(boundaries.length).toBeGreaterThanOrEqual(1);
      expect(summaries).toHaveLength(boundaries.length);
      const afterEach = summaries.map((summary) => records[records.indexOf(summary) + 1]!);
      for (const next of afterEach) {
        expect(inputTokens(next)).toBeLessThanOrEqual(66_800);
        expect(restoredTokens(next)).toBeGreaterThan(0);
        expect(restoredTokens(next)).toBeLessThanOrEqual(18_000);
      }
      const figures = sessionCost(harness.emulator.requests);
      expect(figures.factsLost).toBe(0);
      expect(figures.cost).toBeLessThanOrEqual(COMPACTING_COST_CEILING);
    } finally {
      await harness.close();
    }
  }, 240_000);
});

/**
 * Ceiling for the compacting session's cost: 757,758 measured with the emulator's Claude tokenizer (one
 * compaction; the same session measured 633,816 when the emulator counted chars ÷ 4, ~1.2× fewer tokens for the
 * same text), plus 2 %.
 */
const COMPACTING_COST_CEILING = 773_000;

const RESTORED_HEADER = "Files read before the compaction, attached again as they are now:";

function inputTokens(record: RequestLogEntry): number {
  const usage = record.usage;
  return usage === undefined
    ? 0
    : usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/** Tokens (4 characters each) of the re-attached files' message in a logged request; 0 when there is none. */
function restoredTokens(record: RequestLogEntry): number {
  for (const message of (record.body as MessagesRequest).messages) {
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    for (const block of blocks) {
      if (block.type !== "text" || !("text" in block)) continue;
      const at = block.text.indexOf(RESTORED_HEADER);
      if (at !== -1) return Math.ceil((block.text.length - at) / 4);
    }
  }
  return 0;
}
