import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "../../src/messages/index.js";
import { CLASSIFICATION_TABLE, classifyError, classifyFacts, ProviderError } from "../../src/provider/index.js";
import { TEST_API_KEY } from "./helpers/harness.js";

/** An SDK error as the SDK itself builds it from a response. */
function apiError(status: number, type: string, message: string, headers: Record<string, string> = {}): APIError {
  return APIError.generate(
    status,
    { type: "error", error: { type, message } },
    undefined,
    new Headers({ "request-id": "req_1", ...headers }),
  );
}

describe("classification table", () => {
  it.each(CLASSIFICATION_TABLE.map((row, index) => [index, row.kind, row] as const))(
    "row %i (%s) classifies its own example",
    (_index, kind, row) => {
      expect(classifyFacts(row.example)).toEqual({ kind, retryable: row.retryable });
    },
  );

  it("has an example for every error kind that can come from the server", () => {
    const kinds = new Set(CLASSIFICATION_TABLE.map((row) => row.kind));
    for (const kind of [
      "prompt_too_long",
      "request_too_large",
      "image_too_large",
      "pdf_too_large",
      "pdf_password_protected",
      "pdf_invalid",
      "overloaded",
      "rate_limited",
      "auth",
      "not_found",
      "invalid_request",
      "server",
      "connection",
    ] as const) {
      expect(kinds.has(kind)).toBe(true);
    }
  });

  it("classifies SDK errors built from each row's example body", () => {
    for (const row of CLASSIFICATION_TABLE) {
      if (row.example.status === undefined || row.example.errorType === undefined) continue;
      const error = classifyError(apiError(row.example.status, row.example.errorType, row.example.message));
      expect(error.kind, row.example.message).toBe(row.kind);
      expect(error.retryable, row.example.message).toBe(row.retryable);
      expect(error.options.status).toBe(row.example.status);
      expect(error.options.requestId).toBe("req_1");
    }
  });

  it("reads the token numbers of prompt too long", () => {
    const error = classifyError(
      apiError(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"),
    );
    expect(error.kind).toBe("prompt_too_long");
    expect(error.options.actualTokens).toBe(210000);
    expect(error.options.maxTokens).toBe(200000);
  });

  it("a 400 that matches no specific row is invalid_request, not retryable", () => {
    const error = classifyError(apiError(400, "invalid_request_error", "max_tokens: Field required"));
    expect(error.kind).toBe("invalid_request");
    expect(error.retryable).toBe(false);
  });

  it("an error event after 200 (no status) is classified by its body type", () => {
    const overloaded = new APIError(
      undefined,
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      undefined,
      new Headers(),
      "overloaded_error",
    );
    expect(classifyError(overloaded).kind).toBe("overloaded");
    expect(classifyError(overloaded).retryable).toBe(true);
    const api = new APIError(
      undefined,
      { type: "error", error: { type: "api_error", message: "oops" } },
      undefined,
      new Headers(),
      "api_error",
    );
    expect(classifyError(api).kind).toBe("server");
  });

  it("connection failures, fetch's 'terminated', and aborts", () => {
    const connection = classifyError(
      new APIConnectionError({ message: "Connection error.", cause: new Error("ECONNREFUSED") }),
    );
    expect(connection.kind).toBe("connection");
    expect(connection.retryable).toBe(true);
    const terminated = classifyError(new TypeError("terminated", { cause: new Error("other side closed") }));
    expect(terminated.kind).toBe("connection");
    expect(terminated.retryable).toBe(true);
    expect(classifyError(new APIUserAbortError()).kind).toBe("aborted");
  });

  it("an unknown programming error is not retried", () => {
    const error = classifyError(new RangeError("index out of range"));
    expect(error.retryable).toBe(false);
  });

  it("headers: retry-after, retry-after-ms, x-should-retry", () => {
    expect(
      classifyError(apiError(429, "rate_limit_error", "slow down", { "retry-after": "3" })).options.retryAfterMs,
    ).toBe(3000);
    expect(
      classifyError(apiError(429, "rate_limit_error", "x", { "retry-after-ms": "250.5" })).options.retryAfterMs,
    ).toBe(250.5);
    expect(classifyError(apiError(500, "api_error", "x", { "x-should-retry": "false" })).retryable).toBe(false);
    expect(classifyError(apiError(400, "invalid_request_error", "x", { "x-should-retry": "true" })).retryable).toBe(
      true,
    );
  });
});

describe("secret redaction", () => {
  it("removes the exact key and anything shaped like sk-ant-…", () => {
    const text = `bad key ${TEST_API_KEY} and sk-ant-oat01-abc_DEF-123 and my-custom-secret`;
    const clean = redactSecrets(text, ["my-custom-secret"]);
    expect(clean).not.toContain(TEST_API_KEY);
    expect(clean).not.toContain("sk-ant-oat01-abc_DEF-123");
    expect(clean).not.toContain("my-custom-secret");
    expect(clean).toContain(REDACTED);
  });

  it("leaves messages intact for placeholder keys too short to be secrets", () => {
    expect(redactSecrets("Number of request tokens exceeded", ["k"])).toBe("Number of request tokens exceeded");
  });

  it("classifyError redacts given secrets from every kind of failure", () => {
    const secret = "plain-token-without-prefix";
    for (const error of [
      apiError(401, "authentication_error", `invalid token ${secret}`),
      new APIConnectionError({ message: `could not reach host with ${secret}` }),
      new Error(`weird ${secret} ${TEST_API_KEY}`),
      new ProviderError("server", `wrapped ${secret}`),
    ]) {
      const message = classifyError(error, [secret, TEST_API_KEY]).message;
      expect(message).not.toContain(secret);
      expect(message).not.toContain(TEST_API_KEY);
    }
  });
});
