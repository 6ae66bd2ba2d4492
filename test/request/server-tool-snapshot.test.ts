/**
 * A conversation holding a server web search (server_tool_use, web_search_tool_result, a cited text) is sent byte
 * for byte as stored, in the SDK's key order, with the web_search tool declared after the client tools; a half
 * pair is dropped. The emulator's validator (the pinned SDK's shapes) accepts the result.
 */
import { validateRequest } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import type { AssistantContentBlock } from "../../src/messages/index.js";
import { assembleRequest, emptyLatches, normalizeMessagesForAPI } from "../../src/request/index.js";
import { TOOLS } from "../../support/messy-timeline.js";
import { assistant, user } from "./helpers.js";

const CALL: AssistantContentBlock = {
  type: "server_tool_use",
  id: "srvtoolu_01",
  name: "web_search",
  input: { query: "tides" },
};
const RESULT: AssistantContentBlock = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_01",
  content: [
    { type: "web_search_result", url: "https://a.example/t", title: "T", encrypted_content: "e1", page_age: null },
  ],
};
const CITED: AssistantContentBlock = {
  type: "text",
  text: "Twice a day.",
  citations: [
    {
      type: "web_search_result_location",
      url: "https://a.example/t",
      title: "T",
      cited_text: "twice",
      encrypted_index: "i1",
    },
  ],
};

describe("server web search blocks in a request", () => {
  it("are sent byte-exactly as stored, the server tool declared after the client tools", async () => {
    const entries = [
      user("how often are tides?"),
      assistant(CALL, "msg_1"),
      assistant(RESULT, "msg_1"),
      assistant(CITED, "msg_1"),
      user("thanks"),
    ];
    const output = assembleRequest({
      messages: entries,
      settings: {
        model: "claude-sonnet-4-5",
        systemPrompt: ["You are threadline."],
        tools: TOOLS,
        serverTools: [{ type: "web_search_20250305", name: "web_search", max_uses: 8 }],
      },
      latches: emptyLatches(),
      pins: [],
    });
    expect(validateRequest(output.request.body)).toEqual([]);
    const assistantJson = JSON.stringify(output.request.body.messages[1]);
    expect(assistantJson).toBe(
      '{"role":"assistant","content":[' +
        '{"type":"server_tool_use","id":"srvtoolu_01","name":"web_search","input":{"query":"tides"}},' +
        '{"type":"web_search_tool_result","tool_use_id":"srvtoolu_01","content":[{"type":"web_search_result","url":"https://a.example/t","title":"T","encrypted_content":"e1","page_age":null}]},' +
        '{"type":"text","text":"Twice a day.","citations":[{"type":"web_search_result_location","url":"https://a.example/t","title":"T","cited_text":"twice","encrypted_index":"i1"}]}]}',
    );
    expect(JSON.stringify(output.request.body.tools?.at(-1))).toBe(
      '{"type":"web_search_20250305","name":"web_search","max_uses":8}',
    );
    await expect(output.request.json).toMatchFileSnapshot("__snapshots__/web-search.request.json.txt");
  });

  // Mutation caught: without pairServerToolResults a call cut before its result is sent, and the API refuses it.
  it("drops half a pair, keeping the text after it", () => {
    const messages = normalizeMessagesForAPI([
      user("search"),
      assistant(CALL, "msg_2"),
      assistant({ type: "text", text: "Stream cut." }, "msg_2"),
      user("again"),
    ]);
    expect(messages[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "Stream cut." }] });
  });
});
