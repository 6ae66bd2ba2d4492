/**
 * Context-overflow errors from every server threadline may be pointed at, as data: one row per wording,
 * each with the message a real server sends beside it. They all classify as `prompt_too_long`, so the
 * loop's recovery chain (collapse drain, reactive compaction) handles a llama.cpp or vLLM overflow the way it
 * handles Anthropic's. Rows sit before the generic status rows (a proxy may wrap an overflow in a 500).
 *
 * Sources: llama.cpp `tools/server` (`format_error_response` gives `{"code":400,"message",
 * "type":"exceed_context_size_error"}` plus `n_prompt_tokens`/`n_ctx`; the slot check's message is
 * "request (%d tokens) exceeds the available context size (%d tokens), try increasing it"); vLLM's
 * `serving_engine` ("This model's maximum context length is N tokens. However, you requested M tokens");
 * OpenAI's `context_length_exceeded` envelope; Ollama's runner ("input length exceeds maximum context
 * length"); LiteLLM's `ContextWindowExceededError` wrapper.
 */
import type { ClassificationRow } from "./errors.js";

/** Wordings of an overflow, any one of which in any error status means the prompt did not fit. */
const OVERFLOW_PHRASES =
  /prompt is too long|exceeds? the available context size|exceed_context_size_error|larger than the max context size|maximum context length is|context_length_exceeded|ContextWindowExceededError|model_context_window_exceeded|input length exceeds (the |maximum )?context length|prompt too long; exceeded (max )?context length/i;

/** The overflow rows (first match wins, so they come before the generic status rows). */
export const OVERFLOW_ROWS: readonly ClassificationRow[] = [
  {
    kind: "prompt_too_long",
    errorTypes: ["invalid_request_error"],
    statuses: [400, 413],
    pattern: /prompt is too long/i,
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message: "prompt is too long: 210000 tokens > 200000 maximum",
    },
  },
  {
    // llama.cpp: the error type alone is enough (its message moves between builds).
    kind: "prompt_too_long",
    errorTypes: ["exceed_context_size_error"],
    retryable: false,
    example: {
      status: 400,
      errorType: "exceed_context_size_error",
      message: "request (4476 tokens) exceeds the available context size (4096 tokens), try increasing it",
    },
  },
  {
    // llama.cpp builds before the numbers were added, behind a proxy that dropped the type.
    kind: "prompt_too_long",
    statuses: [400],
    pattern: /exceeds? the available context size/i,
    retryable: false,
    example: { status: 400, message: "the request exceeds the available context size, try increasing it" },
  },
  {
    // llama.cpp's older slot check.
    kind: "prompt_too_long",
    statuses: [400, 500],
    pattern: /larger than the max context size/i,
    retryable: false,
    example: {
      status: 400,
      message: "input (5000 tokens) is larger than the max context size (4096 tokens). skipping",
    },
  },
  {
    // vLLM (top-level `{"object":"error","message":…,"type":"BadRequestError","code":400}`).
    kind: "prompt_too_long",
    statuses: [400, 413],
    pattern: /maximum context length is \d/i,
    retryable: false,
    example: {
      status: 400,
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens " +
        "(4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
    },
  },
  {
    // vLLM when max_tokens no longer fits next to the input.
    kind: "prompt_too_long",
    statuses: [400],
    pattern: /maximum context length is \d[\d,]* tokens and your request has/i,
    retryable: false,
    example: {
      status: 400,
      message:
        "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is " +
        "65536 tokens and your request has 57879 input tokens (8192 > 65536 - 57879).",
    },
  },
  {
    // OpenAI-style envelope: `{"error":{"message":…,"type":"invalid_request_error","code":"context_length_exceeded"}}`.
    kind: "prompt_too_long",
    errorTypes: ["context_length_exceeded"],
    statuses: [400],
    pattern: /context_length_exceeded|maximum context length|resulted in \d[\d,]* tokens/i,
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. " +
        "Please reduce the length of the messages.",
    },
  },
  {
    // Ollama's runner.
    kind: "prompt_too_long",
    statuses: [400, 500],
    pattern: /input length exceeds (the |maximum )?context length|prompt too long; exceeded (max )?context length/i,
    retryable: false,
    example: { status: 400, message: "input length exceeds maximum context length" },
  },
  {
    // LiteLLM (and other proxies): the upstream overflow wrapped in the proxy's own message, any status.
    kind: "prompt_too_long",
    minStatus: 400,
    pattern: OVERFLOW_PHRASES,
    retryable: false,
    example: {
      status: 500,
      message:
        "litellm.ContextWindowExceededError: litellm.BadRequestError: AnthropicException - " +
        '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 212000 tokens > 200000 maximum"}}',
    },
  },
];

/** Where each wording puts the request's size and the window, in named groups `actual` and `max`. */
const TOKEN_NUMBER_PATTERNS: readonly RegExp[] = [
  /(?<actual>\d[\d,]*)\s*tokens?\s*>\s*(?<max>\d[\d,]*)/i,
  /\((?<actual>\d[\d,]*) tokens\) exceeds? the available context size \((?<max>\d[\d,]*) tokens\)/i,
  /\((?<actual>\d[\d,]*) tokens\) is larger than the max context size \((?<max>\d[\d,]*) tokens\)/i,
  /maximum context length is (?<max>\d[\d,]*) tokens\. However, (?:you requested|your messages resulted in) (?<actual>\d[\d,]*) tokens/i,
  /maximum context length is (?<max>\d[\d,]*) tokens and your request has (?<actual>\d[\d,]*) input tokens/i,
];

/** The request size and window an overflow message states, when it states them. */
export function overflowNumbers(message: string): { actualTokens: number; maxTokens: number } | undefined {
  for (const pattern of TOKEN_NUMBER_PATTERNS) {
    const groups = pattern.exec(message)?.groups;
    if (groups?.actual !== undefined && groups.max !== undefined) {
      return { actualTokens: toNumber(groups.actual), maxTokens: toNumber(groups.max) };
    }
  }
  return undefined;
}

/** llama.cpp's `n_prompt_tokens` / `n_ctx`, beside the message in its error object. */
export function overflowNumbersFromBody(body: unknown): { actualTokens: number; maxTokens: number } | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const inner = (body as { error?: unknown }).error;
  const source = typeof inner === "object" && inner !== null ? inner : body;
  const prompt = (source as { n_prompt_tokens?: unknown }).n_prompt_tokens;
  const context = (source as { n_ctx?: unknown }).n_ctx;
  if (typeof prompt !== "number" || typeof context !== "number" || prompt <= 0 || context <= 0) return undefined;
  return { actualTokens: prompt, maxTokens: context };
}

function toNumber(text: string): number {
  return Number.parseInt(text.replaceAll(",", ""), 10);
}
