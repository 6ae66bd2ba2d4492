/**
 * Exactly once under a re-send (issue 55): SDK 1.17 sends a non-streaming POST again by itself when its
 * connection drops part-way through the response body — after the server already did the work. threadline turns
 * that off (`maxRetries: 0`, `.asResponse()`), and its own retry sends again only a request whose repetition costs
 * nothing but tokens. Faults: the emulator's `body_cut` (200, the whole body's length, half the body, the
 * connection dropped). Oracles: the emulator's request log (POSTs, what each carried, the searches it ran) and the
 * session's records.
 */
import type { WebSearchDocument } from "@threadline/emulator";
import { startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import type { Usage } from "../../src/messages/index.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { makeRequest } from "../provider/helpers/harness.js";

const CORPUS: WebSearchDocument[] = [
  { url: "https://docs.example.org/tides", title: "Tide tables", text: "Tides rise twice a day at Brest." },
];

let harness: Harness | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const close of closers.splice(0)) await close();
});

describe("a non-streaming side request whose answer is cut after the server answered", () => {
  // Mutation caught: resend-after-answered-search (the cut search side request sent again by threadline's retry).
  it("a web search that ran is not run again: one POST carries it, one search billed, the tool says why", async () => {
    const scenario = [
      { content: [{ type: "tool_use" as const, name: "ToolSearch", input: { query: "select:WebSearch" } }] },
      { content: [{ type: "tool_use" as const, name: "WebSearch", input: { query: "tides at Brest" } }] },
      "Could not search.",
    ];
    // POST 1 and 2 are the turn's, 3 the search side request.
    harness = await startHarness(
      { scenario, webSearchCorpus: CORPUS, faults: [{ onRequest: 3, kind: "body_cut" }] },
      { deferredTools: true, model: "claude-sonnet-4-6" },
      { capabilities: { webSearch: true } },
    );
    const end = turnEnd(await collect(harness.engine.submitMessage("how often are tides at Brest?")));
    expect(end.reason).toBe("completed");
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    const searches = posts.filter((entry) =>
      JSON.stringify((entry.body as { tools?: unknown }).tools ?? []).includes("web_search_20250305"),
    );
    expect(searches).toHaveLength(1);
    expect(searches[0]!.fault).toBe("body_cut");
    expect(searches[0]!.status).toBe(200);
    // The server did run the search (its own usage), once.
    expect((searches[0]!.usage as Usage).server_tool_use?.web_search_requests).toBe(1);
    expect(posts).toHaveLength(4);
    const lastTurn = JSON.stringify((posts[3]!.body as { messages: unknown[] }).messages.at(-1));
    expect(lastTurn).toContain("not sent again");
    expect(lastTurn).toContain("web_search_20250305");
  });

  it("a request without server tools is sent again by threadline's own retry, once, and answered once", async () => {
    // The cut request did the work (it took the first step); the retry is a new request and gets the second.
    const emulator = await startEmulator({
      scenario: ["Lost answer.", "Second answer."],
      faults: [{ onRequest: 1, kind: "body_cut" }],
      // A request without tools is answered from the scenario, not echoed as a side chat.
      sideRequestsWithoutTools: false,
    });
    closers.push(() => emulator.close());
    const retries: string[] = [];
    const reply = await fastProvider(emulator.url).complete(makeRequest("claude-sonnet-4-6"), {
      onRetry: (retry) => retries.push(retry.error.kind),
    });
    const posts = emulator.requests.filter((entry) => entry.path === "/v1/messages");
    // One retry, and it is threadline's (observed): the SDK sent nothing on its own.
    expect(retries).toEqual(["connection"]);
    expect(posts.map((entry) => [entry.fault ?? null, entry.status])).toEqual([
      ["body_cut", 200],
      [null, 200],
    ]);
    expect(reply.content).toEqual([{ type: "text", text: "Second answer." }]);
  });
});
