/**
 * BedrockProvider and VertexProvider on their official SDKs against the emulator's platform routes:
 * one-shot calls, mid-stream exception frames, overload fallback, missing credentials, and the emulator
 * refusing bodies the platforms would refuse.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Emulator, type EmulatorOptions, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import {
  BedrockProvider,
  MISSING_AWS_CREDENTIALS,
  type Provider,
  ProviderError,
  resolveAwsAuth,
  VertexProvider,
} from "../../src/provider/index.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { collect } from "../../support/collect.js";
import { FAKE_AWS_ENV, FAKE_GOOGLE_ENV } from "../../support/platform-env.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { chainedContext, collectUntilError, makeRequest, ofType, recorded } from "./helpers/harness.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const PLATFORMS = {
  bedrock: (url: string, extra: { fallbackModel?: string } = {}) =>
    new BedrockProvider({ baseURL: url, env: FAKE_AWS_ENV, sleep: async () => {}, random: () => 0, ...extra }),
  vertex: (url: string, extra: { fallbackModel?: string } = {}) =>
    new VertexProvider({
      baseURL: `${url}/v1`,
      env: FAKE_GOOGLE_ENV,
      sleep: async () => {},
      random: () => 0,
      ...extra,
    }),
} as const;

async function setup(options: EmulatorOptions): Promise<Emulator> {
  emulator = await startEmulator({ stallMs: 60_000, ...options });
  return emulator;
}

/** A main-loop request (with a tool, so the emulator answers from the scenario). */
function loopRequest(model = "claude-sonnet-4-5") {
  const base = makeRequest(model);
  const body: MessagesRequest = {
    ...base.body,
    tools: [{ name: "Read", description: "Reads a file.", input_schema: { type: "object", properties: {} } }],
  };
  return { ...base, body, json: JSON.stringify(body) };
}

describe.each(["bedrock", "vertex"] as const)("%s provider", (platform) => {
  it("answers a one-shot call through the non-streaming route", async () => {
    const server = await setup({ scenario: ["Plain answer."] });
    const provider: Provider = PLATFORMS[platform](server.url);
    const message = await provider.complete!(loopRequest(), {});
    expect(message.content).toEqual([{ type: "text", text: "Plain answer." }]);
    const [record] = server.requests;
    expect(record?.path).toMatch(platform === "bedrock" ? /\/invoke$/ : /:rawPredict$/);
    expect(record?.stream).toBe(false);
    expect(server.stats().violations).toBe(0);
  });

  it("survives a mid-stream error without duplicated entries", async () => {
    const server = await setup({
      scenario: ["One answer, streamed in pieces."],
      faults: [{ onRequest: 1, kind: "stream_error" }],
    });
    const events = await collect(
      recorded(PLATFORMS[platform](server.url).stream(loopRequest()), chainedContext().next),
    );
    const [retry] = ofType(events, "retry");
    expect(retry?.error.retryable).toBe(true);
    if (platform === "bedrock") expect(retry?.error.message).toMatch(/^modelStreamErrorException: /);
    const ends = ofType(events, "message_end");
    expect(ends).toHaveLength(1);
    expect(server.stats().violations).toBe(0);
  });

  it("an over-long prompt is prompt_too_long with its token counts, as on the first-party API", async () => {
    const server = await setup({ contextWindow: 50 });
    const request = loopRequest();
    const big = { ...request.body, messages: [{ role: "user" as const, content: "word ".repeat(400) }] };
    const { error } = await collectUntilError(
      recorded(
        PLATFORMS[platform](server.url).stream({ ...request, body: big, json: JSON.stringify(big) }),
        chainedContext().next,
      ),
    );
    expect((error as ProviderError).kind).toBe("prompt_too_long");
    expect((error as ProviderError).options.maxTokens).toBe(50);
    expect((error as ProviderError).options.actualTokens).toBeGreaterThan(50);
    if (platform === "bedrock")
      expect((error as ProviderError).message).toMatch(/^400 ValidationException: prompt is too long/);
  });

  it("falls back to the fallback model after three overloads, both mapped to the platform's ids", async () => {
    const server = await setup({
      scenario: ["Answer from the fallback."],
      faults: [1, 2, 3].map((onRequest) => ({ onRequest, kind: "overloaded" as const })),
    });
    const provider = PLATFORMS[platform](server.url, { fallbackModel: "claude-haiku-4-5" });
    const events = await collect(recorded(provider.stream(loopRequest()), chainedContext().next));
    expect(ofType(events, "fallback")).toEqual([
      { type: "fallback", from: "claude-sonnet-4-5", to: "claude-haiku-4-5" },
    ]);
    const last = server.requests.at(-1)?.path ?? "";
    expect(last).toContain(platform === "bedrock" ? "us.anthropic.claude-haiku-4-5-20251001-v1" : "claude-haiku-4-5");
    expect(server.requests.at(-1)?.status).toBe(200);
  });
});

describe("credentials", () => {
  it("Bedrock without AWS credentials fails with one line and sends nothing", async () => {
    const server = await setup({});
    const env = { AWS_EC2_METADATA_DISABLED: "true", AWS_REGION: "us-east-1" };
    const auth = resolveAwsAuth(env, { exists: () => false, read: () => undefined, home: "/nonexistent" });
    const provider = new BedrockProvider({ baseURL: server.url, env, auth });
    const { error } = await collectUntilError(recorded(provider.stream(loopRequest()), chainedContext().next));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("auth");
    expect((error as ProviderError).message).toBe(MISSING_AWS_CREDENTIALS);
    expect(server.requests).toHaveLength(0);
  });

  it("a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK) is sent as a bearer token instead of a signature", async () => {
    const server = await setup({ scenario: ["Signed by a key."] });
    const token = "bedrock-api-key-test-not-real";
    const provider = new BedrockProvider({
      baseURL: server.url,
      env: { AWS_BEARER_TOKEN_BEDROCK: token, AWS_REGION: "eu-west-1" },
    });
    const message = await provider.complete(loopRequest(), {});
    expect(message.content).toEqual([{ type: "text", text: "Signed by a key." }]);
    expect(server.requests[0]?.path).toMatch(/^\/model\/eu\.anthropic\.claude-sonnet-4-5-/);
  });

  it("a named profile resolves through the credential chain (no metadata probe), a missing one fails on its own", async () => {
    const server = await setup({ scenario: ["Signed with a profile."] });
    const directory = await makeTempDir("aws");
    const credentials = join(directory, "credentials");
    await writeFile(credentials, "[dev]\naws_access_key_id = test\naws_secret_access_key = test-secret-not-real\n");
    const env = {
      AWS_PROFILE: "dev",
      AWS_SHARED_CREDENTIALS_FILE: credentials,
      AWS_CONFIG_FILE: join(directory, "config"),
      AWS_REGION: "us-east-1",
      AWS_EC2_METADATA_DISABLED: "true",
    };
    const message = await new BedrockProvider({ baseURL: server.url, env }).complete(loopRequest(), {});
    expect(message.content).toEqual([{ type: "text", text: "Signed with a profile." }]);
    const broken = new BedrockProvider({ baseURL: server.url, env: { ...env, AWS_PROFILE: "absent" } });
    const { error } = await collectUntilError(recorded(broken.stream(loopRequest()), chainedContext().next));
    expect((error as ProviderError).message).toMatch(/^Failed to resolve AWS credentials.*profile.*absent/);
    expect((error as ProviderError).kind).toBe("auth");
    expect(server.requests).toHaveLength(1);
  });

  it("the secret key never appears in an error", async () => {
    const server = await setup({ faults: [{ onRequest: 1, kind: "server_error" }] });
    const provider = new BedrockProvider({ baseURL: server.url, env: FAKE_AWS_ENV, maxRetries: 0 });
    const { error } = await collectUntilError(recorded(provider.stream(loopRequest()), chainedContext().next));
    expect((error as ProviderError).message).toMatch(/^500 InternalServerException: /);
    expect((error as ProviderError).message).not.toContain(FAKE_AWS_ENV.AWS_SECRET_ACCESS_KEY);
  });
});

describe("the emulator's platform routes refuse what the platforms refuse", () => {
  const post = (
    url: string,
    body: unknown,
    headers: Record<string, string> = { authorization: "AWS4-HMAC-SHA256 x" },
  ) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const minimal = { max_tokens: 16, messages: [{ role: "user", content: "hi" }] };

  it("Bedrock: a body with a model field is a ValidationException, counted as a violation", async () => {
    const server = await setup({});
    const response = await post(`${server.url}/model/anthropic.claude-sonnet-4-6/invoke`, {
      anthropic_version: "bedrock-2023-05-31",
      model: "claude-sonnet-4-6",
      ...minimal,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-amzn-errortype")).toMatch(/^ValidationException:/);
    expect(((await response.json()) as { message: string }).message).toContain("extraneous key [model]");
    expect(server.stats().violations).toBe(1);
  });

  it("Bedrock: no anthropic_version, or no signature, is refused", async () => {
    const server = await setup({});
    const unversioned = await post(`${server.url}/model/anthropic.claude-sonnet-4-6/invoke`, minimal);
    expect(unversioned.status).toBe(400);
    const unsigned = await post(`${server.url}/model/anthropic.claude-sonnet-4-6/invoke`, minimal, {});
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get("x-amzn-errortype")).toMatch(/^AccessDeniedException:/);
  });

  it("Vertex: a quota fault is Google's RESOURCE_EXHAUSTED", async () => {
    const server = await setup({ faults: [{ onRequest: 1, kind: "rate_limit" }] });
    const response = await post(
      `${server.url}/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-6:rawPredict`,
      { anthropic_version: "vertex-2023-10-16", ...minimal },
      { authorization: "Bearer token" },
    );
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: { status: string } }).error.status).toBe("RESOURCE_EXHAUSTED");
  });
});
