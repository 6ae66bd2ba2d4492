/**
 * The HTTP envelope: routes, error shape, auth, anthropic-version, 413, loopback-only binding,
 * count_tokens, models, lenient mode and the JSONL request log.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { body, MODEL, post } from "./helpers.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe("emulator HTTP envelope", () => {
  it("answers unknown paths with a 404 in the API's error shape", async () => {
    emulator = await startEmulator();
    const response = await fetch(`${emulator.url}/v1/nothing`, {
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
    });
    expect(response.status).toBe(404);
    const json = (await response.json()) as Record<string, unknown>;
    expect(json).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    expect(json.request_id).toMatch(/^req_01/);
    expect(response.headers.get("request-id")).toBe(json.request_id);
  });

  it("requires anthropic-version and a key; a configured key rejects others with 401", async () => {
    emulator = await startEmulator({ apiKey: "right" });
    expect((await post(emulator, "/v1/messages", body(), { "x-api-key": "right" })).status).toBe(200);
    const noVersion = await fetch(`${emulator.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "right" },
      body: JSON.stringify(body()),
    });
    expect(noVersion.status).toBe(400);
    const wrong = await post(emulator, "/v1/messages", body(), { "x-api-key": "wrong" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: { type: "authentication_error" } });
    const bearer = await post(emulator, "/v1/messages", body(), { "x-api-key": "", authorization: "Bearer right" });
    expect(bearer.status).toBe(200);
  });

  it("answers 413 request_too_large over maxRequestBytes", async () => {
    emulator = await startEmulator({ maxRequestBytes: 2000 });
    const { status, json } = await post(
      emulator,
      "/v1/messages",
      body({ messages: [{ role: "user", content: "x".repeat(3000) }] }),
    );
    expect(status).toBe(413);
    expect(json).toMatchObject({ type: "error", error: { type: "request_too_large" } });
  });

  it("rejects a contract violation with a 400 and its path", async () => {
    emulator = await startEmulator();
    const { status, json } = await post(
      emulator,
      "/v1/messages",
      body({ messages: [{ role: "user", content: [{ type: "text", text: "" }] }] }),
    );
    expect(status).toBe(400);
    expect(json).toMatchObject({
      error: { type: "invalid_request_error", message: "messages.0.content.0: text content blocks must be non-empty" },
    });
  });

  it("applies the configured context window", async () => {
    emulator = await startEmulator({ contextWindow: 100 });
    const { status, json } = await post(
      emulator,
      "/v1/messages",
      body({ messages: [{ role: "user", content: "y".repeat(800) }] }),
    );
    expect(status).toBe(400);
    expect((json.error as { message: string }).message).toBe("prompt is too long: 200 tokens > 100 maximum");
  });

  it("refuses to bind anywhere but loopback", async () => {
    await expect(startEmulator({ host: "0.0.0.0" })).rejects.toThrow(/loopback only/);
    const local = await startEmulator({ host: "127.0.0.2" });
    expect(local.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
    await local.close();
  });

  it("counts tokens and lists models", async () => {
    emulator = await startEmulator();
    const counted = await post(emulator, "/v1/messages/count_tokens", {
      model: MODEL,
      messages: [{ role: "user", content: "The quick brown fox jumps over the lazy dog." }],
    });
    // The Claude tokenizer's count of that sentence, a literal (characters / 4 would say 11).
    expect(counted.json).toEqual({ input_tokens: 10 });
    // The table holds more models than the API's default page of 20.
    const models = await fetch(`${emulator.url}/v1/models?limit=1000`, {
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
    });
    const list = (await models.json()) as { data: Array<{ id: string }> };
    expect(list.data.map((model) => model.id)).toContain("claude-sonnet-4");
  });

  // Mutation caught: emulator-effort-unchecked (an effort level the model does not declare is accepted).
  it("declares each model's effort levels and refuses a level the model does not declare", async () => {
    emulator = await startEmulator();
    const headers = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
    const info = (await (await fetch(`${emulator.url}/v1/models/claude-sonnet-4-6`, { headers })).json()) as {
      capabilities: { effort: Record<string, unknown> };
    };
    expect(info.capabilities.effort).toEqual({
      supported: true,
      low: { supported: true },
      medium: { supported: true },
      high: { supported: true },
      xhigh: { supported: false },
      max: { supported: true },
    });
    const older = (await (await fetch(`${emulator.url}/v1/models/claude-sonnet-4-5`, { headers })).json()) as {
      capabilities: { effort: { supported: boolean } };
    };
    expect(older.capabilities.effort.supported).toBe(false);
    const declared = await post(
      emulator,
      "/v1/messages",
      body({ model: "claude-sonnet-4-6", output_config: { effort: "max" } }),
    );
    expect(declared.status).toBe(200);
    const refused = await post(
      emulator,
      "/v1/messages",
      body({ model: "claude-sonnet-4-6", output_config: { effort: "xhigh" } }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain("claude-sonnet-4-6 does not support effort level 'xhigh'");
  });

  it("lenient mode records violations without rejecting, and logs every request to JSONL", async () => {
    const directory = await makeTempDir("emulator-log");
    const logPath = join(directory, "requests.jsonl");
    emulator = await startEmulator({ lenient: true, logPath });
    const { status } = await post(
      emulator,
      "/v1/messages",
      body({
        messages: [
          { role: "user", content: "a" },
          { role: "user", content: "b" },
        ],
      }),
    );
    expect(status).toBe(200);
    await post(emulator, "/v1/messages", body());
    expect(emulator.stats()).toMatchObject({ requests: 2, messagesRequests: 2, violations: 1, faults: 0 });
    const lines = (await readFile(logPath, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ index: 1, status: 200, path: "/v1/messages" });
    expect((lines[0]?.violations as Array<{ message: string }> | undefined)?.[0]?.message).toMatch(
      /^messages\.1: roles must alternate/,
    );
    expect(lines[1]?.violations).toEqual([]);
    // "Hello" is one token under the Claude tokenizer (characters / 4 would say 2).
    expect(lines[1]?.usage).toMatchObject({ input_tokens: 1 });
    expect(emulator.requests[1]?.body).toEqual(body());
  });
});
