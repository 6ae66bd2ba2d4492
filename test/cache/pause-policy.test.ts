/**
 * The pause policy's prices, with literal figures worked by hand (oracle: the published multipliers —
 * read 0.1, 5-minute write 1.25, 1-hour write 2 — applied on paper, not the module's constants).
 */
import { describe, expect, it } from "vitest";
import {
  choosePausePolicy,
  hedgeCost,
  hindsight,
  type PauseSituation,
  pauseCost,
  refreshStillPays,
} from "../../src/cache/index.js";

const MINUTE = 60_000;
const situation: PauseSituation = {
  contextTokens: 100_000,
  turnWriteTokens: 20_000,
  refreshOutputTokens: 1,
  outputRatio: 5,
  oneHourOffered: true,
  keepWarmAllowed: true,
  keepWarmLimitMs: 60 * MINUTE,
};

describe("pause costs (input-token equivalents beyond a plain cache read)", () => {
  it("expire: free under 5 minutes, a rewrite at 1.25 instead of 0.1 after", () => {
    // Mutation caught: the 5-minute lifetime taken as 1 hour (expire free at 7 minutes).
    expect(pauseCost("expire", 3 * MINUTE, situation)).toBe(0);
    expect(pauseCost("expire", 7 * MINUTE, situation)).toBeCloseTo(115_000, 6);
  });

  it("one hour: 0.75 more on what the turn writes, and a rewrite only past the hour", () => {
    expect(pauseCost("one-hour", 7 * MINUTE, situation)).toBeCloseTo(15_000, 6);
    expect(pauseCost("one-hour", 70 * MINUTE, situation)).toBeCloseTo(130_000, 6);
  });

  it("keep-warm: one read of the context plus one output token per refresh, every 4.5 minutes", () => {
    expect(pauseCost("keep-warm", 3 * MINUTE, situation)).toBe(0);
    // 7 minutes: one refresh at 4:30 keeps it until 9:30.
    expect(pauseCost("keep-warm", 7 * MINUTE, situation)).toBeCloseTo(10_005, 6);
    // 20 minutes: refreshes at 4:30, 9:00, 13:30, 18:00.
    expect(pauseCost("keep-warm", 20 * MINUTE, situation)).toBeCloseTo(40_020, 6);
  });

  it("hindsight names the cheapest for a known pause", () => {
    expect(hindsight(2 * MINUTE, situation).cheapest).toBe("expire");
    expect(hindsight(7 * MINUTE, situation).cheapest).toBe("keep-warm");
    expect(hindsight(40 * MINUTE, situation).cheapest).toBe("one-hour");
    expect(hindsight(70 * MINUTE, situation).cheapest).toBe("expire");
    expect(hindsight(7 * MINUTE, { ...situation, keepWarmAllowed: false }).cheapest).toBe("one-hour");
  });
});

describe("choosing from the person's gaps", () => {
  it("quick turns keep the 5-minute TTL and no keep-warm is planned past what the prior pays for", () => {
    const choice = choosePausePolicy([0.5 * MINUTE, MINUTE, 2 * MINUTE, MINUTE], situation);
    expect(choice.ttl).toBe("5m");
    expect(choice.expected["one-hour"]).toBeUndefined();
  });

  it("7-minute pauses: keep-warm with a person present, one hour without", () => {
    const gaps = [7 * MINUTE, 7 * MINUTE, 7 * MINUTE];
    expect(choosePausePolicy(gaps, situation).policy).toBe("keep-warm");
    const printMode = choosePausePolicy(gaps, { ...situation, keepWarmAllowed: false });
    expect(printMode.policy).toBe("one-hour");
    expect(printMode.ttl).toBe("1h");
  });

  it("pauses past the hour: let it expire", () => {
    // Mutation caught: the rewrite past one hour left out of one-hour's cost (it would be chosen here).
    expect(choosePausePolicy([70 * MINUTE, 70 * MINUTE, 70 * MINUTE], situation).policy).toBe("expire");
  });

  it("a server without the 1-hour TTL is never asked for it", () => {
    const choice = choosePausePolicy([20 * MINUTE, 20 * MINUTE], {
      ...situation,
      oneHourOffered: false,
      keepWarmAllowed: false,
    });
    expect(choice.ttl).toBe("5m");
  });

  it("the cold start: the system prompt held an hour while no gap is seen and no keep-warm can run", () => {
    // Mutation caught: hedge-after-a-gap (the hedge kept once a gap is seen).
    const printMode = { ...situation, keepWarmAllowed: false };
    expect(choosePausePolicy([], printMode)).toMatchObject({ policy: "expire", ttl: "5m", prefixTtl: "1h" });
    expect(choosePausePolicy([30_000], printMode)).toMatchObject({ policy: "expire", prefixTtl: "5m" });
    expect(choosePausePolicy([], situation)).toMatchObject({ prefixTtl: "5m" });
    expect(choosePausePolicy([], { ...printMode, oneHourOffered: false })).toMatchObject({ prefixTtl: "5m" });
    expect(choosePausePolicy([], printMode, { cacheTtl: "5m" })).toMatchObject({ prefixTtl: "5m" });
  });

  it("the hedge's price: 0.75 more on the prefix written, 1.15 back when the person returns within the hour", () => {
    expect(hedgeCost(MINUTE, 2_000)).toBeCloseTo(1_500);
    expect(hedgeCost(7 * MINUTE, 2_000)).toBeCloseTo(1_500 - 2_300);
    expect(hedgeCost(70 * MINUTE, 2_000)).toBeCloseTo(1_500);
  });

  it("settings force a policy", () => {
    expect(choosePausePolicy([], situation, { cacheTtl: "1h" })).toMatchObject({ ttl: "1h", forced: true });
    expect(choosePausePolicy([7 * MINUTE], situation, { cacheTtl: "5m", keepWarm: "off" })).toMatchObject({
      policy: "expire",
      forced: true,
    });
    expect(choosePausePolicy([], situation, { keepWarm: "on" })).toMatchObject({ policy: "keep-warm", refreshes: 13 });
  });

  it("keep-warm stops at the limit and when the person is away longer than any pause seen", () => {
    const gaps = [7 * MINUTE, 8 * MINUTE, 6 * MINUTE];
    expect(refreshStillPays(gaps, situation, 1, false)).toBe(true);
    // At 45 minutes away no observed pause and only the prior's 90-minute one is longer: not worth a read.
    expect(refreshStillPays(gaps, situation, 10, false)).toBe(false);
    expect(refreshStillPays(gaps, { ...situation, keepWarmLimitMs: 10 * MINUTE }, 3, true)).toBe(false);
  });
});
