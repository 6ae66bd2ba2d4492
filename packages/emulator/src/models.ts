/**
 * The emulator's model table: context window, output limits, minimum cacheable prefix and prices, as the
 * server knows them. Its own copy, not the client's (the package imports nothing of src/: ARCHITECTURE.md,
 * "The emulator package"); a client that disagrees with it meets the server's answer, as with a real server.
 */

export interface ModelLimits {
  /** Context window in tokens. */
  contextWindow: number;
  /** Largest `max_tokens` the model accepts. */
  maxOutputTokens: number;
  /** Shortest prefix (tokens) the server will cache; shorter prefixes are silently not cached. */
  minCacheableTokens: number;
  /** Dollars per million input tokens (cache write 1.25x / 2x, read 0.1x). */
  inputPricePerMTok: number;
  /** Dollars per million output tokens. */
  outputPricePerMTok: number;
  /** Whether a request may end with an assistant message (prefill); newer models reject it. */
  acceptsPrefill: boolean;
}

// Every model the pinned SDK (1.14.0) names in its `Model` union, plus older ids still seen in transcripts.
// Sources: platform.claude.com/docs/en/models (overview: Fable 5.2 $8/$40, Opus 5.5 $4/$20, Sonnet 5.5 $2/$10,
// Haiku 5.5 from $0.10/$0.50, all 1M window and 128K output), models/whats-new-opus-5 (Fable 5.1 $10/$50,
// Opus 5 $5/$25, Sonnet 5 $2/$10, 1M / 128K). Rows marked "assumed" have no published figures we could
// check: they copy their closest sibling. The emulator's `contextWindow` (`--context-window`) overrides any window.
const TABLE: ReadonlyArray<readonly [prefix: string, limits: ModelLimits]> = [
  // The claude-5 family: adaptive thinking, no prefill (as for the 4.6 generation on).
  ["claude-fable-5-2", limits(1_000_000, 128_000, 4_096, 8, 40, false)],
  ["claude-fable-5-1", limits(1_000_000, 128_000, 4_096, 10, 50, false)],
  ["claude-fable-5", limits(1_000_000, 128_000, 4_096, 10, 50, false)], // assumed: as Fable 5.1
  ["claude-mythos-5-2", limits(1_000_000, 128_000, 4_096, 8, 40, false)], // assumed: as Fable 5.2 (shared model card)
  ["claude-mythos-5-1", limits(1_000_000, 128_000, 4_096, 10, 50, false)], // assumed: as Fable 5.1 (shared card)
  ["claude-mythos-5", limits(1_000_000, 128_000, 4_096, 10, 50, false)], // assumed: as Fable 5 (shared card)
  ["claude-mythos-preview", limits(1_000_000, 128_000, 4_096, 10, 50, false)], // assumed: as Mythos 5
  ["claude-opus-5-5", limits(1_000_000, 128_000, 4_096, 4, 20, false)],
  ["claude-opus-5", limits(1_000_000, 128_000, 4_096, 5, 25, false)],
  ["claude-sonnet-5-5", limits(1_000_000, 128_000, 2_048, 2, 10, false)],
  ["claude-sonnet-5", limits(1_000_000, 128_000, 2_048, 2, 10, false)],
  // Haiku 5.5 is priced "from" $0.10/$0.50 (tiered); the lowest tier is used.
  ["claude-haiku-5-5", limits(1_000_000, 128_000, 4_096, 0.1, 0.5, false)],
  // The 4.6 generation on rejects prefill (docs/API-CONTRACT.md: "newer models reject prefill altogether").
  ["claude-opus-4-8", limits(200_000, 128_000, 4_096, 5, 25, false)], // assumed: as Opus 4.6
  ["claude-opus-4-7", limits(200_000, 128_000, 4_096, 5, 25, false)], // assumed: as Opus 4.6
  ["claude-opus-4-6", limits(200_000, 128_000, 4_096, 5, 25, false)],
  ["claude-sonnet-4-6", limits(200_000, 64_000, 1_024, 3, 15, false)],
  ["claude-opus-4-5", limits(200_000, 64_000, 4_096, 5, 25)],
  ["claude-opus-4-1", limits(200_000, 32_000, 1_024, 15, 75)],
  ["claude-opus-4", limits(200_000, 32_000, 1_024, 15, 75)],
  ["claude-sonnet-4-5", limits(200_000, 64_000, 1_024, 3, 15)],
  ["claude-sonnet-4", limits(200_000, 64_000, 1_024, 3, 15)],
  ["claude-haiku-4-5", limits(200_000, 64_000, 4_096, 1, 5)],
  ["claude-3-7-sonnet", limits(200_000, 64_000, 1_024, 3, 15)],
  ["claude-3-5-haiku", limits(200_000, 8_192, 2_048, 0.8, 4)],
];

/**
 * Limits assumed for a model the table does not know (any Anthropic-compatible server). Its prices are a
 * placeholder: wherever a price or limit is shown for such a model, it is labelled unknown (`isKnownModel`).
 */
export const UNKNOWN_MODEL_LIMITS: ModelLimits = limits(200_000, 32_000, 1_024, 3, 15);

function limits(
  contextWindow: number,
  maxOutputTokens: number,
  minCacheableTokens: number,
  inputPricePerMTok: number,
  outputPricePerMTok: number,
  acceptsPrefill = true,
): ModelLimits {
  return {
    contextWindow,
    maxOutputTokens,
    minCacheableTokens,
    inputPricePerMTok,
    outputPricePerMTok,
    acceptsPrefill,
  };
}

/** Limits for `model`, matched by longest known prefix (dated ids like `claude-sonnet-4-5-20250929` match). */
export function modelLimits(model: string, overrides?: Partial<ModelLimits>): ModelLimits {
  let best: ModelLimits = UNKNOWN_MODEL_LIMITS;
  let bestLength = -1;
  for (const [prefix, entry] of TABLE) {
    if (model.startsWith(prefix) && prefix.length > bestLength) {
      best = entry;
      bestLength = prefix.length;
    }
  }
  return overrides ? { ...best, ...overrides } : best;
}

/** Whether the table knows this model (the emulator answers 404 `not_found_error` for others when strict). */
export function isKnownModel(model: string): boolean {
  return TABLE.some(([prefix]) => model.startsWith(prefix));
}

/** Model ids the emulator lists under `GET /v1/models`. */
export const KNOWN_MODEL_IDS: readonly string[] = TABLE.map(([prefix]) => prefix);

/** The effort levels (`output_config.effort`), least first. */
const ALL_EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
const WITHOUT_XHIGH = ["low", "medium", "high", "max"] as const;

// Which effort levels each model takes, as `GET /v1/models/{id}` declares them in `capabilities.effort` and the
// request check enforces. Sources: platform.claude.com/docs/en/build-with-claude/effort (Opus 4.5 introduced
// low/medium/high; max from Opus 4.6 and Sonnet 4.6, which have no xhigh). Rows marked "assumed" have no
// published list we could check. Models not listed (Sonnet 4.5 and older, Haiku 4.5) declare none.
const EFFORT_TABLE: ReadonlyArray<readonly [prefix: string, levels: readonly string[]]> = [
  ["claude-fable-5", ALL_EFFORTS], // assumed
  ["claude-mythos-5", ALL_EFFORTS], // assumed
  ["claude-mythos-preview", ALL_EFFORTS], // assumed
  ["claude-opus-5", ALL_EFFORTS], // assumed
  ["claude-sonnet-5", ALL_EFFORTS], // assumed
  ["claude-haiku-5-5", ALL_EFFORTS], // assumed
  ["claude-opus-4-8", ALL_EFFORTS], // assumed
  ["claude-opus-4-7", ALL_EFFORTS],
  ["claude-opus-4-6", WITHOUT_XHIGH],
  ["claude-sonnet-4-6", WITHOUT_XHIGH],
  ["claude-opus-4-5", ["low", "medium", "high"]],
];

/** The effort levels `model` takes (longest prefix); none for a model the effort table does not list. */
export function effortLevels(model: string): readonly string[] {
  let best: readonly string[] = [];
  let bestLength = -1;
  for (const [prefix, levels] of EFFORT_TABLE) {
    if (model.startsWith(prefix) && prefix.length > bestLength) {
      best = levels;
      bestLength = prefix.length;
    }
  }
  return best;
}

// Models on which forced tool use (`tool_choice` `any` or `tool`) is a 400 whatever the thinking setting: the 5.x
// models whose thinking cannot be turned off or is bound to its prefix. Sources: platform.claude.com
// models/opus-5-5/whats-new-opus-5-5 ("Forced tool use returns an error"; "the first three also apply on Claude
// Fable 5.1"), models/sonnet-5-5/overview (the same among its five breaking changes). Fable 5.2 and Mythos 5.1/5.2
// are assumed to share Fable 5.1's rule (shared model cards).
const FORCED_TOOL_REFUSED: readonly string[] = [
  "claude-opus-5-5",
  "claude-sonnet-5-5",
  "claude-fable-5-1",
  "claude-fable-5-2",
  "claude-mythos-5-1",
  "claude-mythos-5-2",
];

/** Whether `model` refuses a forced `tool_choice` whatever the thinking setting. */
export function refusesForcedToolChoice(model: string): boolean {
  return FORCED_TOOL_REFUSED.some((prefix) => model.startsWith(prefix));
}
