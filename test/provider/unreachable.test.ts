import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { type Emulator, startEmulator } from "@threadline/emulator";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { PLACEHOLDER_API_KEY, requiresApiKey } from "../../src/provider/capabilities.js";
import { AnthropicProvider, ProviderError } from "../../src/provider/index.js";
import { retryDelayMs } from "../../src/provider/retry-policy.js";
import { UNREACHABLE_TABLE, unreachableMessage, unreachableRow } from "../../src/provider/unreachable.js";
import { collect } from "../../support/collect.js";
import {
  chainedContext,
  collectUntilError,
  makeRequest,
  recorded,
  recordingSleep,
  TEST_API_KEY,
} from "./helpers/harness.js";

/** An unreachable endpoint fails within 10 s of retries (literal: a person waits no longer than this). */
const UNREACHABLE_BUDGET_MS = 10_000;

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

describe("unreachable endpoints", () => {
  it("each table row's example is matched by that row first", () => {
    for (const row of UNREACHABLE_TABLE) expect(unreachableRow(row.example)).toBe(row);
    expect(unreachableRow("terminated: other side closed")).toBeUndefined();
    expect(unreachableRow("Connection error.: fetch failed: read ECONNRESET")).toBeUndefined();
  });

  it("the quick retries of every row fit the time budget, whatever the jitter", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.999_999, noNaN: true }), (jitter) => {
        for (const row of UNREACHABLE_TABLE) {
          let total = 0;
          for (let attempt = 1; attempt <= row.retries; attempt++) total += retryDelayMs(attempt, () => jitter);
          expect(total).toBeLessThanOrEqual(UNREACHABLE_BUDGET_MS);
        }
      }),
    );
  });

  it("connection refused: three quick retries, then one line naming the URL and the cause", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { sleep, delays } = recordingSleep();
    const provider = new AnthropicProvider({ baseURL: url, apiKey: TEST_API_KEY, sleep, env: {} });
    const { events, error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect(error).toBeInstanceOf(ProviderError);
    const failure = error as ProviderError;
    expect(failure.kind).toBe("connection");
    expect(failure.message).toContain(`Cannot reach ${url}: connection refused`);
    expect(failure.message).not.toContain("\n");
    expect(delays).toHaveLength(3);
    expect(events.filter((event) => event.type === "retry")).toHaveLength(3);
    expect(delays.reduce((sum, delay) => sum + delay, 0)).toBeLessThanOrEqual(UNREACHABLE_BUDGET_MS);
  });

  it("a port fetch will not dial fails at once, without retries", async () => {
    const { sleep, delays } = recordingSleep();
    const provider = new AnthropicProvider({ baseURL: "http://127.0.0.1:9", apiKey: TEST_API_KEY, sleep, env: {} });
    const { error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect((error as ProviderError).message).toBe(
      unreachableMessage("http://127.0.0.1:9", UNREACHABLE_TABLE[0] as (typeof UNREACHABLE_TABLE)[0], 0),
    );
    expect(delays).toEqual([]);
  });
});

describe("a key is optional for a non-Anthropic server", () => {
  it("Anthropic's hosts need a key; other servers do not", () => {
    expect(requiresApiKey(undefined)).toBe(true);
    expect(requiresApiKey("https://api.anthropic.com")).toBe(true);
    expect(requiresApiKey("https://eu.api.anthropic.com/v1")).toBe(true);
    expect(requiresApiKey("not a url")).toBe(true);
    expect(requiresApiKey("http://127.0.0.1:4000")).toBe(false);
    expect(requiresApiKey("https://llm.internal.example")).toBe(false);
    expect(requiresApiKey("https://anthropic.com.evil.example")).toBe(false);
  });

  it("without a key the emulator is sent the placeholder and answers", async () => {
    emulator = await startEmulator({ scenario: ["no key needed"] });
    const provider = new AnthropicProvider({ baseURL: emulator.url, env: {} });
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect(events.some((event) => event.type === "message_end")).toBe(true);
  });

  it("the placeholder is the credential that goes out", async () => {
    const seen: Array<string | string[] | undefined> = [];
    const server = createHttpServer((request, response) => {
      // This SDK sends the key as x-api-key or as a bearer token, depending on its version.
      seen.push(request.headers["x-api-key"] ?? request.headers.authorization?.replace(/^Bearer /, ""));
      response.writeHead(400, { "content-type": "application/json", "x-should-retry": "false" });
      response.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "seen" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const address = server.address() as { port: number };
      const provider = new AnthropicProvider({ baseURL: `http://127.0.0.1:${address.port}`, env: {} });
      await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
      expect(seen).toEqual([PLACEHOLDER_API_KEY]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
