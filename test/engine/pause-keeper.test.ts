/**
 * The pause policy against the emulator's prompt-cache ledger (oracle: the usage the emulator logged for each
 * request, and the request bodies it received): a keep-warm refresh reads the cached prefix and writes
 * nothing; the turn after the pause reads instead of rewriting; a 1-hour write is billed as one; nothing is
 * sent while no person is there.
 */

import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { collect } from "../../support/collect.js";
import { fastProvider } from "../../support/engine-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { VirtualClock } from "../../support/virtual-clock.js";

const MINUTE = 60_000;
let emulator: Emulator | undefined;
let engine: QueryEngine | undefined;

afterEach(async () => {
  await engine?.close();
  await emulator?.close();
  engine = undefined;
  emulator = undefined;
});

async function session(pause: { present: () => boolean; cacheTtl?: "1h" }) {
  const clock = new VirtualClock();
  emulator = await startEmulator({ scenario: ["First answer.", "Second answer."], now: clock.now, seed: 1 });
  engine = new QueryEngine({
    cwd: await makeTempDir("ws"),
    home: await makeTempDir("home"),
    transcript: false,
    provider: fastProvider(emulator.url, { profile: "anthropic" }),
    permission: { mode: "bypassPermissions" },
    now: clock.date,
    pause: { personPresent: pause.present, clock, ...(pause.cacheTtl ? { cacheTtl: pause.cacheTtl } : {}) },
  });
  return { clock, emulator, engine };
}

function messagesRequests(emu: Emulator) {
  return emu.requests.filter((request) => request.path === "/v1/messages" && request.status === 200);
}

describe("keep-warm", () => {
  it("re-reads the cached prefix before it expires, writes nothing, and the next turn reads", async () => {
    const { clock, emulator: emu, engine: eng } = await session({ present: () => true });
    await collect(eng.submitMessage("hello"));
    const [first] = messagesRequests(emu);
    const written = first!.usage!.cache_creation_input_tokens ?? 0;
    expect(written).toBeGreaterThan(0);

    await clock.advance(7 * MINUTE, () => eng.idle());
    const refreshes = messagesRequests(emu).slice(1);
    expect(refreshes.length).toBe(1);
    const refresh = refreshes[0]!;
    // Same bytes but for max_tokens: the cache key (tools, system, messages) is the first request's.
    const { max_tokens: firstMax, ...firstRest } = first!.body as Record<string, unknown>;
    const { max_tokens: refreshMax, ...refreshRest } = refresh.body as Record<string, unknown>;
    expect(refreshRest).toEqual(firstRest);
    expect(refreshMax).toBe(1);
    expect(firstMax).not.toBe(1);
    expect(refresh.usage!.cache_creation_input_tokens ?? 0).toBe(0);
    expect(refresh.usage!.cache_read_input_tokens).toBe(written);
    // The refresh is billed in the session's records.
    const bills = eng.timeline.entries.filter((entry) => entry.type === "side-request");
    expect(bills).toMatchObject([{ purpose: "keep-warm", usage: { cache_read_input_tokens: written } }]);

    await collect(eng.submitMessage("and again"));
    const second = messagesRequests(emu).at(-1)!;
    expect(second.usage!.cache_read_input_tokens).toBe(written);
  });

  it("sends nothing while no person is at the terminal, and the conversation's cache expires", async () => {
    // Mutation caught: keep-warm started without asking whether a person is present.
    const { clock, emulator: emu, engine: eng } = await session({ present: () => false });
    await collect(eng.submitMessage("hello"));
    expect(clock.pending).toBe(0);
    await clock.advance(7 * MINUTE, () => eng.idle());
    expect(messagesRequests(emu).length).toBe(1);
    await collect(eng.submitMessage("and again"));
    const [first, second] = messagesRequests(emu);
    // Only the system prompt and tools survive: the cold-start hedge held them an hour (below), the rest
    // was written again.
    expect(second!.usage!.cache_read_input_tokens ?? 0).toBe(first!.usage!.cache_creation!.ephemeral_1h_input_tokens);
    expect(second!.usage!.cache_creation_input_tokens ?? 0).toBeGreaterThan(0);
  });
});

describe("the cold-start hedge (no pause of this person's seen, nobody to keep the cache warm)", () => {
  /** The distinct TTLs of the system prompt's markers and of the messages' markers, in order. */
  function ttls(body: unknown): { system: Array<string | null>; messages: Array<string | null> } {
    const marker = (block: { cache_control?: { ttl?: string } }) =>
      block.cache_control === undefined ? null : (block.cache_control.ttl ?? "5m");
    const { system, messages } = body as {
      system: Array<{ cache_control?: { ttl?: string } }>;
      messages: Array<{ content: string | Array<{ cache_control?: { ttl?: string } }> }>;
    };
    return {
      system: [...new Set(system.map(marker).filter((ttl) => ttl !== null))],
      messages: [
        ...new Set(
          messages.flatMap((message) =>
            typeof message.content === "string" ? [] : message.content.map(marker).filter((ttl) => ttl !== null),
          ),
        ),
      ],
    };
  }

  it("holds the system prompt and tools for an hour under a 5-minute conversation, and it is read after 7 minutes", async () => {
    // Mutations caught: cold-start-hedge-off (no 1h system marker), hedge-ttl-everywhere (a 1h message marker).
    const { clock, emulator: emu, engine: eng } = await session({ present: () => false });
    await collect(eng.submitMessage("hello"));
    const [first] = messagesRequests(emu);
    expect(ttls(first!.body)).toEqual({ system: ["1h"], messages: ["5m"] });
    const written1h = first!.usage!.cache_creation!.ephemeral_1h_input_tokens;
    expect(written1h).toBeGreaterThan(1000);
    expect(first!.usage!.cache_creation!.ephemeral_5m_input_tokens).toBeGreaterThan(0);
    const choice = eng.timeline.entries.find((entry) => entry.type === "pause-choice");
    expect(choice).toMatchObject({ policy: "expire", ttl: "5m", prefixTtl: "1h", prefixTokens: written1h });

    await clock.advance(7 * MINUTE);
    await collect(eng.submitMessage("and again"));
    const second = messagesRequests(emu).at(-1)!;
    expect(second.usage!.cache_read_input_tokens).toBe(written1h);
    // The gap is seen now: the expected-cost choice decides (7 minutes, no person: the hour for everything).
    expect(ttls(second.body)).toEqual({ system: ["1h"], messages: ["1h"] });
  });

  it("is not used with a person at the terminal (keep-warm can pay for the pause)", async () => {
    // Mutation caught: hedge-with-keep-warm.
    const { emulator: emu, engine: eng } = await session({ present: () => true });
    await collect(eng.submitMessage("hello"));
    expect(ttls(messagesRequests(emu)[0]!.body)).toEqual({ system: ["5m"], messages: ["5m"] });
  });
});

describe("the 1-hour TTL", () => {
  it("is billed as a 1-hour write and survives a 20-minute pause", async () => {
    const { clock, emulator: emu, engine: eng } = await session({ present: () => false, cacheTtl: "1h" });
    await collect(eng.submitMessage("hello"));
    const [first] = messagesRequests(emu);
    expect(first!.usage!.cache_creation).toMatchObject({ ephemeral_5m_input_tokens: 0 });
    expect(first!.usage!.cache_creation!.ephemeral_1h_input_tokens).toBeGreaterThan(0);
    expect(JSON.stringify((first!.body as { system: unknown }).system)).toContain('"ttl":"1h"');
    const choice = eng.timeline.entries.find((entry) => entry.type === "pause-choice");
    expect(choice).toMatchObject({ policy: "one-hour", ttl: "1h", forced: true });
    await clock.advance(20 * MINUTE);
    await collect(eng.submitMessage("and again"));
    expect(messagesRequests(emu).at(-1)!.usage!.cache_read_input_tokens).toBe(
      first!.usage!.cache_creation_input_tokens,
    );
  });
});
