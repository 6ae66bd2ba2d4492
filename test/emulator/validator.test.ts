/**
 * One violating request per contract rule: the right status, error type and path. Plus valid requests
 * that must pass (a validator that rejects everything would pass the first half).
 */

import { signThinking, type ValidateOptions, validateRequest } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { body, READ_TOOL } from "./helpers.js";

const SECRET = "test-secret";

function firstViolation(payload: unknown, options: ValidateOptions = {}) {
  const violations = validateRequest(payload, options);
  expect(violations.length, JSON.stringify(payload).slice(0, 300)).toBeGreaterThan(0);
  return violations[0]!;
}

function expectRule(payload: unknown, path: string, phrase: RegExp, options: ValidateOptions = {}): void {
  const violation = firstViolation(payload, options);
  expect(violation.status).toBe(400);
  expect(violation.type).toBe("invalid_request_error");
  expect(violation.message.startsWith(path === "" ? "" : `${path}: `), violation.message).toBe(true);
  expect(violation.message).toMatch(phrase);
}

function png(width: number, height: number): string {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write("IHDR", 12, "latin1");
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString("base64");
}

function image(data: string) {
  return { type: "image", source: { type: "base64", media_type: "image/png", data } };
}

const toolUse = (id: string) => ({ type: "tool_use", id, name: "Read", input: { file_path: "a" } });
const toolResult = (id: string, extra: Record<string, unknown> = {}) => ({
  type: "tool_result",
  tool_use_id: id,
  content: "ok",
  ...extra,
});
const thinking = (text: string, signature = signThinking(text, SECRET)) => ({
  type: "thinking",
  thinking: text,
  signature,
});

describe("validateRequest accepts valid requests", () => {
  it("accepts a rich, valid conversation", () => {
    const valid = body({
      system: [{ type: "text", text: "You are helpful.", cache_control: { type: "ephemeral", ttl: "1h" } }],
      tools: [READ_TOOL],
      thinking: { type: "enabled", budget_tokens: 1024 },
      max_tokens: 4000,
      messages: [
        { role: "user", content: [{ type: "text", text: "read a" }, image(png(100, 100))] },
        { role: "assistant", content: [thinking("hmm"), { type: "text", text: "reading" }, toolUse("toolu_1")] },
        {
          role: "user",
          content: [
            toolResult("toolu_1", { cache_reference: "toolu_1" }),
            { type: "text", text: "thanks", cache_control: { type: "ephemeral" } },
          ],
        },
        { role: "assistant", content: [thinking("again"), toolUse("toolu_2")] },
        {
          role: "user",
          content: [
            toolResult("toolu_2", { is_error: true, content: [{ type: "text", text: "failed" }] }),
            { type: "cache_edits", edits: [{ type: "delete", cache_reference: "toolu_1" }] },
          ],
        },
      ],
    });
    expect(validateRequest(valid, { signatureSecret: SECRET, cacheEditing: true })).toEqual([]);
  });

  it("accepts a prefill and a count_tokens body without max_tokens", () => {
    expect(
      validateRequest(
        body({
          messages: [
            { role: "user", content: "hi" },
            { role: "assistant", content: "The answer:" },
          ],
        }),
      ),
    ).toEqual([]);
    const { max_tokens: _unused, ...countBody } = body();
    expect(validateRequest(countBody, { endpoint: "count_tokens" })).toEqual([]);
  });
  it('rejects prefill on newer models: "This model does not support assistant message prefill"', () => {
    const prefill = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "The answer:" },
    ];
    expectRule(
      body({ model: "claude-sonnet-4-6", messages: prefill }),
      "messages.1",
      /does not support assistant message prefill/,
    );
    expect(validateRequest(body({ model: "claude-sonnet-4-5-20250929", messages: prefill }))).toEqual([]);
  });
});

describe("validateRequest: envelope and limits", () => {
  it("rejects unknown top-level fields", () =>
    expectRule(body({ temprature: 1 }), "temprature", /Extra inputs are not permitted/));
  it("requires model", () => expectRule(body({ model: undefined }), "model", /Field required/));
  it("requires max_tokens", () => expectRule(body({ max_tokens: undefined }), "max_tokens", /Field required/));
  it("count_tokens rejects max_tokens", () =>
    expectRule(body(), "max_tokens", /Extra inputs/, { endpoint: "count_tokens" }));
  it("requires non-empty messages", () => expectRule(body({ messages: [] }), "messages", /at least one message/));
  it("checks max_tokens against the model table", () =>
    expectRule(
      body({ max_tokens: 64_001 }),
      "max_tokens",
      /64001 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4/,
    ));
  it("answers 413 request_too_large over the byte limit", () => {
    const violation = firstViolation(body({ messages: [{ role: "user", content: "x".repeat(2000) }] }), {
      maxRequestBytes: 1000,
    });
    expect(violation).toMatchObject({ status: 413, type: "request_too_large" });
  });
  it("rejects a prompt longer than the window", () => {
    expectRule(
      // 1,000 tokens under the Claude tokenizer (each " x" one token); the characters / 4 estimate says 500.
      body({ messages: [{ role: "user", content: "x ".repeat(1000).trimEnd() }] }),
      "",
      /^prompt is too long: 1000 tokens > 500 maximum$/,
      {
        contextWindow: 500,
      },
    );
  });
  it("rejects input + max_tokens over the window only when asked to", () => {
    const payload = body({ max_tokens: 601, messages: [{ role: "user", content: "x ".repeat(100).trimEnd() }] });
    expect(validateRequest(payload, { contextWindow: 700 })).toEqual([]);
    expectRule(payload, "", /input length and `max_tokens` exceed context limit: 100 \+ 601 > 700/, {
      contextWindow: 700,
      rejectInputPlusMaxTokens: true,
    });
  });
  it("rejects unknown fields inside blocks", () =>
    expectRule(
      body({ messages: [{ role: "user", content: [{ type: "text", text: "a", colour: 1 }] }] }),
      "messages.0.content.0.colour",
      /Extra inputs/,
    ));
  it("requires the context-management beta when betas are checked", () =>
    expectRule(
      body({ context_management: { edits: [{ type: "clear_tool_uses_20250919" }] } }),
      "context_management",
      /Extra inputs/,
      {
        betas: [],
      },
    ));
});

describe("validateRequest: roles and content", () => {
  it("first message is user", () =>
    expectRule(
      body({ messages: [{ role: "assistant", content: "hi" }] }),
      "messages.0",
      /first message must use the "user" role/,
    ));
  it("roles alternate", () =>
    expectRule(
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "user", content: "b" },
        ],
      }),
      "messages.1",
      /roles must alternate/,
    ));
  it("unknown role", () =>
    expectRule(
      body({ messages: [{ role: "tool", content: "a" }] }),
      "messages.0.role",
      /'user', 'assistant' or 'system'/,
    ));
  it("a system message may come mid-conversation, never first, and holds text and tool changes only", () => {
    const mid = body({
      messages: [
        { role: "user", content: "a" },
        { role: "system", content: [{ type: "text", text: "Be brief." }] },
        { role: "assistant", content: "b" },
        { role: "system", content: "Now in French." },
        { role: "user", content: "c" },
      ],
    });
    expect(validateRequest(mid)).toEqual([]);
    expectRule(
      body({ messages: [{ role: "system", content: "a" }] }),
      "messages.0",
      /first message must use the "user" role/,
    );
    expectRule(
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "system", content: [{ type: "image", source: { type: "url", url: "http://x" } }] },
        ],
      }),
      "messages.1.content.0.type",
      /may only contain `text`, `tool_addition` and `tool_removal` blocks/,
    );
  });
  it("non-final messages need content", () =>
    expectRule(
      body({
        messages: [
          { role: "user", content: [] },
          { role: "assistant", content: "x" },
        ],
      }),
      "messages.0",
      /non-empty content/,
    ));
  it("text blocks are non-empty", () =>
    expectRule(
      body({ messages: [{ role: "user", content: [{ type: "text", text: "" }] }] }),
      "messages.0.content.0",
      /must be non-empty/,
    ));
  it("text blocks contain non-whitespace", () =>
    expectRule(
      body({ messages: [{ role: "user", content: [{ type: "text", text: " \n\t" }] }] }),
      "messages.0.content.0",
      /non-whitespace/,
    ));
  it("a prefill cannot end with whitespace", () =>
    expectRule(
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: [{ type: "text", text: "Answer: " }] },
        ],
      }),
      "messages.1.content.0",
      /trailing whitespace/,
    ));
  it("blocks must suit the role", () =>
    expectRule(
      body({ messages: [{ role: "user", content: [toolUse("toolu_1")] }] }),
      "messages.0.content.0",
      /not allowed in `user` messages/,
    ));
  it("unknown block types", () =>
    expectRule(
      body({ messages: [{ role: "user", content: [{ type: "video", data: "" }] }] }),
      "messages.0.content.0.type",
      /does not match/,
    ));
});

describe("validateRequest: thinking", () => {
  const withThinking = (messages: unknown[], extra: Record<string, unknown> = {}) =>
    body({ max_tokens: 4000, thinking: { type: "enabled", budget_tokens: 1024 }, messages, ...extra });
  it("budget at least 1024", () =>
    expectRule(
      body({ max_tokens: 4000, thinking: { type: "enabled", budget_tokens: 1000 } }),
      "thinking.enabled.budget_tokens",
      /greater than or equal to 1024/,
    ));
  it("budget below max_tokens", () =>
    expectRule(
      body({ max_tokens: 2000, thinking: { type: "enabled", budget_tokens: 2000 } }),
      "max_tokens",
      /greater than `thinking.budget_tokens`/,
    ));
  it("thinking cannot be the final block", () =>
    expectRule(
      withThinking([
        { role: "user", content: "a" },
        { role: "assistant", content: [thinking("t")] },
        { role: "user", content: "b" },
      ]),
      "messages.1.content.0",
      /final block in an assistant message cannot be `thinking`/,
    ));
  it("thinking comes first", () =>
    expectRule(
      withThinking([
        { role: "user", content: "a" },
        { role: "assistant", content: [{ type: "text", text: "x" }, thinking("t")] },
        { role: "user", content: "b" },
      ]),
      "messages.1.content.1",
      /must come first/,
    ));
  it("thinking needs its signature", () =>
    expectRule(
      withThinking([
        { role: "user", content: "a" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "t" },
            { type: "text", text: "x" },
          ],
        },
        { role: "user", content: "b" },
      ]),
      "messages.1.content.0.signature",
      /signature/,
    ));
  it("the latest turn's thinking is byte-exact (HMAC)", () => {
    const conversation = (latest: string) =>
      withThinking([
        { role: "user", content: "a" },
        { role: "assistant", content: [thinking("old", "not-a-real-signature"), { type: "text", text: "x" }] },
        { role: "user", content: "b" },
        {
          role: "assistant",
          content: [
            { ...thinking("new"), thinking: latest },
            { type: "text", text: "y" },
          ],
        },
        { role: "user", content: "c" },
      ]);
    // Earlier turns are only checked for presence: the bad signature on messages.1 passes.
    expect(validateRequest(conversation("new"), { signatureSecret: SECRET })).toEqual([]);
    expectRule(conversation("new "), "messages.3.content.0", /cannot be modified/, { signatureSecret: SECRET });
    // Without a secret only presence is checked.
    expect(validateRequest(conversation("new "))).toEqual([]);
  });
  it("thinking allows only auto or none tool_choice", () =>
    expectRule(
      withThinking([{ role: "user", content: "a" }], { tools: [READ_TOOL], tool_choice: { type: "any" } }),
      "tool_choice",
      /forces tool use/,
    ));
});

describe("validateRequest: tools", () => {
  it("every tool_use needs a tool_result in the next message", () =>
    expectRule(
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: [toolUse("toolu_1"), toolUse("toolu_2")] },
          { role: "user", content: [toolResult("toolu_1")] },
        ],
      }),
      "messages.1",
      /without `tool_result` blocks immediately after: toolu_2/,
    ));
  it("a tool_result answers a tool_use in the previous message", () =>
    expectRule(
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: [toolUse("toolu_1")] },
          { role: "user", content: [toolResult("toolu_1"), toolResult("toolu_9")] },
        ],
      }),
      "messages.2.content.1",
      /unexpected `tool_use_id` found in `tool_result` blocks: toolu_9/,
    ));
  it("tool_results come first", () =>
    expectRule(
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: [toolUse("toolu_1")] },
          { role: "user", content: [{ type: "text", text: "x" }, toolResult("toolu_1")] },
        ],
      }),
      "messages.2.content.1",
      /must come first/,
    ));
  const errorResult = (content: unknown) =>
    body({
      messages: [
        { role: "user", content: "a" },
        { role: "assistant", content: [toolUse("toolu_1")] },
        { role: "user", content: [toolResult("toolu_1", { is_error: true, content })] },
      ],
    });
  it("is_error results are non-empty", () =>
    expectRule(errorResult(""), "messages.2.content.0", /cannot be empty if `is_error` is true/));
  it("is_error results are text-only", () =>
    expectRule(errorResult([image(png(1, 1))]), "messages.2.content.0.content.0", /only contain text/));
  it("tool names match the pattern", () =>
    expectRule(body({ tools: [{ ...READ_TOOL, name: "read file" }] }), "tools.0.custom.name", /should match pattern/));
  it("tool names are unique", () => expectRule(body({ tools: [READ_TOOL, READ_TOOL] }), "tools", /must be unique/));
});

describe("validateRequest: cache_control", () => {
  const marked = (ttl?: "5m" | "1h") => ({
    type: "text",
    text: "x",
    cache_control: ttl ? { type: "ephemeral", ttl } : { type: "ephemeral" },
  });
  it("at most four blocks", () => {
    const violation = firstViolation(
      body({ system: [marked(), marked(), marked()], messages: [{ role: "user", content: [marked(), marked()] }] }),
    );
    expect(violation).toMatchObject({ status: 400, type: "invalid_request_error" });
    expect(violation.message).toMatch(/A maximum of 4 blocks with cache_control may be provided. Found 5/);
  });
  it("a 1h block cannot follow a 5m block (tools, system, messages order)", () =>
    expectRule(
      body({
        tools: [{ ...READ_TOOL, cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: [marked("1h")] }],
      }),
      "messages.0.content.0.cache_control",
      /ttl='1h'.*must not come after/,
    ));
  it("not on empty text blocks", () => {
    const violations = validateRequest(
      body({
        messages: [{ role: "user", content: [{ type: "text", text: "", cache_control: { type: "ephemeral" } }] }],
      }),
    );
    expect(violations.map((violation) => violation.message)).toContain(
      "messages.0.content.0.cache_control: cache_control cannot be set for empty text blocks",
    );
  });
  it("rejects a bad ttl", () =>
    expectRule(
      body({
        messages: [
          { role: "user", content: [{ type: "text", text: "x", cache_control: { type: "ephemeral", ttl: "2h" } }] },
        ],
      }),
      "messages.0.content.0.cache_control.ttl",
      /'5m' or '1h'/,
    ));
});

describe("validateRequest: cache editing", () => {
  const conversation = (edit: string) =>
    body({
      messages: [
        { role: "user", content: "a" },
        { role: "assistant", content: [toolUse("toolu_1")] },
        {
          role: "user",
          content: [
            toolResult("toolu_1", { cache_reference: "toolu_1" }),
            { type: "cache_edits", edits: [{ type: "delete", cache_reference: edit }] },
          ],
        },
      ],
    });
  it("a delete must name a reference carried by a tool_result", () => {
    expect(validateRequest(conversation("toolu_1"), { cacheEditing: true })).toEqual([]);
    expectRule(conversation("toolu_404"), "messages.2.content.1.edits.0", /does not match any tool_result/, {
      cacheEditing: true,
    });
  });
  it("cache_edits and cache_reference are extra inputs by default, as on the public API", () => {
    const violations = validateRequest(conversation("toolu_1"));
    expect(violations.map((violation) => violation.message)).toEqual([
      "messages.2.content.0.cache_reference: Extra inputs are not permitted",
      "messages.2.content.1.type: Input tag 'cache_edits' found using 'type' does not match any of the expected tags",
    ]);
  });
});

describe("validateRequest: media", () => {
  const withImages = (images: unknown[]) =>
    body({ messages: [{ role: "user", content: [{ type: "text", text: "look" }, ...images] }] });
  it("an image over 5 MB", () =>
    expectRule(
      withImages([image("A".repeat(5 * 1024 * 1024 + 4))]),
      "messages.0.content.1.source.base64",
      /image exceeds 5 MB maximum/,
    ));
  it("an image over 8000 px", () => {
    expect(validateRequest(withImages([image(png(8000, 10))]))).toEqual([]);
    expectRule(withImages([image(png(8001, 10))]), "messages.0.content.1.source.base64.data", /8000 pixels/);
  });
  it("over 2000 px when more than 20 images", () => {
    const many = Array.from({ length: 20 }, () => image(png(10, 10)));
    expect(validateRequest(withImages([...many, image(png(2001, 10))])).length).toBeGreaterThan(0);
    expectRule(
      withImages([...many, image(png(2001, 10))]),
      "messages.0.content.21.source.base64.data",
      /many-image requests: 2000 pixels/,
    );
    expect(validateRequest(withImages([...many.slice(1), image(png(2001, 10))]))).toEqual([]);
  });
  it("at most 100 images", () =>
    expectRule(withImages(Array.from({ length: 101 }, () => image(png(10, 10)))), "messages", /101 > 100/));
});
