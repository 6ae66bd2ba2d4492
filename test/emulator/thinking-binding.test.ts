/**
 * The emulator binds thinking to its prefix as the platform documents it (preserved-thinking/prefix-checks): on
 * the models with preserved thinking, a thinking block sent back after `system`, `tools` or an earlier message
 * changed is a 400 by default; with `thinking.block_binding.prefix_mismatch_behavior: "drop_block"` (beta
 * thinking-binding-controls-2026-08-01) it is removed, reported in `input_transformations`, and not billed.
 * Requests go through the official SDK over HTTP; every expectation is a literal.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type Emulator, startEmulator, validateRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { READ_TOOL } from "./helpers.js";

const BETA = "thinking-binding-controls-2026-08-01";
const running: Emulator[] = [];
afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
});

/** An emulator whose model thinks twice, then reads a file; then answers. */
async function start(): Promise<{ emulator: Emulator; client: Anthropic }> {
  const emulator = await startEmulator({
    scenario: [
      {
        content: [
          { type: "thinking", thinking: "I should read the notes first." },
          { type: "thinking", thinking: "The notes are in notes.md." },
          { type: "tool_use", name: "Read", input: { file_path: "notes.md" } },
        ],
      },
      { content: [{ type: "text", text: "Done." }] },
      { content: [{ type: "text", text: "Done again." }] },
    ],
  });
  running.push(emulator);
  return { emulator, client: new Anthropic({ apiKey: "k", baseURL: emulator.url, maxRetries: 0 }) };
}

type Params = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
type Message = Anthropic.Beta.Messages.BetaMessage;

const SYSTEM = "You are terse.";
const LONG_RESULT = "line of the notes file\n".repeat(200);

/** The first request, its answer, and the second request built from it (exactly as returned unless edited). */
async function firstTurn(client: Anthropic, model: string, extra: Partial<Params> = {}) {
  const base = {
    model,
    max_tokens: 4000,
    system: SYSTEM,
    tools: [READ_TOOL],
    messages: [{ role: "user", content: "Summarise notes.md" }],
    ...extra,
  } as Params;
  const first = (await client.beta.messages.create(base, { headers: { "anthropic-beta": BETA } })) as Message;
  const toolUse = first.content.find((block) => block.type === "tool_use");
  const next = (userText: string): Params => ({
    ...base,
    messages: [
      { role: "user", content: userText },
      { role: "assistant", content: first.content as Anthropic.Beta.Messages.BetaContentBlockParam[] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: toolUse?.id ?? "", content: LONG_RESULT }],
      },
    ],
  });
  return { first, next };
}

const status = async (promise: Promise<unknown>): Promise<{ status: number; message: string }> => {
  try {
    await promise;
    return { status: 200, message: "" };
  } catch (error) {
    const api = error as { status?: number; error?: { error?: { message?: string } } };
    return { status: api.status ?? 0, message: api.error?.error?.message ?? String(error) };
  }
};

describe("thinking bound to its prefix (Opus 5.5)", () => {
  it("accepts the history sent back exactly, and reports an empty input_transformations", async () => {
    const { emulator, client } = await start();
    const { first, next } = await firstTurn(client, "claude-opus-5-5");
    expect(first.input_transformations).toEqual([]);
    const second = (await client.beta.messages.create(next("Summarise notes.md"), {
      headers: { "anthropic-beta": BETA },
    })) as Message;
    expect(second.input_transformations).toEqual([]);
    expect(emulator.requests.at(-1)?.inputTransformations).toEqual([]);
  });

  it("answers 400 with the documented message when an earlier message changed", async () => {
    const { client } = await start();
    const { next } = await firstTurn(client, "claude-opus-5-5");
    const edited = await status(client.beta.messages.create(next("Summarise notes.md, please")));
    expect(edited.status).toBe(400);
    expect(edited.message).toBe(
      "messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different " +
        'conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".',
    );
  });

  it("answers 400 when system changed, but not when only a cache_control marker moved", async () => {
    const { client } = await start();
    const { next } = await firstTurn(client, "claude-opus-5-5");
    const same = next("Summarise notes.md");
    const otherSystem = await status(client.beta.messages.create({ ...same, system: `${SYSTEM} Today is Monday.` }));
    expect(otherSystem.status).toBe(400);
    const marked: Params = {
      ...same,
      system: [{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral" } }],
    };
    expect((await status(client.beta.messages.create(marked))).status).toBe(200);
  });

  it("with drop_block drops the block and the rest of its run, reports each, and bills none of them", async () => {
    const { emulator, client } = await start();
    const { next } = await firstTurn(client, "claude-opus-5-5");
    const dropBlock = { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } } as const;
    const kept = (await client.beta.messages.create(
      { ...next("Summarise notes.md"), thinking: dropBlock },
      { headers: { "anthropic-beta": BETA } },
    )) as Message;
    const dropped = (await client.beta.messages.create(
      { ...next("Summarise notes.md!"), thinking: dropBlock },
      { headers: { "anthropic-beta": BETA } },
    )) as Message;
    expect(dropped.input_transformations).toEqual([
      { type: "thinking_dropped", path: "messages.1.content.0", reason: "prefix_binding_mismatch" },
      { type: "thinking_dropped", path: "messages.1.content.1", reason: "prefix_binding_mismatch" },
    ]);
    expect(emulator.requests.at(-1)?.inputTransformations).toHaveLength(2);
    const total = (usage: Message["usage"]) =>
      usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
    // One "!" more, two thinking blocks of ~14 tokens fewer: the dropped request is the smaller one.
    expect(total(dropped.usage)).toBeLessThan(total(kept.usage) - 10);
  });

  it("refuses block_binding without its beta header, naming the header", async () => {
    const { client } = await start();
    const refused = await status(
      client.beta.messages.create({
        model: "claude-opus-5-5",
        max_tokens: 1000,
        messages: [{ role: "user", content: "hi" }],
        thinking: { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } },
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("thinking-binding-controls-2026-08-01");
  });

  it("does not check prefixes on a model without preserved thinking", async () => {
    const { emulator, client } = await start();
    const { first, next } = await firstTurn(client, "claude-sonnet-4-6", {
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    expect(first.input_transformations).toBeUndefined();
    const edited = await status(client.beta.messages.create(next("Summarise notes.md, please")));
    expect(edited.status).toBe(200);
    expect(emulator.requests.at(-1)?.inputTransformations).toBeUndefined();
  });
});

describe("a server compaction block before thinking", () => {
  it("is the order the API answers with, so it is accepted back; thinking after text is not", () => {
    const request = (first: Record<string, unknown>) => ({
      model: "claude-opus-5-5",
      max_tokens: 1000,
      messages: [
        { role: "user", content: "go on" },
        {
          role: "assistant",
          content: [first, { type: "thinking", thinking: "next", signature: "x" }, { type: "text", text: "ok" }],
        },
        { role: "user", content: "and?" },
      ],
    });
    expect(validateRequest(request({ type: "compaction", content: "Summary of the work so far." }))).toEqual([]);
    expect(validateRequest(request({ type: "text", text: "before" }))[0]?.message).toBe(
      "messages.1.content.1: `thinking` and `redacted_thinking` blocks must come first in an assistant message",
    );
  });
});
