import { APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import {
  classifyError,
  OVERFLOW_ROWS,
  UNSUPPORTED_INPUT_EXTRACTORS,
  type UnsupportedInput,
  unsupportedInputOf,
} from "../../src/provider/index.js";

/** An SDK error built from a raw error body, as the SDK builds it from any server's response. */
function fromBody(status: number, body: unknown): APIError {
  return APIError.generate(status, body as object, undefined, new Headers({ "request-id": "req_1" }));
}

interface OverflowCase {
  server: string;
  status: number;
  body: unknown;
  actual?: number;
  max?: number;
}

const OVERFLOW_CASES: readonly OverflowCase[] = [
  {
    server: "Anthropic",
    status: 400,
    body: {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
    },
    actual: 210000,
    max: 200000,
  },
  {
    server: "llama.cpp (current: type, numbers in the message and beside it)",
    status: 400,
    body: {
      error: {
        code: 400,
        message: "request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 4476,
        n_ctx: 4096,
      },
    },
    actual: 4476,
    max: 4096,
  },
  {
    server: "llama.cpp (numbers only beside the message)",
    status: 400,
    body: {
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 9001,
        n_ctx: 8192,
      },
    },
    actual: 9001,
    max: 8192,
  },
  {
    server: "llama.cpp (older build, invalid_request_error type)",
    status: 400,
    body: {
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "invalid_request_error",
      },
    },
  },
  {
    server: "llama.cpp (older slot check)",
    status: 500,
    body: {
      error: {
        code: 500,
        message: "input (5000 tokens) is larger than the max context size (4096 tokens). skipping",
        type: "server_error",
      },
    },
    actual: 5000,
    max: 4096,
  },
  {
    server: "vLLM (requested)",
    status: 400,
    body: {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the " +
        "messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
    actual: 5000,
    max: 4096,
  },
  {
    server: "vLLM (max_tokens no longer fits)",
    status: 400,
    body: {
      error: {
        message:
          "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is " +
          "65536 tokens and your request has 57879 input tokens (8192 > 65536 - 57879). None",
        type: "BadRequestError",
        param: null,
        code: 400,
      },
    },
    actual: 57879,
    max: 65536,
  },
  {
    server: "OpenAI-style envelope",
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 " +
          "tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
    actual: 130512,
    max: 128000,
  },
  {
    server: "OpenAI-style envelope, code only",
    status: 400,
    body: { error: { message: "context_length_exceeded", type: "invalid_request_error", code: 400 } },
  },
  { server: "Ollama", status: 400, body: { error: "input length exceeds maximum context length" } },
  {
    server: "Ollama (runner)",
    status: 500,
    body: { error: "prompt too long; exceeded max context length by 312 tokens" },
  },
  {
    server: "LiteLLM wrapping Anthropic in a 500",
    status: 500,
    body: {
      error: {
        message:
          "litellm.ContextWindowExceededError: litellm.BadRequestError: AnthropicException - " +
          '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 212000 tokens > 200000 maximum"}}',
        type: null,
        param: null,
        code: "500",
      },
    },
    actual: 212000,
    max: 200000,
  },
  {
    server: "a proxy passing Anthropic's stop reason on as an error",
    status: 400,
    body: { error: { message: "upstream stopped: model_context_window_exceeded", type: "proxy_error" } },
  },
];

describe("context overflow from every server", () => {
  it.each(OVERFLOW_CASES.map((entry) => [entry.server, entry] as const))("%s", (_server, entry) => {
    const error = classifyError(fromBody(entry.status, entry.body));
    expect(error.kind).toBe("prompt_too_long");
    expect(error.retryable).toBe(false);
    expect(error.options.actualTokens).toBe(entry.actual);
    expect(error.options.maxTokens).toBe(entry.max);
  });

  it("every overflow row's example, sent as a real body, gives the numbers its server wrote (literals)", () => {
    // Oracle: the figures read by eye from each server's message, written here; never the row or its pattern.
    // A row added without a line here fails, so each wording comes with its literal figures.
    const FIGURES: Record<string, { actual?: number; max?: number }> = {
      "prompt is too long: 210000 tokens > 200000 maximum": { actual: 210_000, max: 200_000 },
      "request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it": {
        actual: 4_476,
        max: 4_096,
      },
      "the request exceeds the available context size, try increasing it": {},
      "input (5000 tokens) is larger than the max context size (4096 tokens). skipping": { actual: 5_000, max: 4_096 },
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.":
        { actual: 5_000, max: 4_096 },
      "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is 65536 tokens and your request has 57879 input tokens (8192 > 65536 - 57879).":
        { actual: 57_879, max: 65_536 },
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.":
        { actual: 130_512, max: 128_000 },
      "input length exceeds maximum context length": {},
      'litellm.ContextWindowExceededError: litellm.BadRequestError: AnthropicException - {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 212000 tokens > 200000 maximum"}}':
        { actual: 212_000, max: 200_000 },
    };
    expect(OVERFLOW_ROWS.map((row) => row.example.message).sort()).toEqual(Object.keys(FIGURES).sort());
    for (const row of OVERFLOW_ROWS) {
      const body = { error: { message: row.example.message, type: row.example.errorType ?? null } };
      const error = classifyError(fromBody(row.example.status ?? 400, body));
      const figures = FIGURES[row.example.message] ?? {};
      expect(
        { kind: error.kind, actual: error.options.actualTokens, max: error.options.maxTokens },
        row.example.message,
      ).toEqual({ kind: "prompt_too_long", actual: figures.actual, max: figures.max });
    }
  });

  it("a 400 that only mentions context is not an overflow", () => {
    const error = classifyError(
      fromBody(400, { type: "error", error: { type: "invalid_request_error", message: "context: Field required" } }),
    );
    expect(error.kind).toBe("invalid_request");
  });
});

const UNSUPPORTED_CASES: ReadonlyArray<readonly [string, number, unknown, UnsupportedInput]> = [
  [
    "Anthropic: cache_reference on a tool_result",
    400,
    {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "messages.2.content.0.cache_reference: Extra inputs are not permitted",
      },
    },
    { kind: "field", path: "messages.2.content.0.cache_reference" },
  ],
  [
    "Anthropic: context_management without support",
    400,
    {
      type: "error",
      error: { type: "invalid_request_error", message: "context_management: Extra inputs are not permitted" },
    },
    { kind: "field", path: "context_management" },
  ],
  [
    "Anthropic: a cache_edits block",
    400,
    {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "messages.4.content.1.type: Input tag 'cache_edits' found using 'type' does not match any of the expected tags",
      },
    },
    { kind: "block_type", type: "cache_edits", path: "messages.4.content.1" },
  ],
  [
    "Anthropic: an unknown beta",
    400,
    {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "Unexpected value(s) `cache-editing-2025-01-01` for the `anthropic-beta` header. Please consult our " +
          "documentation at docs.anthropic.com or try again without the header.",
      },
    },
    { kind: "beta", names: ["cache-editing-2025-01-01"] },
  ],
  [
    "Anthropic: two unknown betas",
    400,
    {
      type: "error",
      error: {
        type: "invalid_request_error",
        message:
          "Unexpected value(s) `context-management-2025-06-27`, `interleaved-thinking-2025-05-14` for the `anthropic-beta` header.",
      },
    },
    { kind: "beta", names: ["context-management-2025-06-27", "interleaved-thinking-2025-05-14"] },
  ],
  [
    "vLLM / FastAPI extra_forbidden",
    400,
    {
      object: "error",
      message:
        "[{'type': 'extra_forbidden', 'loc': ('body', 'thinking'), 'msg': 'Extra inputs are not permitted', 'input': {'type': 'enabled'}}]",
      type: "BadRequestError",
      code: 400,
    },
    { kind: "field", path: "thinking" },
  ],
  [
    "serde-based proxy: unknown field",
    422,
    "Failed to deserialize the JSON body into the target type: unknown field `cache_reference`, expected one of `type`, `tool_use_id` at line 1 column 2301",
    { kind: "field", path: "cache_reference" },
  ],
  [
    "OpenAI-style: unrecognized argument",
    400,
    { error: { message: "Unrecognized request argument supplied: context_management", type: "invalid_request_error" } },
    { kind: "field", path: "context_management" },
  ],
  [
    "OpenAI-style: unknown parameter",
    400,
    { error: { message: "Unknown parameter: 'metadata'.", type: "invalid_request_error", code: "unknown_parameter" } },
    { kind: "field", path: "metadata" },
  ],
  [
    "llama.cpp: unsupported param",
    400,
    { error: { code: 400, message: "Unsupported param: thinking", type: "invalid_request_error" } },
    { kind: "field", path: "thinking" },
  ],
];

describe("a 400 naming an input the server does not accept", () => {
  it.each(UNSUPPORTED_CASES)("%s", (_name, status, body, expected) => {
    const error = classifyError(fromBody(status, body));
    expect(error.kind).toBe("unsupported_input");
    expect(error.retryable).toBe(false);
    expect(error.options.unsupported).toEqual(expected);
  });

  it("every extractor's example names the input its server refused (literals)", () => {
    // Oracle: what each message names, written here by hand; a new extractor needs its line here.
    const NAMED: Record<string, UnsupportedInput> = {
      "Unexpected value(s) `cache-editing-2025-01-01` for the `anthropic-beta` header. Please consult our documentation at docs.anthropic.com or try again without the header.":
        { kind: "beta", names: ["cache-editing-2025-01-01"] },
      "messages.4.content.1.type: Input tag 'cache_edits' found using 'type' does not match any of the expected tags": {
        kind: "block_type",
        type: "cache_edits",
        path: "messages.4.content.1",
      },
      "context_management: Extra inputs are not permitted": { kind: "field", path: "context_management" },
      "[{'type': 'extra_forbidden', 'loc': ('body', 'context_management'), 'msg': 'Extra inputs are not permitted', 'input': {}}]":
        { kind: "field", path: "context_management" },
      "Failed to deserialize the JSON body into the target type: unknown field `cache_reference`, expected one of `type`, `tool_use_id`, `content`, `is_error` at line 1 column 2301":
        { kind: "field", path: "cache_reference" },
      "Unrecognized request argument supplied: context_management": { kind: "field", path: "context_management" },
    };
    expect(UNSUPPORTED_INPUT_EXTRACTORS.map((extractor) => extractor.example).sort()).toEqual(
      Object.keys(NAMED).sort(),
    );
    for (const extractor of UNSUPPORTED_INPUT_EXTRACTORS)
      expect(unsupportedInputOf(extractor.example), extractor.example).toEqual(NAMED[extractor.example]);
  });

  it("other 400s name nothing", () => {
    expect(unsupportedInputOf("messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks")).toBe(
      undefined,
    );
  });
});
