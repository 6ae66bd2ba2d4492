/**
 * The one per-model table: context window, output limits and minimum cacheable prefix.
 * Every stage (request params, compaction thresholds, the emulator) reads limits from here.
 */

export interface ModelLimits {
  /** Context window in tokens. */
  contextWindow: number;
  /** Largest `max_tokens` the model accepts. */
  maxOutputTokens: number;
  /** Output cap used by default; escalated to `ESCALATED_MAX_TOKENS` after a max_tokens stop. */
  defaultOutputTokens: number;
  /** Shortest prefix (tokens) the server will cache; shorter prefixes are silently not cached. */
  minCacheableTokens: number;
  /** Dollars per million input tokens (cache writes `CACHE_WRITE_5M_MULTIPLIER` / `_1H_`, reads `cacheReadMultiplier`). */
  inputPricePerMTok: number;
  /** Dollars per million output tokens. */
  outputPricePerMTok: number;
  /** A cache read costs this fraction of the input price: 0.1 on most models, less on some 5.x models. */
  cacheReadMultiplier: number;
  /** Whether a request may end with an assistant message (prefill); newer models reject it. */
  acceptsPrefill: boolean;
  /** The server's `output_config.effort` when the request names none; undefined where the model takes no effort. */
  defaultEffort?: "low" | "medium" | "high";
  /** Thinking cannot be switched off (`thinking: {type: "disabled"}` is a 400): the model thinks on every request. */
  thinkingAlwaysOn: boolean;
  /**
   * Forced tool use (`tool_choice` `any` or `tool`) is a 400 on this model whatever the thinking setting; its
   * thinking blocks are bound to the prefix that produced them (`thinking.block_binding`).
   */
  bindsThinking: boolean;
  /**
   * A thinking block sent back is checked against the prefix it was produced after (system, tools, every earlier
   * message): a rewrite of that prefix is a 400 unless the request asks for `block_binding` `drop_block`
   * (platform.claude.com build-with-claude/preserved-thinking/prefix-checks, its supported models).
   */
  bindsThinkingPrefix: boolean;
  /**
   * The window autocompact's threshold is worked out from, when smaller than `contextWindow` (docs/CONTEXT-BUDGET.md
   * "The 1M models compact near 400K"): 400,000 on the 1M-window 5.x models, as Claude Code 2.1.334+ does (its
   * `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, which overrides this too). Only autocompact follows it: the blocking limit
   * and `/context`'s window stay the model's. Default: the whole window.
   */
  autoCompactWindow?: number;
  /**
   * Autocompact at this percent of the autocompact window less the output reserve, when that is lower than the
   * default threshold (Claude Code's `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, 1–100; it can only lower it). An override
   * only: no row of the table sets it. Default none.
   */
  autoCompactPercent?: number;
}

/**
 * Default model when neither `--model`, `ANTHROPIC_MODEL` nor a settings file's `model` names one: Claude Code's
 * (2.1.328 sends `claude-opus-5-5` with `max_tokens` 128,000; issue 55, docs/MODELS.md).
 */
export const DEFAULT_MODEL = "claude-opus-5-5";

/**
 * The default output cap of the models before the 5.x family (docs/PIPELINE.md §5: 8K). The 5.x models default to
 * their maximum, 128,000, as Claude Code sends them.
 */
export const DEFAULT_OUTPUT_TOKENS = 8_192;

/** Output cap used for the single retry after a max_tokens stop under the default cap. */
export const ESCALATED_MAX_TOKENS = 64_000;

// Every model the pinned SDK (1.17.0) names in its `Model` union (node_modules/@anthropic-ai/sdk/resources/
// messages/messages.d.ts), plus older ids still seen in transcripts. docs/MODELS.md has each figure with its source.
// Sources: platform.claude.com/docs/en/models (overview: Fable 5.2 $8/$40, Opus 5.5 $4/$20, Sonnet 5.5 $2/$10,
// Haiku 5.5 from $0.10/$0.50, all 1M window and 128K output; thinking and default effort columns), the model pages
// models/<id>/overview ("Pricing": cache read Opus 5.5 $0.20 = 0.05x, Sonnet 5.5 $0.20 = 0.1x, Opus 5 $0.50;
// Fable 5.1 "cache read cut to a quarter" of Fable 5's $1.00 = 0.025x), models/opus-5-5/whats-new-opus-5-5
// (thinking cannot be disabled, forced tool use is a 400, thinking blocks bound; "the first three also apply on
// Claude Fable 5.1"), models/sonnet-5-5/overview (forced tool use a 400, thinking bound). Rows marked "assumed"
// have no published figures we could check: they copy their closest sibling. `--context-window`
// (THREADLINE_CONTEXT_WINDOW) overrides any window.
type ExtraFields =
  | "defaultOutputTokens"
  | "cacheReadMultiplier"
  | "defaultEffort"
  | "thinkingAlwaysOn"
  | "bindsThinking"
  | "bindsThinkingPrefix"
  | "autoCompactWindow";
/** A cache read's price as a fraction of the input price on most models (messages/pricing.ts owns the rest). */
export const STANDARD_CACHE_READ_MULTIPLIER = 0.1;
/**
 * Claude Code 2.1.334+ works autocompact out from a 400K window on the 1M models (near 400K, not near 1M; issue 55,
 * docs/CONTEXT-BUDGET.md): the `autoCompactWindow` of every 1M row.
 */
export const ONE_MILLION_AUTO_COMPACT_WINDOW = 400_000;
/** The 5.x models' default `max_tokens`: their maximum, as Claude Code sends it; autocompact near 400K. */
const FIVE = { defaultOutputTokens: 128_000, autoCompactWindow: ONE_MILLION_AUTO_COMPACT_WINDOW } as const;
/** Opus 5.5 and Fable 5.1 (and their Mythos siblings): thinking always on, forced tools refused, blocks bound. */
const ALWAYS = {
  defaultEffort: "high",
  thinkingAlwaysOn: true,
  bindsThinking: true,
  bindsThinkingPrefix: true,
} as const;
const TABLE: ReadonlyArray<readonly [prefix: string, limits: ModelLimits]> = [
  // The claude-5 family: adaptive thinking, no prefill (as for the 4.6 generation on), 128K output by default.
  [
    "claude-fable-5-2",
    limits(1_000_000, 128_000, 4_096, 8, 40, false, { ...FIVE, ...ALWAYS, cacheReadMultiplier: 0.025 }),
  ], // read assumed: as 5.1
  [
    "claude-fable-5-1",
    limits(1_000_000, 128_000, 4_096, 10, 50, false, { ...FIVE, ...ALWAYS, cacheReadMultiplier: 0.025 }),
  ],
  [
    "claude-fable-5",
    limits(1_000_000, 128_000, 4_096, 10, 50, false, { ...FIVE, defaultEffort: "high", thinkingAlwaysOn: true }),
  ], // assumed: as Fable 5.1
  [
    "claude-mythos-5-2",
    limits(1_000_000, 128_000, 4_096, 8, 40, false, { ...FIVE, ...ALWAYS, cacheReadMultiplier: 0.025 }),
  ], // assumed: as Fable 5.2 (shared card)
  [
    "claude-mythos-5-1",
    limits(1_000_000, 128_000, 4_096, 10, 50, false, { ...FIVE, ...ALWAYS, cacheReadMultiplier: 0.025 }),
  ], // assumed: as Fable 5.1 (shared card)
  [
    "claude-mythos-5",
    limits(1_000_000, 128_000, 4_096, 10, 50, false, { ...FIVE, defaultEffort: "high", thinkingAlwaysOn: true }),
  ], // assumed: as Fable 5 (shared card)
  ["claude-mythos-preview", limits(1_000_000, 128_000, 4_096, 10, 50, false, { ...FIVE, defaultEffort: "high" })], // assumed: as Mythos 5
  [
    "claude-opus-5-5",
    limits(1_000_000, 128_000, 4_096, 4, 20, false, {
      ...FIVE,
      ...ALWAYS,
      defaultEffort: "medium",
      cacheReadMultiplier: 0.05,
    }),
  ],
  ["claude-opus-5", limits(1_000_000, 128_000, 4_096, 5, 25, false, { ...FIVE, defaultEffort: "high" })],
  [
    "claude-sonnet-5-5",
    limits(1_000_000, 128_000, 2_048, 2, 10, false, {
      ...FIVE,
      defaultEffort: "high",
      bindsThinking: true,
      bindsThinkingPrefix: true,
    }),
  ],
  ["claude-sonnet-5", limits(1_000_000, 128_000, 2_048, 2, 10, false, { ...FIVE, defaultEffort: "high" })],
  // Haiku 5.5 is priced "from" $0.10/$0.50 (tiered: 5x over 100K prompt tokens); the lowest tier is used. Its
  // cache read price is not published in a form we could check: the standard 0.1x (assumed).
  // Haiku 5.5 takes forced tool use but checks its thinking blocks' prefixes (the prefix-checks page lists it).
  [
    "claude-haiku-5-5",
    limits(1_000_000, 128_000, 4_096, 0.1, 0.5, false, { ...FIVE, defaultEffort: "medium", bindsThinkingPrefix: true }),
  ],
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
  rest: Partial<Pick<ModelLimits, ExtraFields>> = {},
): ModelLimits {
  const defaultOutputTokens = Math.min(rest.defaultOutputTokens ?? DEFAULT_OUTPUT_TOKENS, maxOutputTokens);
  return {
    contextWindow,
    maxOutputTokens,
    defaultOutputTokens,
    minCacheableTokens,
    inputPricePerMTok,
    outputPricePerMTok,
    cacheReadMultiplier: rest.cacheReadMultiplier ?? STANDARD_CACHE_READ_MULTIPLIER,
    acceptsPrefill,
    ...(rest.defaultEffort !== undefined ? { defaultEffort: rest.defaultEffort } : {}),
    thinkingAlwaysOn: rest.thinkingAlwaysOn ?? false,
    bindsThinking: rest.bindsThinking ?? false,
    bindsThinkingPrefix: rest.bindsThinkingPrefix ?? false,
    ...(rest.autoCompactWindow !== undefined ? { autoCompactWindow: rest.autoCompactWindow } : {}),
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
