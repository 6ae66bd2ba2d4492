/**
 * Destructive work when the cache is cold, not while it is warm (issue 52): the idle clear waits for the TTL the
 * last turn's cache entries were written with (its pause-choice record), and for any keep-warm run after it; the
 * public-path batch prices its rewrite at the write rate of the TTL in use. Oracles are literals: the minutes of
 * idle time, and the round at which a batch pays (worked out by hand below).
 *
 * Mutations it catches (scripts/mutation-check.mjs): `cold-after-current-ttl` (the TTL of the coming turn used
 * instead of the one the cache was written with), `cold-after-keep-warm-ignored` (a kept-warm cache counted cold
 * after its TTL), `batch-price-5m-always` (a 1-hour rewrite priced as a 5-minute one), `batch-rent-halved` (the
 * batch fires when the rent paid reaches half the rewrite).
 */
import { describe, expect, it } from "vitest";
import { runCompactionTiers } from "../../src/compaction/index.js";
import type { PauseChoiceRecord, SystemEntry } from "../../src/messages/index.js";
import { SESSION_ID, TimelineBuilder } from "../../support/timeline-builder.js";
import { compactionInput } from "./compaction-input.js";

const MINUTE = 60_000;

/** Eight compactable rounds, a reply, and the turn's pause-choice record (when given). */
function pausedSession(choice?: Pick<PauseChoiceRecord, "policy" | "ttl">) {
  const builder = new TimelineBuilder();
  builder.user("Survey the code.");
  for (let index = 0; index < 8; index++) builder.round("Read", `contents of file ${index} `.repeat(50));
  builder.assistantText("Here is the survey.");
  const lastReply = builder.clock.getTime();
  if (choice !== undefined) {
    const record: PauseChoiceRecord = {
      type: "pause-choice",
      ...choice,
      forced: false,
      expected: {},
      contextTokens: 1_000,
      turnWriteTokens: 1_000,
      timestamp: builder.clock.toISOString(),
      sessionId: SESSION_ID,
    };
    builder.append(record);
  }
  builder.user("Continue please.");
  return { builder, at: (minutes: number) => new Date(lastReply + minutes * MINUTE) };
}

async function clearsAt(
  choice: Pick<PauseChoiceRecord, "policy" | "ttl"> | undefined,
  minutes: number,
  cacheTtl: "5m" | "1h",
): Promise<boolean> {
  const { builder, at } = pausedSession(choice);
  const output = await runCompactionTiers(compactionInput(builder.entries, at(minutes), { cacheTtl }));
  return output.records.some(
    (record) => record.type === "system" && (record as SystemEntry).microcompactMetadata?.trigger === "time",
  );
}

describe("the idle clear runs only once the cache is cold", () => {
  it("waits for the 1-hour TTL the last turn wrote with, though the coming turn uses 5 minutes", async () => {
    const choice = { policy: "one-hour", ttl: "1h" } as const;
    expect(await clearsAt(choice, 10, "5m")).toBe(false);
    expect(await clearsAt(choice, 59, "5m")).toBe(false);
    expect(await clearsAt(choice, 61, "5m")).toBe(true);
  });

  it("clears after 5 minutes when the last turn wrote with 5 minutes, though the coming turn uses 1 hour", async () => {
    const choice = { policy: "expire", ttl: "5m" } as const;
    expect(await clearsAt(choice, 4, "1h")).toBe(false);
    expect(await clearsAt(choice, 6, "1h")).toBe(true);
  });

  it("with no record, uses the TTL requests carry now", async () => {
    expect(await clearsAt(undefined, 6, "5m")).toBe(true);
    expect(await clearsAt(undefined, 6, "1h")).toBe(false);
  });

  it("after a turn that chose keep-warm, waits out the longest keep-warm run (60 minutes) and the TTL", async () => {
    const choice = { policy: "keep-warm", ttl: "5m" } as const;
    expect(await clearsAt(choice, 30, "5m")).toBe(false);
    expect(await clearsAt(choice, 64, "5m")).toBe(false);
    expect(await clearsAt(choice, 66, "5m")).toBe(true);
  });
});

/**
 * The round (1-based, counting Read rounds) at which the public-path batch first fires, growing the session one
 * round at a time. Each round: one response (text + Read) and its result.
 */
async function firstBatchRound(cacheTtl: "5m" | "1h", rounds: number): Promise<number | undefined> {
  const builder = new TimelineBuilder();
  builder.user("Read the modules one by one.");
  for (let round = 1; round <= rounds; round++) {
    builder.round("Read", `line ${round} of a module, padded to a steady size `.repeat(40));
    const output = await runCompactionTiers(compactionInput(builder.entries, builder.clock, { cacheTtl }));
    if (output.records.some((record) => (record as SystemEntry).microcompactMetadata?.trigger === "batch"))
      return round;
  }
  return undefined;
}

describe("the public-path batch pays for its rewrite at the TTL's price", () => {
  // Rent-or-buy by hand. Each round is a text (4 tokens), a Read call (5) and a result of R = 441 tokens whose
  // placeholder saves s ≈ 418; 3 results stay verbatim. At round n the clearable results are 1..n−3; result i left
  // the window with result i+3 and was re-read by the n−i−3 responses since, so the rent paid is
  // 0.1 × s × Σ_{k=0}^{n−4} k = 0.05 × 418 × (n−4)(n−3). The rewrite is (write − 0.1) × what follows the first
  // cleared result once cleared: the 3 kept results, each round's text and call, each placeholder (~23), about
  // 1,254 + 32n. 5 minutes (write 1.25): round 13 has rent 1,880 < 1,920, round 14 rent 2,298 > 1,957, so 14.
  // 1 hour (write 2): round 16 has rent 3,259 < 3,355, round 17 rent 3,802 > 3,416, so 17.
  it("fires later when the rewrite is written at the 1-hour price", async () => {
    expect(await firstBatchRound("5m", 24)).toBe(14);
    expect(await firstBatchRound("1h", 24)).toBe(17);
  });
});
