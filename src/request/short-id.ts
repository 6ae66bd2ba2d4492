/**
 * Snip ids: a short, stable name for a user message that the model can quote back to the Snip tool.
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
