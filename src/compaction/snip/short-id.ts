/**
 * Snip short ids (PIPELINE §3.1). The derivation lives with request assembly, which appends the
 * `[id:xxxxxx]` tags; the Snip tool resolves what the model quotes back with the same function.
 */
import { shortId } from "../../request/short-id.js";

/** The short id of a uuid: first 10 hex digits → base 36 → first 6 characters (request's `shortId`). */
export const snipShortId: (uuid: string) => string = shortId;

/** Accepts `abc123`, `[id:abc123]` or `id:abc123` (models copy the tag in every form). */
export function normalizeSnipId(raw: string): string {
  const trimmed = raw.trim();
  const match = /^\[?\s*(?:id:)?\s*([^\]\s]+)\s*\]?$/i.exec(trimmed);
  return (match?.[1] ?? trimmed).toLowerCase();
}
