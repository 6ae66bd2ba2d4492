/** Keeps credentials out of error messages; the scrubber itself lives in messages/ so every layer shares it. */
export { DEFAULT_MIN_SECRET_LENGTH, REDACTED, scrubSecrets } from "../messages/redact-secrets.js";
