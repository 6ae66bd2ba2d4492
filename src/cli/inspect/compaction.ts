/**
 * Tallies what each compaction tier took out of the context, from the records a transcript holds:
 * snip boundaries (estimated tokens of the removed entries), microcompact boundaries (`tokensSaved`),
 * compact boundaries (preTokens − postTokens) and collapse commits (archived span minus its summary).
 * Snips and collapses name entries by uuid, so main-chain entry sizes are kept by position until the end.
 * Dollars: each saved token would have been carried by every later main request, at least at the cache-read
 * price of the model in use when it was saved.
 */
import { estimateTextTokens } from "../../messages/index.js";
import type { CompactionSavings, CompactionTier } from "./types.js";

/** Where in the session a saving happened: main requests before it and the cache-read price then. */
interface Moment {
  mainRequests: number;
  /** Dollars per token read from the cache. */
  cacheReadUsdPerToken: number;
}

interface PendingCollapse {
  firstArchivedUuid: string;
  lastArchivedUuid: string;
  summaryTokens: number;
  at: Moment;
}

interface Saving {
  tier: CompactionTier;
  tokens: number;
  at: Moment;
}

export class CompactionTally {
  /** Estimated tokens of each main-chain entry, by position in the file. */
  readonly #entryTokens: number[] = [];
  readonly #positionByUuid = new Map<string, number>();
  readonly #snips: Array<{ removed: string[]; at: Moment }> = [];
  readonly #collapses: PendingCollapse[] = [];
  readonly #savings: Saving[] = [];
  /** Compact boundaries without postTokens (Claude Code's): closed by the next main request's prompt size. */
  #openCompacts: Array<{ preTokens: number; at: Moment }> = [];
  #mainRequests = 0;
  #cacheReadUsdPerToken = 0;

  /** A main-chain entry snips and collapses may refer to. */
  addEntry(uuid: string, tokens: number): void {
    this.#positionByUuid.set(uuid, this.#entryTokens.length);
    this.#entryTokens.push(tokens);
  }

  addSnip(removedUuids: string[]): void {
    this.#snips.push({ removed: removedUuids, at: this.#moment() });
  }

  addMicrocompact(tokensSaved: number): void {
    this.#add("microcompact", tokensSaved, this.#moment());
  }

  /** A compact boundary; `postTokens` undefined means "the size of the next main request". */
  addCompact(preTokens: number, postTokens: number | undefined): void {
    if (postTokens === undefined) this.#openCompacts.push({ preTokens, at: this.#moment() });
    else this.#add("compact", Math.max(0, preTokens - postTokens), this.#moment());
  }

  addCollapse(firstArchivedUuid: string, lastArchivedUuid: string, summary: string): void {
    this.#collapses.push({
      firstArchivedUuid,
      lastArchivedUuid,
      summaryTokens: estimateTextTokens(summary),
      at: this.#moment(),
    });
  }

  /** A main-chain request: its prompt size (input + cache read + cache write) and cache-read price per token. */
  addMainRequest(promptTokens: number, cacheReadUsdPerToken: number): void {
    for (const open of this.#openCompacts) this.#add("compact", Math.max(0, open.preTokens - promptTokens), open.at);
    this.#openCompacts = [];
    this.#mainRequests++;
    this.#cacheReadUsdPerToken = cacheReadUsdPerToken;
  }

  /** Savings per tier, in pipeline order, every tier listed. */
  finish(): CompactionSavings[] {
    // No request followed: the boundary counts, its saving is unknown.
    for (const open of this.#openCompacts) this.#add("compact", 0, open.at);
    this.#openCompacts = [];
    for (const snip of this.#snips) {
      let tokens = 0;
      for (const uuid of snip.removed) {
        const position = this.#positionByUuid.get(uuid);
        if (position !== undefined) tokens += this.#entryTokens[position] ?? 0;
      }
      this.#add("snip", tokens, snip.at);
    }
    this.#snips.length = 0;
    for (const collapse of this.#collapses) {
      const first = this.#positionByUuid.get(collapse.firstArchivedUuid);
      const last = this.#positionByUuid.get(collapse.lastArchivedUuid);
      let archived = 0;
      if (first !== undefined && last !== undefined) {
        for (let position = Math.min(first, last); position <= Math.max(first, last); position++)
          archived += this.#entryTokens[position] ?? 0;
      }
      this.#add("collapse", Math.max(0, archived - collapse.summaryTokens), collapse.at);
    }
    this.#collapses.length = 0;
    const tiers: CompactionTier[] = ["snip", "microcompact", "collapse", "compact"];
    return tiers.map((tier) => {
      const total: CompactionSavings = { tier, events: 0, tokensSaved: 0, savedUsd: 0 };
      for (const saving of this.#savings) {
        if (saving.tier !== tier) continue;
        const laterRequests = Math.max(0, this.#mainRequests - saving.at.mainRequests);
        total.events += 1;
        total.tokensSaved += saving.tokens;
        // A request before any priced one has no price yet: the first later request's is as good a guess.
        const price = saving.at.cacheReadUsdPerToken || this.#cacheReadUsdPerToken;
        total.savedUsd += saving.tokens * laterRequests * price;
      }
      return total;
    });
  }

  #moment(): Moment {
    return { mainRequests: this.#mainRequests, cacheReadUsdPerToken: this.#cacheReadUsdPerToken };
  }

  #add(tier: CompactionTier, tokens: number, at: Moment): void {
    this.#savings.push({ tier, tokens, at });
  }
}
