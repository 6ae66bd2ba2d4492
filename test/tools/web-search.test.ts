/**
 * WebSearch through the engine against the emulator over HTTP: where the server declares web search, ToolSearch
 * loads WebSearch, the call runs one `web-search` side request carrying the `web_search_20250305` server tool (the
 * emulator answers from the test's corpus), the result lists the pages, and the search is billed at $10 per 1,000
 * on top of the tokens. Where the server does not declare it, no request offers WebSearch and a call anyway gets
 * one line saying why.
 */
import type { WebSearchDocument } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { costUsd, modelLimits, type Usage } from "../../src/messages/index.js";
import { webSearchTool } from "../../src/tools/web/web-search-tool.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

const CORPUS: WebSearchDocument[] = [
  { url: "https://docs.example.org/tides", title: "Tide tables", text: "Tides rise twice a day at Brest." },
  { url: "https://example.org/bread", title: "Bread", text: "Sourdough needs a starter." },
];

interface Body {
  model: string;
  tools?: Array<{ name: string; type?: string; description?: string }>;
  messages: Array<{ role: string; content: unknown }>;
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function bodies(current: Harness): Body[] {
  return current.emulator.requests.filter((entry) => entry.path === "/v1/messages").map((entry) => entry.body as Body);
}

function lastToolResult(body: Body | undefined): string {
  const content = body?.messages.at(-1)?.content as Array<{ type: string; content?: unknown }>;
  return JSON.stringify(content.find((block) => block.type === "tool_result")?.content);
}

describe("WebSearch", () => {
  // Mutation caught: a side request without the server tool finds nothing (the emulator echoes instead).
  it("runs the server's search in a side request and bills the search", async () => {
    const scenario = [
      { content: [{ type: "tool_use" as const, name: "ToolSearch", input: { query: "select:WebSearch" } }] },
      { content: [{ type: "tool_use" as const, name: "WebSearch", input: { query: "tides at Brest" } }] },
      "Twice a day.",
    ];
    harness = await startHarness(
      { scenario, webSearchCorpus: CORPUS },
      { deferredTools: true },
      { capabilities: { webSearch: true } },
    );
    const end = turnEnd(await collect(harness.engine.submitMessage("how often are tides at Brest?")));
    expect(end.reason).toBe("completed");
    const all = bodies(harness);
    const turns = all.filter((body) => (body.tools ?? []).some((tool) => tool.name === "ToolSearch"));
    const side = all.filter((body) => !(body.tools ?? []).some((tool) => tool.name === "ToolSearch"));
    expect(turns).toHaveLength(3);
    expect((turns[0]?.tools ?? []).map((tool) => tool.name)).not.toContain("WebSearch");
    expect(turns[0]?.tools?.find((tool) => tool.name === "ToolSearch")?.description).toContain("WebSearch");
    expect(side).toHaveLength(1);
    expect(side[0]?.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 8 }]);
    expect(JSON.stringify(side[0]?.messages)).toContain("tides at Brest");
    const result = lastToolResult(turns[2]);
    expect(result).toContain("[Tide tables](https://docs.example.org/tides)");
    expect(result).not.toContain("Bread");
    // Billed: the side request's record, and the turn's cost is its tokens plus $0.01 for the one search.
    const records = harness.engine.timeline.entries.filter((entry) => entry.type === "side-request") as Array<{
      purpose: string;
      usage: Usage;
    }>;
    expect(records.map((record) => record.purpose)).toEqual(["web-search"]);
    expect(records[0]?.usage.server_tool_use?.web_search_requests).toBe(1);
    const prices = modelLimits(turns[0]?.model ?? "");
    const tokens = harness.emulator.requests
      .filter((entry) => entry.path === "/v1/messages")
      .map((entry) => entry.usage as Usage)
      .reduce((sum, usage) => {
        const write = usage.cache_creation_input_tokens ?? 0;
        const write1h = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
        return (
          sum +
          costUsd(
            {
              inputTokens: usage.input_tokens,
              cacheReadTokens: usage.cache_read_input_tokens ?? 0,
              cacheWrite5mTokens: write - write1h,
              cacheWrite1hTokens: write1h,
              outputTokens: usage.output_tokens,
            },
            prices,
          )
        );
      }, 0);
    // Mutation caught: a search priced at anything but $10 per 1,000 moves this difference off 0.01.
    expect(end.usage.costUsd - tokens).toBeCloseTo(0.01, 9);
  });

  // Mutation caught: WebSearch offered to a server that does not declare web search.
  it("is not offered where the server does not declare web search, and a call says why", async () => {
    const scenario = [
      { content: [{ type: "tool_use" as const, name: "WebSearch", input: { query: "tides" } }] },
      "I cannot search here.",
    ];
    harness = await startHarness({ scenario, webSearchCorpus: CORPUS }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("search tides"))).reason).toBe("completed");
    const all = bodies(harness);
    for (const body of all) {
      expect(JSON.stringify(body.tools ?? [])).not.toContain("WebSearch");
      expect(JSON.stringify(body.tools ?? [])).not.toContain("web_search");
    }
    expect(lastToolResult(all.at(-1))).toContain(
      "WebSearch is not available: this server does not declare the Messages API's web_search server tool",
    );
  });

  it("has Claude Code 2.1.328's fields, types and required fields", async () => {
    const { readFileSync } = await import("node:fs");
    const fixture = JSON.parse(
      readFileSync(new URL("../fixtures/claude-code-tools.json", import.meta.url), "utf8"),
    ) as { tools: Array<{ name: string; input_schema: Record<string, unknown> }> };
    const theirs = fixture.tools.find((tool) => tool.name === "WebSearch")?.input_schema;
    const ours = z.toJSONSchema(webSearchTool.inputSchema) as Record<string, unknown>;
    const { $schema: _a, ...theirsBare } = theirs ?? {};
    const { $schema: _b, ...oursBare } = ours;
    // Descriptions are Claude Code's words for these three fields; the whole schema is the same.
    expect(oursBare).toEqual(theirsBare);
  });
});

describe("a session holding server web search blocks", () => {
  // Mutation caught: without pairServerToolResults the summary request carries a call whose result was cut (the
  // logged body says so), and the emulator (like the API) refuses it.
  it("compacts into a request the server accepts, and the next turn is valid too", async () => {
    const { createAssistantEntry, createUserEntry } = await import("../../src/messages/index.js");
    const at = (uuid: string, parentUuid: string | null) => ({
      sessionId: "00000000-0000-4000-8000-00000000aaaa",
      parentUuid,
      uuid,
      now: new Date(Date.UTC(2026, 0, 1)),
    });
    const id = (n: number) => `00000000-0000-4000-8000-0000000000${String(n).padStart(2, "0")}`;
    const meta = { messageId: "msg_ws", model: "claude-sonnet-4-6" };
    const cut = { messageId: "msg_cut", model: "claude-sonnet-4-6" };
    const initialEntries = [
      createUserEntry(at(id(1), null), "how often are tides?"),
      createAssistantEntry(
        at(id(2), id(1)),
        { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "tides" } },
        meta,
      ),
      createAssistantEntry(
        at(id(3), id(2)),
        {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_01",
          content: { type: "web_search_tool_result_error", error_code: "unavailable" },
        },
        meta,
      ),
      createAssistantEntry(at(id(4), id(3)), { type: "text", text: "I could not search." }, meta),
      createUserEntry(at(id(5), id(4)), "try again"),
      // A stream cut after the call: half a pair stays in the timeline.
      createAssistantEntry(
        at(id(6), id(5)),
        { type: "server_tool_use", id: "srvtoolu_02", name: "web_search", input: { query: "tides" } },
        cut,
      ),
      createAssistantEntry(at(id(7), id(6)), { type: "text", text: "Cut." }, cut),
    ];
    harness = await startHarness({ scenario: ["Fine."] }, { initialEntries, sessionId: at("", null).sessionId });
    // What was sent is asserted first (the emulator's log is the oracle): a compaction refused with a 400 must
    // fail here, on the body that carried the half pair, not on the error the engine throws for it.
    const compacted = await harness.engine.compact().then(
      () => undefined,
      (error: unknown) => error,
    );
    const summaryBody = JSON.stringify(harness.emulator.requests.find((entry) => entry.path === "/v1/messages")?.body);
    expect(summaryBody).toContain('"srvtoolu_01"');
    expect(summaryBody).not.toContain('"srvtoolu_02"');
    expect(summaryBody).toContain("Cut.");
    expect(compacted).toBeUndefined();
    expect(turnEnd(await collect(harness.engine.submitMessage("and now?"))).reason).toBe("completed");
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const post of posts) expect(JSON.stringify(post.body)).not.toContain('"srvtoolu_02"');
    for (const post of posts) expect(post.status).toBe(200);
  });
});
