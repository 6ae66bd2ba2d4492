/**
 * Server-side compaction (beta compact-2026-01-12) on the emulator, driven by the official SDK's beta client over
 * HTTP: over the trigger the response opens with a `compaction` block (streamed as `compaction_delta`), pauses
 * with `stop_reason: "compaction"` when asked, reports `usage.iterations`, and a request that sends the block
 * back is billed from the summary on, not for the history it replaced.
 *
 * Mutations this catches (each applied once while writing it):
 * - ignoring `pause_after_compaction` fails "pauses after compacting";
 * - not dropping the messages before a sent-back compaction block fails "bills from the summary on".
 */
import Anthropic from "@anthropic-ai/sdk";
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const client = (url: string) => new Anthropic({ baseURL: url, apiKey: "test", maxRetries: 0, logLevel: "off" });
const MODEL = "claude-opus-5-5";
const BETAS = ["compact-2026-01-12"];
// ~12,500 tokens of history (characters / 4): over a 5,000-token trigger.
const history = [
  { role: "user" as const, content: `Read the logs. ${"The build failed at step 4 with exit code 2. ".repeat(1_100)}` },
  { role: "assistant" as const, content: "The build fails at step 4." },
  { role: "user" as const, content: "Why?" },
];
const edit = (pause: boolean) => ({
  edits: [
    {
      type: "compact_20260112" as const,
      trigger: { type: "input_tokens" as const, value: 5_000 },
      pause_after_compaction: pause,
    },
  ],
});

describe("server-side compaction", () => {
  it("pauses after compacting: the compaction block alone, stop_reason compaction, one iteration", async () => {
    emulator = await startEmulator({ scenario: ["Because step 4 needs a token."] });
    const stream = client(emulator.url).beta.messages.stream({
      model: MODEL,
      max_tokens: 2_000,
      messages: history,
      context_management: edit(true),
      betas: BETAS,
    });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe("compaction");
    expect(message.content.map((block) => block.type)).toEqual(["compaction"]);
    const block = message.content[0] as { content: string | null };
    expect(block.content?.length ?? 0).toBeGreaterThan(0);
    expect(message.usage.iterations?.map((pass) => pass.type)).toEqual(["compaction"]);
  });

  it("without a pause the answer follows the block in the same response", async () => {
    emulator = await startEmulator({ scenario: ["Because step 4 needs a token."] });
    const message = await client(emulator.url).beta.messages.create({
      model: MODEL,
      max_tokens: 2_000,
      messages: history,
      context_management: edit(false),
      betas: BETAS,
    });
    expect(message.content.map((block) => block.type)).toEqual(["compaction", "text"]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.iterations?.map((pass) => pass.type)).toEqual(["compaction", "message"]);
  });

  it("under the trigger nothing is compacted", async () => {
    emulator = await startEmulator({ scenario: ["Short."] });
    const message = await client(emulator.url).beta.messages.create({
      model: MODEL,
      max_tokens: 2_000,
      messages: [{ role: "user", content: "Hello" }],
      context_management: edit(true),
      betas: BETAS,
    });
    expect(message.content.map((block) => block.type)).toEqual(["text"]);
    expect(message.usage.iterations ?? null).toBeNull();
  });

  it("bills from the summary on once the client sends the block back", async () => {
    emulator = await startEmulator({ scenario: ["Because step 4 needs a token.", "Done."] });
    const anthropic = client(emulator.url);
    const first = await anthropic.beta.messages.create({
      model: MODEL,
      max_tokens: 2_000,
      messages: history,
      context_management: edit(true),
      betas: BETAS,
    });
    const compaction = first.content[0] as {
      type: "compaction";
      content: string | null;
      encrypted_content: string | null;
    };
    const next = await anthropic.beta.messages.create({
      model: MODEL,
      max_tokens: 2_000,
      messages: [
        ...history,
        { role: "assistant", content: [{ type: "compaction", content: compaction.content, encrypted_content: null }] },
        { role: "user", content: "Go on." },
      ],
      betas: BETAS,
    });
    const billed =
      next.usage.input_tokens +
      (next.usage.cache_read_input_tokens ?? 0) +
      (next.usage.cache_creation_input_tokens ?? 0);
    // Oracle: the summary as the server itself billed it when writing it (the compaction pass's output tokens)
    // plus "Go on." (3 tokens under the Claude tokenizer, a literal), far below the ~12,500-token history.
    const summaryTokens = first.usage.iterations?.find((pass) => pass.type === "compaction")?.output_tokens;
    expect(summaryTokens).toBeGreaterThan(0);
    expect(billed).toBe(summaryTokens! + 3);
    expect(billed).toBeLessThan(5_000);
  });
});
