/**
 * What a `count_tokens` round trip costs on loopback (docs/CONTEXT-BUDGET.md, "Token counting"): the median
 * of N counts of one request against the emulator, beside the median of the same request sent to
 * `/v1/messages` (non-streaming). Run: `node --import tsx scripts/count-tokens-latency.ts [N] [messages]`.
 */
import { startEmulator } from "@threadline/emulator";
import { createUserEntry, textBlock } from "../src/messages/index.js";
import { AnthropicProvider } from "../src/provider/index.js";
import { assembleRequest, emptyLatches } from "../src/request/index.js";

const runs = Number(process.argv[2] ?? 50);
const turns = Number(process.argv[3] ?? 40);
const model = "claude-sonnet-4-20250514";
const emulator = await startEmulator({ scenario: [] });
const provider = new AnthropicProvider({
  baseURL: emulator.url,
  apiKey: "latency",
  capabilities: { tokenCounting: true },
});
const line = "The quick brown fox jumps over the lazy dog; 这是一个测试。 ";
const messages = Array.from({ length: turns }, (_, index) =>
  createUserEntry({ sessionId: "latency", parentUuid: null }, [textBlock(`${index}: ${line.repeat(40)}`)]),
);
// Alternation: the assembler merges consecutive user messages into one, as the API wants.
const { request } = assembleRequest({
  messages,
  settings: { model, systemPrompt: ["You answer briefly."], tools: [], maxTokens: 64 },
  latches: emptyLatches(),
  pins: [],
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function time(work: () => Promise<unknown>): Promise<number[]> {
  await work(); // warm: the emulator's tokenizer loads on first use
  const out: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    out.push(performance.now() - started);
  }
  return out;
}

const tokens = await provider.countTokens(request);
const counts = await time(() => provider.countTokens(request));
const sends = await time(() => provider.complete(request));
console.log(
  `request: ${request.json.length.toLocaleString("en-US")} bytes, ${tokens.toLocaleString("en-US")} tokens by the server's count; ${runs} runs each`,
);
console.log(`count_tokens: median ${median(counts).toFixed(2)} ms`);
console.log(`/v1/messages (non-streaming): median ${median(sends).toFixed(2)} ms`);
await emulator.close();
