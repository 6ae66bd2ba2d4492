/**
 * Secrets by value (issue 53 item 3): an environment variable is a secret when its value has the shape of a
 * credential, whatever it is called (`GH_PAT=ghp_…` matches no secret name). Known token prefixes anywhere in
 * the value, a URL carrying a password, a private key, or a long high-entropy word.
 */

/** Credential shapes, each with an example of what it matches in the comment beside it. */
export const DEFAULT_SECRET_VALUE_PATTERNS: readonly RegExp[] = [
  /(?:^|[^A-Za-z0-9])gh[pousr]_[A-Za-z0-9]{20,}/, // GitHub classic: ghp_0123…
  /(?:^|[^A-Za-z0-9])github_pat_[A-Za-z0-9_]{20,}/, // GitHub fine-grained: github_pat_11A…
  /(?:^|[^A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{8,}/, // Anthropic: sk-ant-api03-…
  /(?:^|[^A-Za-z0-9])sk-(?:proj-)?[A-Za-z0-9_-]{20,}/, // OpenAI-style: sk-proj-…
  /(?:^|[^A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{8,}/, // Slack: xoxb-…, xoxp-…
  /(?:^|[^A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])/, // AWS access key id: AKIAIOSFODNN7EXAMPLE
  /(?:^|[^A-Za-z0-9])glpat-[A-Za-z0-9_-]{20,}/, // GitLab: glpat-…
  /(?:^|[^A-Za-z0-9])npm_[A-Za-z0-9]{36}/, // npm: npm_…
  /(?:^|[^A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/, // Google API key: AIzaSy…
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/, // a PEM private key
  /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i, // a URL with a password: https://user:pass@host
];

/** Shortest value the entropy rule looks at. */
export const DEFAULT_HIGH_ENTROPY_MIN_LENGTH = 32;
/** Bits per character at or above which a long mixed word counts as random (base64 of random bytes is ~6). */
export const DEFAULT_HIGH_ENTROPY_BITS = 4;

/** Shannon entropy of `text` in bits per character. */
export function entropyBitsPerCharacter(text: string): number {
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/**
 * Whether `value` is one word of 32+ token characters (letters, digits, `+/=_.-`) that mixes upper case, lower
 * case and digits at 4+ bits a character: the shape of a random key. Paths (a leading `/`), lists (`:`), words
 * with spaces, UUIDs and hex digests (one case) do not qualify.
 */
export function looksRandom(value: string): boolean {
  if (value.length < DEFAULT_HIGH_ENTROPY_MIN_LENGTH || value.startsWith("/")) return false;
  if (!/^[A-Za-z0-9+/=_.-]+$/.test(value)) return false;
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/[0-9]/.test(value)) return false;
  return entropyBitsPerCharacter(value) >= DEFAULT_HIGH_ENTROPY_BITS;
}

/** Whether an environment variable's value looks like a credential, whatever the variable is called. */
export function isSecretEnvValue(value: string): boolean {
  return DEFAULT_SECRET_VALUE_PATTERNS.some((pattern) => pattern.test(value)) || looksRandom(value);
}
