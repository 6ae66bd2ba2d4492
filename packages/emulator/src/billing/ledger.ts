/**
 * The prompt-cache ledger: which prefixes are cached, until when, and what each request is billed.
 *
 * A breakpoint's key is a hash of the model and the exact prefix bytes up to it (chained block by block, so
 * hashing stays linear). A read hits the longest live prefix ending at a breakpoint or up to
 * `CACHE_LOOKBACK_BLOCKS` blocks before it; every breakpoint past the read whose prefix reaches the model's
 * minimum is written. Reads refresh the TTL. Time comes from the injected clock.
 */
import { createHash } from "node:crypto";
import type { CacheCreationUsage } from "../content.js";
import type { FlatBlock } from "./flatten.js";

/** How many blocks before a breakpoint a read may find an earlier entry. */
export const CACHE_LOOKBACK_BLOCKS = 20;
/** TTL of a `ttl: "5m"` (default) entry. */
export const FIVE_MINUTES_MS = 5 * 60 * 1000;
/** TTL of a `ttl: "1h"` entry. */
export const ONE_HOUR_MS = 60 * 60 * 1000;

export interface LedgerEntry {
  /** Hex hash of model + prefix bytes. */
  key: string;
  model: string;
  /** Path of the block the prefix ends at, when written. */
  endsAt: string;
  /** Blocks in the prefix. */
  blockCount: number;
  /** Prefix tokens when written. */
  tokens: number;
  ttlMs: number;
  createdAt: number;
  expiresAt: number;
  reads: number;
}

/** The cache part of a response's usage. */
export interface CacheUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  cache_creation: CacheCreationUsage;
}

/** What one request did to the ledger, for the request log and tests. */
export interface LedgerResult {
  usage: CacheUsage;
  /** Blocks served from the cache (0 on a miss). */
  readBlocks: number;
  /** Keys written or refreshed by breakpoints past the read. */
  written: string[];
}

export class CacheLedger {
  private readonly store = new Map<string, LedgerEntry>();

  /** `now` defaults to Date.now; tests inject a clock so TTLs expire without sleeping. */
  constructor(private readonly now: () => number = Date.now) {}

  /** Live entries (expired ones are dropped first). */
  entries(): LedgerEntry[] {
    const time = this.now();
    for (const [key, entry] of this.store) if (entry.expiresAt <= time) this.store.delete(key);
    return [...this.store.values()];
  }

  clear(): void {
    this.store.clear();
  }

  /** Bills `blocks` for `model` and records what it writes; `commit: false` computes without changing the ledger. */
  process(model: string, blocks: readonly FlatBlock[], minCacheableTokens: number, commit = true): LedgerResult {
    const time = this.now();
    const keys: string[] = new Array(blocks.length);
    const prefixTokens: number[] = new Array(blocks.length);
    let hash = createHash("sha256").update(model).digest();
    let running = 0;
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index]!;
      hash = createHash("sha256").update(hash).update(block.bytes).digest();
      keys[index] = hash.toString("hex");
      running += block.tokens;
      prefixTokens[index] = running;
    }
    const total = running;
    const tokensUpTo = (index: number): number => (index < 0 ? 0 : prefixTokens[index]!);

    let readUpTo = -1;
    let readEntry: LedgerEntry | undefined;
    for (let index = 0; index < blocks.length; index++) {
      if (blocks[index]!.ttl === undefined) continue;
      const lowest = Math.max(0, index - CACHE_LOOKBACK_BLOCKS);
      for (let candidate = index; candidate >= lowest && candidate > readUpTo; candidate--) {
        const entry = this.live(keys[candidate]!, time);
        if (entry) {
          readUpTo = candidate;
          readEntry = entry;
          break;
        }
      }
    }
    if (readEntry && commit) {
      readEntry.reads++;
      readEntry.expiresAt = time + readEntry.ttlMs;
    }

    const creation: CacheCreationUsage = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
    const written: string[] = [];
    let cursor = readUpTo;
    for (let index = 0; index < blocks.length; index++) {
      const ttl = blocks[index]!.ttl;
      if (ttl === undefined || index <= cursor) continue;
      if (tokensUpTo(index) < minCacheableTokens) continue;
      const segment = tokensUpTo(index) - tokensUpTo(cursor);
      if (ttl === "1h") creation.ephemeral_1h_input_tokens += segment;
      else creation.ephemeral_5m_input_tokens += segment;
      cursor = index;
      written.push(keys[index]!);
      if (commit) this.write(keys[index]!, model, blocks[index]!.path, index + 1, tokensUpTo(index), ttl, time);
    }
    const read = tokensUpTo(readUpTo);
    const created = creation.ephemeral_5m_input_tokens + creation.ephemeral_1h_input_tokens;
    return {
      usage: {
        input_tokens: total - read - created,
        cache_read_input_tokens: read,
        cache_creation_input_tokens: created,
        cache_creation: creation,
      },
      readBlocks: readUpTo + 1,
      written,
    };
  }

  private live(key: string, time: number): LedgerEntry | undefined {
    const entry = this.store.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= time) {
      this.store.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(
    key: string,
    model: string,
    endsAt: string,
    blockCount: number,
    tokens: number,
    ttl: "5m" | "1h",
    time: number,
  ): void {
    const ttlMs = ttl === "1h" ? ONE_HOUR_MS : FIVE_MINUTES_MS;
    const existing = this.store.get(key);
    if (existing && existing.expiresAt > time) {
      existing.ttlMs = Math.max(existing.ttlMs, ttlMs);
      existing.expiresAt = Math.max(existing.expiresAt, time + ttlMs);
      return;
    }
    this.store.set(key, {
      key,
      model,
      endsAt,
      blockCount,
      tokens,
      ttlMs,
      createdAt: time,
      expiresAt: time + ttlMs,
      reads: 0,
    });
  }
}
