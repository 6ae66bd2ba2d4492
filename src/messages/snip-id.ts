/**
 * Snip ids: a short, stable name for a user message that the model can quote back to the Snip tool. Request
 * assembly appends them as `[id:xxxxxx]` tags and the Snip tool resolves what the model quotes with the same
 * two functions, so both read them from here (docs/PIPELINE.md §3.1).
 */

/** Hex digits of the uuid that the short id is derived from. */
export const SHORT_ID_SOURCE_DIGITS = 10;
/** Length of a short id. */
export const SHORT_ID_LENGTH = 6;

/** The uuid's first 10 hex digits (dashes removed), read base 16, written base 36, first 6 characters. */
export function shortId(uuid: string): string {
  const hex = uuid.replace(/-/g, "").slice(0, SHORT_ID_SOURCE_DIGITS);
  return Number.parseInt(hex, 16).toString(36).slice(0, SHORT_ID_LENGTH);
}

/** Accepts `abc123`, `[id:abc123]` or `id:abc123` (models copy the tag in every form). */
export function normalizeSnipId(raw: string): string {
  const trimmed = raw.trim();
  const match = /^\[?\s*(?:id:)?\s*([^\]\s]+)\s*\]?$/i.exec(trimmed);
  return (match?.[1] ?? trimmed).toLowerCase();
}
