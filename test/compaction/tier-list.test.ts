/**
 * The pass is a list of tiers: a new tier is one object in the list. It sees what the earlier tiers left,
 * its records are chained after theirs, what it returns reaches the output, and off means off for it too.
 */
import { describe, expect, it } from "vitest";
import { COMPACTION_TIERS, runCompactionTiers, type Tier } from "../../src/compaction/index.js";
import { createSystemEntry, type MessageEntry } from "../../src/messages/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";
import { compactionInput, EMULATOR_CAPABILITIES } from "./compaction-input.js";

/** Large and idle past the cache TTL: microcompact's time-based clear fires (a boundary and a changed view). */
function idleSession(): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Look through the logs.");
  for (let round = 0; round < 10; round++) builder.round("Grep", "g".repeat(9_000));
  return builder.advance(3 * 3_600_000);
}

/** What a view sends (records made in two passes differ only in their uuids). */
function contents(messages: readonly MessageEntry[]): string[] {
  return messages.map((entry) => JSON.stringify("message" in entry ? entry.message : entry.type));
}

/** A fifth tier that records what it saw and replaces the view with its last message alone. */
function probeTier(enabled: boolean) {
  const seen: { entries: number; records: number; messages: MessageEntry[] }[] = [];
  const tier: Tier = {
    name: "probe",
    enabled: (settings) => enabled && settings.microcompact,
    run(pass) {
      seen.push({ entries: pass.entries.length, records: pass.chain.records.length, messages: pass.messages });
      pass.chain.push(createSystemEntry(pass.chain.context(), "informational", "probe ran"));
      return { messages: pass.messages.slice(-1), tokens: 7, replacedView: true, expectCacheDrop: "probe" };
    },
  };
  return { tier, seen };
}

describe("the tier list", () => {
  it("runs snip, microcompact, collapse, autocompact in that order", () => {
    expect(COMPACTION_TIERS.map((tier) => tier.name)).toEqual(["snip", "microcompact", "collapse", "autocompact"]);
  });

  it("a fifth tier sees the earlier tiers' records and view; its records, view and tokens reach the output", async () => {
    const builder = idleSession();
    const input = compactionInput(builder.entries, builder.clock, {
      capabilities: EMULATOR_CAPABILITIES,
      settings: { collapse: false, autocompact: false },
    });
    const without = await runCompactionTiers(input);
    const { tier, seen } = probeTier(true);
    const output = await runCompactionTiers(input, [...COMPACTION_TIERS, tier]);

    expect(without.records.length).toBeGreaterThan(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.records).toBe(without.records.length);
    expect(seen[0]!.entries).toBe(builder.entries.length + without.records.length);
    expect(contents(seen[0]!.messages)).toEqual(contents(without.messages));
    // Its record follows the earlier ones and is chained to the last of them.
    const probe = output.records.at(-1)!;
    expect(output.records).toHaveLength(without.records.length + 1);
    expect(probe.type === "system" && probe.content).toBe("probe ran");
    expect("parentUuid" in probe && probe.parentUuid).toBe((output.records.at(-2) as { uuid: string }).uuid);
    expect(contents(output.messages)).toEqual(contents(without.messages.slice(-1)));
    expect(output.tokens).toBe(7);
    expect(output.newCacheEdits).toEqual([]);
    // The first tier that names a cache drop wins (microcompact's time-based clear ran before the probe).
    expect(output.expectCacheDrop).toBe(without.expectCacheDrop);
    expect(output.expectCacheDrop).toMatch(/^microcompact:/);
  });

  it("a tier that is off is never run, and the pass is as without it", async () => {
    const builder = idleSession();
    const input = compactionInput(builder.entries, builder.clock, { capabilities: EMULATOR_CAPABILITIES });
    const { tier, seen } = probeTier(false);
    const output = await runCompactionTiers(input, [...COMPACTION_TIERS, tier]);
    expect(seen).toEqual([]);
    const plain = await runCompactionTiers(input);
    expect(output.records.map((record) => record.type)).toEqual(plain.records.map((record) => record.type));
    expect(output.messages.length).toBe(plain.messages.length);
  });
});
