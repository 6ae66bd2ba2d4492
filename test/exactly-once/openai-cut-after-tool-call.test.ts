/**
 * Exactly once under cut streams on the OpenAI-compatible provider (docs/EXACTLY-ONCE.md), as for the Anthropic
 * path: a proxy cuts the emulator's chat-completions stream after a chosen chunk; the oracle is a side-effect log
 * on disk that each Bash call appends one line to, and the chat bodies the emulator logged.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmulatorRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAICompatibleProvider } from "../../src/provider/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import { type CutPoint, type SseFaultProxy, seededRandom, startSseFaultProxy } from "../../support/sse-fault-proxy.js";

let harness: Harness | undefined;
let proxy: SseFaultProxy | undefined;
afterEach(async () => {
  await harness?.close();
  await proxy?.close();
  harness = undefined;
  proxy = undefined;
});

/** The step a request asks for: one more than the tool results it carries (a retry asks for the same one). */
function stepOf(request: EmulatorRequest): number {
  let results = 0;
  for (const message of request.messages)
    if (message.role === "user" && Array.isArray(message.content))
      results += message.content.filter((block) => block.type === "tool_result").length;
  return results + 1;
}

async function runSession(steps: number, plan: (request: number) => CutPoint) {
  proxy = await startSseFaultProxy(plan);
  const own = proxy;
  const scenario = Array.from({ length: steps * 4 }, () => (request: EmulatorRequest) => {
    const step = stepOf(request);
    if (step > steps) return "All steps done.";
    return {
      content: [
        { type: "text" as const, text: `Step ${step}.` },
        { type: "tool_use" as const, name: "Bash", input: { command: `echo step-${step} >> log.txt` } },
        { type: "text" as const, text: "Waiting for the result." },
      ],
    };
  });
  harness = await startHarness({ scenario, seed: 1 }, {}, (emulator) => {
    own.target = emulator.url;
    return new OpenAICompatibleProvider({
      baseURL: `${own.url}/v1`,
      env: {},
      sleep: async () => {},
      maxRetries: 20,
    });
  });
  const events = await collect(harness.engine.submitMessage("Run the steps."));
  const log = await readFile(join(harness.workspace, "log.txt"), "utf8");
  return { events, lines: log.trimEnd().split("\n") };
}

interface ChatMessage {
  role: string;
  content: unknown;
  tool_calls?: Array<{ function: { arguments: string } }>;
}

describe("a chat-completions stream cut after a complete tool call", () => {
  it("runs the tool once, records its result and continues without resending the request", async () => {
    const { events, lines } = await runSession(2, (request) =>
      request === 1 ? { afterToolUseStop: true } : undefined,
    );
    expect(lines).toEqual(["step-1", "step-2"]);
    expect(proxy?.log.filter((row) => row.cut)).toHaveLength(1);
    expect(events.some((event) => event.type === "notice" && /retrying/.test(event.message))).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "completed" });
    const main = (harness?.emulator.requests ?? [])
      .filter((entry) => entry.path === "/v1/chat/completions")
      .map((entry) => entry.body as { messages: ChatMessage[]; tools?: unknown[] })
      .filter((body) => (body.tools?.length ?? 0) > 0);
    expect(main).toHaveLength(3);
    const second = main[1];
    const assistant = second?.messages.find((message) => message.role === "assistant");
    expect(assistant?.tool_calls?.[0]?.function.arguments).toContain("echo step-1 >> log.txt");
    expect(JSON.stringify(assistant?.content)).not.toContain("Waiting for the result.");
    expect(second?.messages.some((message) => message.role === "tool")).toBe(true);
  });

  it("a 30-step session with 20 % cuts writes exactly 30 lines", async () => {
    const random = seededRandom(58);
    const { lines, events } = await runSession(30, () => {
      if (random() >= 0.2) return undefined;
      return random() < 0.5 ? { afterToolUseStop: true } : { afterEvent: 1 + Math.floor(random() * 12) };
    });
    expect(proxy?.log.filter((row) => row.cut).length).toBeGreaterThanOrEqual(4);
    expect(lines).toEqual(Array.from({ length: 30 }, (_, index) => `step-${index + 1}`));
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "completed" });
  });
});
