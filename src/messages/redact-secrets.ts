/**
 * Keeps credentials out of text that is kept or sent: error messages, tool output, transcripts, requests.
 * Errors and tool results end up in transcripts, logs, screenshots and the model's context.
 */

/** Anything shaped like an Anthropic key (`sk-ant-api03-…`, `sk-ant-oat01-…`). */
const KEY_PATTERN = /sk-ant-[A-Za-z0-9_-]+/g;

/** What replaces a redacted secret. */
export const REDACTED = "[REDACTED]";

/**
 * Secrets shorter than this are not redacted literally: a placeholder key like "k" or "test" would
 * otherwise shred every word that contains it (real keys are far longer, and `sk-ant-…` is always caught).
 */
export const DEFAULT_MIN_SECRET_LENGTH = 8;

/** The secrets worth redacting literally, longest first (so a secret that contains another goes whole). */
export function redactableSecrets(secrets: readonly string[]): string[] {
  return [...new Set(secrets)]
    .filter((secret) => secret.length >= DEFAULT_MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/** Removes every literal occurrence of `secrets` (of useful length) and every `sk-ant-…` token from `text`. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of redactableSecrets(secrets)) result = result.split(secret).join(REDACTED);
  return result.replace(KEY_PATTERN, REDACTED);
}

/**
 * A copy of `value` with every string inside (object keys included) redacted; other values are kept as they
 * are. Used for structured tool data (`display`) that is written to the transcript.
 */
export function redactSecretsDeep<T>(value: T, secrets: readonly string[]): T {
  return redactValue(value, redactableSecrets(secrets)) as T;
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[redactSecrets(key, secrets)] = redactValue(item, secrets);
    return copy;
  }
  return value;
}
