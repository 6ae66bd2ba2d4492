/**
 * The prompt-cache ledger, driven over HTTP with an injected clock: hits, misses, the 20-block lookback,
 * TTLs, the per-model minimum, and cache_edits deletions.
 */

import { type Emulator, FIVE_MINUTES_MS, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { body, post, READ_TOOL, textOfTokens } from "./helpers.js";

let emulator: Emulator | undefined;
let clock = 0;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: { cacheEditing?: boolean } = {}): Promise<Emulator> {
  clock = 1_000_000;
  emulator = await startEmulator({ now: () => clock, ...options });
  return emulator;
}

interface Usage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

async function usageOf(running: Emulator, payload: unknown): Promise<Usage> {
  const { status, json } = await post(running, "/v1/messages", payload);
  expect(status, JSON.stringify(json)).toBe(200);
  return json.usage as Usage;
}

const SYSTEM = textOfTokens(1500, "system");
const marked = (text: string, ttl?: "1h") => ({
  type: "text",
  text,
  cache_control: ttl ? { type: "ephemeral", ttl } : { type: "ephemeral" },
});

function conversation(system = SYSTEM, ttl?: "1h") {
  return body({
    system: [{ type: "text", text: system }],
    messages: [{ role: "user", content: [marked("What is in the repository?", ttl)] }],
  });
}

describe("cache ledger", () => {
  it("an identical second request reads the whole prefix", async () => {
    const running = await start();
    const first = await usageOf(running, conversation());
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(1500);
    expect(first.cache_creation.ephemeral_5m_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(first.input_tokens).toBe(0);
    const second = await usageOf(running, conversation());
    expect(second).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: first.cache_creation_input_tokens,
      cache_creation_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    });
    expect(running.ledger.entries()).toHaveLength(1);
  });

  it("a changed system prompt misses", async () => {
    const running = await start();
    await usageOf(running, conversation());
    const changed = await usageOf(running, conversation(`${SYSTEM} changed`));
    expect(changed.cache_read_input_tokens).toBe(0);
    expect(changed.cache_creation_input_tokens).toBeGreaterThan(1500);
  });

  it("a changed tool_choice breaks the messages part only", async () => {
    const running = await start();
    const withSystemBreakpoint = (toolChoice?: Record<string, unknown>) =>
      body({
        tools: [READ_TOOL],
        ...(toolChoice ? { tool_choice: toolChoice } : {}),
        system: [marked(SYSTEM)],
        messages: [{ role: "user", content: [marked("question")] }],
      });
    const first = await usageOf(running, withSystemBreakpoint());
    const second = await usageOf(running, withSystemBreakpoint({ type: "auto" }));
    expect(second.cache_read_input_tokens).toBeGreaterThan(1500);
    expect(second.cache_read_input_tokens).toBeLessThan(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe(first.cache_creation_input_tokens - second.cache_read_input_tokens);
  });

  it("looks back at most 20 blocks from a breakpoint", async () => {
    const running = await start();
    const blocks = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ type: "text", text: `block ${index}` }));
    const grown = (extra: number) => {
      const content: Array<Record<string, unknown>> = [{ type: "text", text: SYSTEM }, ...blocks(5 + extra)];
      content[content.length - 1] = { ...content[content.length - 1], cache_control: { type: "ephemeral" } };
      return body({ messages: [{ role: "user", content }] });
    };
    const written = await usageOf(running, grown(0));
    expect(written.cache_creation_input_tokens).toBeGreaterThan(1500);
    // The breakpoint moved 20 blocks on: the earlier entry is still within reach.
    const within = await usageOf(running, grown(20));
    expect(within.cache_read_input_tokens).toBe(written.cache_creation_input_tokens);
    // A fresh ledger, so only the original entry exists: 21 blocks back is out of reach.
    await running.close();
    const fresh = await start();
    await usageOf(fresh, grown(0));
    const beyond = await usageOf(fresh, grown(21));
    expect(beyond.cache_read_input_tokens).toBe(0);
  });

  it("a 5m entry expires after five minutes, and reads refresh it", async () => {
    const running = await start();
    const written = await usageOf(running, conversation());
    clock += FIVE_MINUTES_MS - 1;
    expect((await usageOf(running, conversation())).cache_read_input_tokens).toBe(written.cache_creation_input_tokens);
    // The read above refreshed the TTL: another 5 minutes minus 1 ms later it still hits.
    clock += FIVE_MINUTES_MS - 1;
    expect((await usageOf(running, conversation())).cache_read_input_tokens).toBe(written.cache_creation_input_tokens);
    clock += FIVE_MINUTES_MS;
    const expired = await usageOf(running, conversation());
    expect(expired.cache_read_input_tokens).toBe(0);
    expect(expired.cache_creation_input_tokens).toBe(written.cache_creation_input_tokens);
  });

  it("a 1h entry outlives five minutes and is billed as 1h", async () => {
    const running = await start();
    const written = await usageOf(running, conversation(SYSTEM, "1h"));
    expect(written.cache_creation.ephemeral_1h_input_tokens).toBe(written.cache_creation_input_tokens);
    clock += 30 * 60 * 1000;
    expect((await usageOf(running, conversation(SYSTEM, "1h"))).cache_read_input_tokens).toBe(
      written.cache_creation_input_tokens,
    );
  });

  it("a prefix below the model's minimum is neither written nor failed", async () => {
    const running = await start();
    const short = body({ messages: [{ role: "user", content: [marked("short question")] }] });
    const first = await usageOf(running, short);
    expect(first.cache_creation_input_tokens).toBe(0);
    expect(first.input_tokens).toBeGreaterThan(0);
    expect((await usageOf(running, short)).cache_read_input_tokens).toBe(0);
    expect(running.ledger.entries()).toHaveLength(0);
  });

  it("a cache_edits delete keeps the hit and lowers the counted tokens", async () => {
    const running = await start({ cacheEditing: true });
    const resultText = textOfTokens(800, "result");
    const turn = (withEdit: boolean) =>
      body({
        tools: [READ_TOOL],
        system: [{ type: "text", text: SYSTEM }],
        messages: [
          { role: "user", content: "read it" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "a" } }],
          },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_1",
                content: resultText,
                ...(withEdit ? { cache_reference: "toolu_1" } : {}),
              },
              ...(withEdit ? [{ type: "cache_edits", edits: [{ type: "delete", cache_reference: "toolu_1" }] }] : []),
              marked("go on"),
            ],
          },
        ],
      });
    const written = await usageOf(running, turn(false));
    const edited = await usageOf(running, turn(true));
    expect(edited.cache_read_input_tokens).toBeGreaterThan(0);
    expect(edited.cache_creation_input_tokens).toBe(0);
    expect(written.cache_creation_input_tokens - edited.cache_read_input_tokens).toBe(801);
    const counted = await post(
      running,
      "/v1/messages/count_tokens",
      (({ max_tokens: _drop, ...rest }) => rest)(turn(true)),
    );
    expect(counted.json).toEqual({ input_tokens: edited.cache_read_input_tokens });
  });
});

describe("context management", () => {
  it("clear_tool_uses clears old results past the trigger and reports applied_edits", async () => {
    const running = await start();
    const messages: unknown[] = [{ role: "user", content: "start" }];
    for (let index = 1; index <= 5; index++) {
      messages.push({
        role: "assistant",
        content: [{ type: "tool_use", id: `toolu_${index}`, name: "Read", input: {} }],
      });
      messages.push({
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `toolu_${index}`, content: textOfTokens(300) }],
      });
    }
    const payload = body({
      tools: [READ_TOOL],
      messages,
      context_management: {
        edits: [
          {
            type: "clear_tool_uses_20250919",
            trigger: { type: "input_tokens", value: 1000 },
            keep: { type: "tool_uses", value: 2 },
          },
        ],
      },
    });
    const withoutBeta = await post(running, "/v1/messages", payload);
    expect(withoutBeta.status).toBe(400);
    const { status, json } = await post(running, "/v1/messages", payload, {
      "anthropic-beta": "context-management-2025-06-27",
    });
    expect(status).toBe(200);
    const applied = (json.context_management as { applied_edits: Array<Record<string, number | string>> })
      .applied_edits;
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ type: "clear_tool_uses_20250919", cleared_tool_uses: 3 });
    expect(Number(applied[0]?.cleared_input_tokens)).toBeGreaterThan(800);
  });
});
