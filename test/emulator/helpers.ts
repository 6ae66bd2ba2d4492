/** Shared request builders for the emulator tests. */
import type { Emulator } from "@threadline/emulator";

// A dated id: the SDK warns on the bare deprecated alias.
export const MODEL = "claude-sonnet-4-20250514";

export const READ_TOOL = {
  name: "Read",
  description: "Read a file",
  input_schema: { type: "object", properties: { file_path: { type: "string" } } },
};

/** A minimal valid messages body, with fields overridden. */
export function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: MODEL, max_tokens: 1000, messages: [{ role: "user", content: "Hello" }], ...overrides };
}

/** POSTs JSON to the emulator with valid headers (override with `headers`). */
export async function post(
  emulator: Emulator,
  path: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${emulator.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "test", "anthropic-version": "2023-06-01", ...headers },
    body: typeof payload === "string" ? payload : JSON.stringify(payload),
  });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as Record<string, unknown>, headers: response.headers };
}

/**
 * Text of exactly `tokens` tokens under the Claude tokenizer the emulator counts with: a short common word
 * (`seed`, default "x") repeated, space-separated, each " word" one token (a literal property of that tokenizer,
 * checked in test/emulator/token-ruler.test.ts). The client's characters / 4 estimate reads it as about
 * (seed length + 1) / 4 tokens per word, so a test built on it tells the two rulers apart.
 */
export function textOfTokens(tokens: number, seed = "x"): string {
  return `${seed} `.repeat(tokens).trimEnd();
}
