/**
 * Thinking signatures: the emulator signs every thinking block it sends with an HMAC of the exact thinking
 * text, so it can later tell whether a client sent the latest turn's thinking back byte-for-byte.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Secret used when none is configured: fixed, so a restarted emulator still accepts its earlier signatures. */
export const DEFAULT_SIGNATURE_SECRET = "threadline-emulator-thinking";

/** Base64 HMAC-SHA256 of `thinking` under `secret`: the `signature` the emulator attaches to a thinking block. */
export function signThinking(thinking: string, secret: string): string {
  return createHmac("sha256", secret).update(thinking, "utf8").digest("base64");
}

/** Whether `signature` is what `signThinking(thinking, secret)` produces. */
export function verifyThinking(thinking: string, signature: string, secret: string): boolean {
  const expected = Buffer.from(signThinking(thinking, secret), "utf8");
  const given = Buffer.from(signature, "utf8");
  return expected.length === given.length && timingSafeEqual(expected, given);
}
