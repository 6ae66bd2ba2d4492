/**
 * Keeps credentials out of text that is kept or sent: error messages, tool output, transcripts, requests.
 * Errors and tool results end up in transcripts, logs, screenshots and the model's context.
 */

/** Anything shaped like an Anthropic key (`sk-ant-api03-…`, `sk-ant-oat01-…`). */
const KEY_PATTERN = /sk-ant-[A-Za-z0-9_-]+/g;

/** What replaces a scrubbed secret. */
export const REDACTED = "[REDACTED]";

/**
 * Secrets shorter than this are not scrubbed literally: a placeholder key like "k" or "test" would
 * otherwise shred every word that contains it (real keys are far longer, and `sk-ant-…` is always caught).
 */
export const DEFAULT_MIN_SECRET_LENGTH = 8;

/** The secrets worth scrubbing literally, longest first (so a secret that contains another goes whole). */
export function scrubbableSecrets(secrets: readonly string[]): string[] {
  return [...new Set(secrets)]
    .filter((secret) => secret.length >= DEFAULT_MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/** Removes every literal occurrence of `secrets` (of useful length) and every `sk-ant-…` token from `text`. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  for (const secret of scrubbableSecrets(secrets)) result = result.split(secret).join(REDACTED);
  return result.replace(KEY_PATTERN, REDACTED);
}

/**
 * A copy of `value` with every string inside (object keys included) scrubbed; other values are kept as they
 * are. Used for structured tool data (`display`) that is written to the transcript.
 */
export function scrubSecretsDeep<T>(value: T, secrets: readonly string[]): T {
  return scrubValue(value, scrubbableSecrets(secrets)) as T;
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[scrubSecrets(key, secrets)] = scrubValue(item, secrets);
    return copy;
  }
  return value;
}
