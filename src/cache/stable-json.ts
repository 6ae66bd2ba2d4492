/**
 * Deterministic JSON (object keys sorted) and a short content hash, so fingerprints do not depend on the key
 * order a caller happened to build an object in.
 */
import { createHash } from "node:crypto";

/** `JSON.stringify` with object keys sorted at every depth; `undefined` members are dropped as JSON does. `indent` defaults to none. */
export function stableJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** Hex characters kept from the sha256: 64 bits is plenty to tell two prompts apart. */
export const HASH_LENGTH = 16;

/** Short sha256 hex of a string. */
export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, HASH_LENGTH);
}
