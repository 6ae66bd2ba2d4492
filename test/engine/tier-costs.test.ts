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
import { describe, expect, it } from "vitest";
import { sessionCost } from "../../bench/lib/cost.js";
import {
  DEFAULT_LONG_SESSION,
  longSessionPrompt,
  longSessionSteps,
  writeLongSessionFiles,
} from "../../bench/lib/long-session.js";
import { type CompactionSettings, DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/index.js";
import type { Turn } from "../../src/emulator/index.js";
import { collect } from "../../support/collect.js";
import { startHarness } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

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
      if (tier !== "autocompact") expect({ tier, over: alone.cost > off.cost }).toEqual({ tier, over: false });
      expect({ tier, over: defaults.cost > without.cost }).toEqual({ tier, over: false });
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
    expect(alone.cost - alone.sideCost).toBeLessThanOrEqual(off.cost);
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
});
