/**
 * Tallies what each compaction tier took out of the context, from the records a transcript holds:
 * snip boundaries (estimated tokens of the removed entries), microcompact boundaries (`tokensSaved`),
 * compact boundaries (preTokens − postTokens) and collapse commits (archived span minus its summary).
 * Snips and collapses name entries by uuid, so main-chain entry sizes are kept by position until the end.
 */
import { estimateTextTokens } from "../messages/tokens.js";
import type { CompactionSavings, CompactionTier } from "./inspect-types.js";

interface PendingCollapse {
  firstArchivedUuid: string;
  lastArchivedUuid: string;
  summaryTokens: number;
}

export class CompactionTally {
  /** Estimated tokens of each main-chain entry, by position in the file. */
  readonly #entryTokens: number[] = [];
  readonly #positionByUuid = new Map<string, number>();
  readonly #snips: string[][] = [];
  readonly #collapses: PendingCollapse[] = [];
  readonly #savings = new Map<CompactionTier, CompactionSavings>();
  /** Compact boundaries without postTokens (Claude Code's): closed by the next main request's prompt size. */
  #openCompactPreTokens: number[] = [];

  /** A main-chain entry snips and collapses may refer to. */
  addEntry(uuid: string, tokens: number): void {
    this.#positionByUuid.set(uuid, this.#entryTokens.length);
    this.#entryTokens.push(tokens);
  }

  addSnip(removedUuids: string[]): void {
    this.#snips.push(removedUuids);
  }

  addMicrocompact(tokensSaved: number): void {
    this.#add("microcompact", tokensSaved);
  }

  /** A compact boundary; `postTokens` undefined means "the size of the next main request". */
  addCompact(preTokens: number, postTokens: number | undefined): void {
    if (postTokens === undefined) this.#openCompactPreTokens.push(preTokens);
    else this.#add("compact", Math.max(0, preTokens - postTokens));
  }

  addCollapse(firstArchivedUuid: string, lastArchivedUuid: string, summary: string): void {
    this.#collapses.push({ firstArchivedUuid, lastArchivedUuid, summaryTokens: estimateTextTokens(summary) });
  }

  /** Prompt size (input + cache read + cache write) of a main-chain request. */
  addMainRequestPromptTokens(promptTokens: number): void {
    for (const preTokens of this.#openCompactPreTokens) this.#add("compact", Math.max(0, preTokens - promptTokens));
    this.#openCompactPreTokens = [];
  }

  /** Savings per tier, in pipeline order, every tier listed. */
  finish(): CompactionSavings[] {
    // No request followed: the boundary counts, its saving is unknown.
    for (const _preTokens of this.#openCompactPreTokens) this.#add("compact", 0);
    this.#openCompactPreTokens = [];
    for (const removed of this.#snips) {
      let tokens = 0;
      for (const uuid of removed) {
        const position = this.#positionByUuid.get(uuid);
        if (position !== undefined) tokens += this.#entryTokens[position] ?? 0;
      }
      this.#add("snip", tokens);
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
      this.#add("collapse", Math.max(0, archived - collapse.summaryTokens));
    }
    this.#collapses.length = 0;
    const tiers: CompactionTier[] = ["snip", "microcompact", "collapse", "compact"];
    return tiers.map((tier) => this.#savings.get(tier) ?? { tier, events: 0, tokensSaved: 0 });
  }

  #add(tier: CompactionTier, tokensSaved: number): void {
    const current = this.#savings.get(tier) ?? { tier, events: 0, tokensSaved: 0 };
    current.events += 1;
    current.tokensSaved += tokensSaved;
    this.#savings.set(tier, current);
  }
}
