/**
 * Seeded randomness: the emulator's ids, fault draws and chunk splits are reproducible from a seed,
 * so a failing test replays exactly.
 */
import { createHash } from "node:crypto";

/** A seeded generator of floats in [0, 1) (mulberry32: small, fast, good enough for test traffic). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const ID_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Makes ids like the API's (`msg_01…`, `toolu_01…`, `req_01…`), deterministic per seed and counter. */
export class IdGenerator {
  private counter = 0;
  constructor(private readonly seed: number) {}

  next(prefix: string): string {
    this.counter++;
    const digest = createHash("sha256").update(`${this.seed}:${prefix}:${this.counter}`).digest();
    let body = "";
    for (let index = 0; index < 22; index++) body += ID_ALPHABET[(digest[index] ?? 0) % ID_ALPHABET.length];
    return `${prefix}_01${body}`;
  }
}
