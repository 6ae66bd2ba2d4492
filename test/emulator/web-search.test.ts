/**
 * The emulator's server web search, learned from the pinned SDK's types: a request declaring `web_search_20250305`
 * gets `server_tool_use` + `web_search_tool_result` (from the test's corpus, no network) and a cited text, streamed
 * as the API streams them and counted in `usage.server_tool_use.web_search_requests`; malformed definitions and
 * blocks are rejected. The SDK's own stream accumulator is the oracle for the streamed shape.
 */
import Anthropic from "@anthropic-ai/sdk";
import { type Emulator, startEmulator, validateRequest, type WebSearchDocument } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { body, MODEL, post } from "./helpers.js";

const CORPUS: WebSearchDocument[] = [
  { url: "https://docs.example.org/tides", title: "Tide tables", text: "Tides rise twice a day at Brest." },
  { url: "https://blog.other.net/tides", title: "Tide blog", text: "Spring tides follow the full moon." },
  { url: "https://example.org/bread", title: "Bread", text: "Sourdough needs a starter." },
];
const SEARCH_TOOL = { type: "web_search_20250305", name: "web_search", max_uses: 8 } as const;

const running: Emulator[] = [];
afterEach(async () => {
  for (const emulator of running.splice(0)) await emulator.close();
});
async function start(): Promise<Emulator> {
  const emulator = await startEmulator({ seed: 7, webSearchCorpus: CORPUS });
  running.push(emulator);
  return emulator;
}

describe("server web search in the emulator", () => {
  it("streams the call, the results and a cited text, and counts the search", async () => {
    const emulator = await start();
    const client = new Anthropic({ apiKey: "test", baseURL: emulator.url });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 500,
      tools: [{ ...SEARCH_TOOL, allowed_domains: ["example.org"] }],
      messages: [{ role: "user", content: "tides" }],
    });
    const message = await stream.finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    const [call, result, text] = message.content;
    expect(call).toMatchObject({ type: "server_tool_use", name: "web_search", input: { query: "tides" } });
    if (result?.type !== "web_search_tool_result" || !Array.isArray(result.content)) throw new Error("no results");
    expect(result.tool_use_id).toBe((call as { id: string }).id);
    // allowed_domains keeps example.org and its subdomains only: the other host's tide page is filtered out.
    expect(result.content.map((hit) => hit.url)).toEqual(["https://docs.example.org/tides"]);
    expect(text).toMatchObject({
      type: "text",
      citations: [{ type: "web_search_result_location", url: "https://docs.example.org/tides" }],
    });
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });

    // The blocks go back as they came: the next request validates and is answered.
    const next = await post(emulator, "/v1/messages", {
      ...body({ tools: [SEARCH_TOOL] }),
      messages: [
        { role: "user", content: "tides" },
        {
          role: "assistant",
          content: message.content.map((block) => {
            const { caller: _caller, ...sent } = block as { caller?: unknown };
            return sent;
          }),
        },
        { role: "user", content: "thanks" },
      ],
    });
    expect(next.status).toBe(200);
  });

  it("answers max_uses_exceeded and unavailable as error results, which are not billed", async () => {
    const emulator = await startEmulator({ seed: 7 });
    running.push(emulator);
    const response = await post(
      emulator,
      "/v1/messages",
      body({ tools: [SEARCH_TOOL], messages: [{ role: "user", content: "tides" }] }),
    );
    const content = response.json.content as Array<Record<string, unknown>>;
    expect(content[1]).toMatchObject({ content: { type: "web_search_tool_result_error", error_code: "unavailable" } });
    expect((response.json.usage as Record<string, unknown>).server_tool_use).toBeNull();
  });

  it("rejects malformed definitions and half pairs as the API does", async () => {
    const errors = (payload: Record<string, unknown>) => validateRequest(payload).map((violation) => violation.message);
    expect(
      errors(body({ tools: [{ ...SEARCH_TOOL, allowed_domains: ["a.com"], blocked_domains: ["b.com"] }] })),
    ).toEqual(["tools.0.web_search_20250305: Cannot specify both allowed_domains and blocked_domains"]);
    expect(errors(body({ tools: [{ ...SEARCH_TOOL, name: "search" }] }))).toEqual([
      "tools.0.web_search_20250305.name: Input should be 'web_search'",
    ]);
    expect(errors(body({ tools: [{ ...SEARCH_TOOL, max_uses: 0 }] }))).toEqual([
      "tools.0.web_search_20250305.max_uses: Input should be greater than 0",
    ]);
    expect(errors(body({ tools: [{ ...SEARCH_TOOL, type: "web_search_20990101" }] }))[0]).toMatch(/does not match/);
    const call = { type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "q" } };
    const conversation = (assistant: unknown[]) =>
      body({
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: assistant },
          { role: "user", content: "more" },
        ],
      });
    expect(errors(conversation([call, { type: "text", text: "x" }]))[0]).toMatch(
      /server_tool_use` block srvtoolu_01 has no corresponding `web_search_tool_result/,
    );
    const forged = {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_01",
      content: [{ type: "web_search_result", url: "https://a", title: "a", encrypted_content: "made-up" }],
    };
    expect(errors(conversation([call, forged]))).toEqual([]);
    expect(validateRequest(conversation([call, forged]), { signatureSecret: "s" })[0]?.message).toMatch(
      /Invalid encrypted_content/,
    );
    expect(errors(conversation([forged]))[0]).toMatch(/without a preceding `server_tool_use`/);
  });
});
