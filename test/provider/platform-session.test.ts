/**
 * A 10-step tool session through each cloud provider — the official Bedrock and Vertex SDKs over real
 * HTTP on loopback, fake AWS and Google credentials — against the emulator's platform routes: finished,
 * contract-valid, cache usage accounted, one injected throttling error retried in the platform's words.
 */

import type { Emulator, EmulatorOptions } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { BedrockProvider, VertexProvider } from "../../src/provider/index.js";
import type { Provider } from "../../src/provider/types.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { FAKE_AWS_ENV, FAKE_GOOGLE_ENV } from "../../support/platform-env.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const STEPS = 10;
const MODEL = "claude-sonnet-4-5";

interface PlatformCase {
  name: "bedrock" | "vertex";
  provider(emulator: Emulator): Provider;
  /** The path every model request must use. */
  path: RegExp;
  /** How the platform words the injected throttling. */
  throttling: RegExp;
}

const CASES: PlatformCase[] = [
  {
    name: "bedrock",
    provider: (emulator) =>
      new BedrockProvider({ baseURL: emulator.url, env: FAKE_AWS_ENV, sleep: async () => {}, random: () => 0 }),
    path: /^\/model\/us\.anthropic\.claude-sonnet-4-5-20250929-v1(:|%3A)0\/invoke-with-response-stream$/,
    throttling: /^429 ThrottlingException: Too many requests/,
  },
  {
    name: "vertex",
    provider: (emulator) =>
      new VertexProvider({
        baseURL: `${emulator.url}/v1`,
        env: FAKE_GOOGLE_ENV,
        sleep: async () => {},
        random: () => 0,
      }),
    path: /^\/v1\/projects\/test-project\/locations\/us-east5\/publishers\/anthropic\/models\/claude-sonnet-4-5(@|%40)20250929:streamRawPredict$/,
    throttling: /^429 RESOURCE_EXHAUSTED: Quota exceeded/,
  },
];

let harness: Harness | undefined;

/** An emulator, temp workspace and home, and an engine whose provider is the platform's, over real HTTP. */
function startPlatformHarness(platform: PlatformCase, options: EmulatorOptions): Promise<Harness> {
  return startHarness(options, { model: MODEL, sessionMemory: false }, platform.provider);
}
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.each(CASES)("a $name session against the emulator", (platform) => {
  it(`runs ${STEPS} tool steps to the end, valid, cached, with one throttling retried`, async () => {
    harness = await startPlatformHarness(platform, {
      scenario: readEachFileScenario(sourceFileNames(STEPS)),
      faults: [{ onRequest: 3, kind: "rate_limit" }],
      retryAfterSeconds: 0,
    });
    await writeSourceFiles(harness.workspace, STEPS);

    const events = await collect(harness.engine.submitMessage("Read every module and tell me if they agree."));
    const end = turnEnd(events);

    expect(end.reason).toBe("completed");
    expect(end.lastText).toBe("Read everything; the helpers are consistent.");
    const tools = events.filter((event) => event.type === "tool_end");
    expect(tools).toHaveLength(STEPS);
    expect(tools.every((event) => event.type === "tool_end" && !event.isError)).toBe(true);

    const stats = harness.emulator.stats();
    expect(stats.violations).toBe(0);
    expect(stats.faults).toBe(1);
    expect(stats.stepsRemaining).toBe(0);

    const modelRequests = harness.emulator.requests.filter((request) => request.messagesRequest !== undefined);
    expect(modelRequests.map((request) => request.path).filter((path) => !platform.path.test(path))).toEqual([]);
    expect(modelRequests.map((request) => request.status).filter((status) => status !== 200)).toEqual([429]);

    const retries = events.filter((event) => event.type === "notice" && event.level === "warning");
    expect(retries).toHaveLength(1);
    expect(retries[0]?.type === "notice" ? retries[0].message : "").toMatch(platform.throttling);

    // Cache usage: from the third request on, the prefix is read from the cache, and the totals say so.
    expect(end.usage.cacheReadInputTokens).toBeGreaterThan(0);
    expect(end.usage.cacheCreationInputTokens).toBeGreaterThan(0);
    const served = modelRequests.filter((request) => request.status === 200);
    const readByEmulator = served.reduce((sum, request) => sum + (request.usage?.cache_read_input_tokens ?? 0), 0);
    expect(end.usage.cacheReadInputTokens).toBe(readByEmulator);
  });
});
