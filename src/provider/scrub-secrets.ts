/**
 * Keeps credentials out of error messages: errors end up in transcripts, logs and screenshots.
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

/** Removes every literal occurrence of `secrets` (of useful length) and every `sk-ant-…` token from `text`. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  // Longest first, so a secret that contains another is removed whole.
  const ordered = [...secrets]
    .filter((secret) => secret.length >= DEFAULT_MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  for (const secret of ordered) result = result.split(secret).join(REDACTED);
  return result.replace(KEY_PATTERN, REDACTED);
}
