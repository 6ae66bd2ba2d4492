/**
 * Compaction settings: one switch per tier plus the named policy defaults. A tier that is off is never
 * run by any path (docs/INVARIANTS.md #6).
 */

/**
 * Longest idle time before the time-based clear runs: 60 minutes. The clear runs sooner, as soon as the idle
 * time passes the cache TTL in use (5 minutes, or 1 hour), because the cache is cold by then and clearing is free.
 */
export const DEFAULT_TIME_BASED_GAP_MS = 60 * 60 * 1000;

/** The server's sliding `clear_tool_uses` edit: off (it moves with every request and rewrites the cache each time). */
export const DEFAULT_SERVER_CLEAR_TOOL_USES = false;

/**
 * Tier 1 (snip) by default: off. Its id tags, nudges and tool definition are paid on every request and only
 * pay back when the model snips; on the bundled sessions (a model that never snips) it cost +0.7 % over 40
 * steps and +5 % over the 220-step session with its 10K nudges (bench/README.md). THREADLINE_ENABLE_SNIP=1
 * or `{ snip: true }` turns it on.
 */
export const DEFAULT_SNIP = false;

/**
 * Tier 3 (context collapse) by default: off. Its ctx-agent requests and commits cost 1.25× autocompact alone
 * on the 220-step session at 200K, and with microcompact on it never reaches its staging ratio there, so it
 * only adds risk. THREADLINE_ENABLE_COLLAPSE=1 or `{ collapse: true }` turns it on.
 */
export const DEFAULT_COLLAPSE = false;

/** Most recent compactable tool results that always stay verbatim: 5. */
export const DEFAULT_KEEP_RECENT = 5;

/**
 * Most recent results a public-path batch keeps verbatim: 3. Measured against 4, 5 (and 8) with the re-reads
 * paid for: 0.685× vs 0.815× of tiers off over 40 steps, 2.64M vs 3.27M over the 220-step session at 200K
 * (bench/README.md), and 2.51M vs 2.68M for 4 (7 re-reads instead of 11): each batch rewrites the kept
 * results, so keeping fewer makes every batch cheaper.
 */
export const DEFAULT_BATCH_KEEP_RECENT = 3;

/** Floor for `keepRecentToolResults`: a setting below it is raised to it. */
export const MIN_KEEP_RECENT = 5;

/** Floor for `batchKeepRecentToolResults`: the last 3 results are verbatim in every request. */
export const MIN_BATCH_KEEP_RECENT = 3;

/**
 * Smallest public-path batch (and the server edit's `clear_at_least`): 2,000 tokens. The rent-or-buy rule
 * decides whether a batch pays; this floor only stops rewrites for crumbs. At 10,000 a small session (the
 * demo at a 48K window) never cleared and compacted instead: $0.1434 vs $0.1248 with one batch at 2,000.
 */
export const DEFAULT_MIN_CLEAR_TOKENS = 2_000;

/** `context_management` trigger (input tokens) for providers without cache editing: 100,000 (capped by the window). */
export const DEFAULT_CONTEXT_MANAGEMENT_TRIGGER_TOKENS = 100_000;

/** Tokens of recently read files re-attached after a compaction (Claude Code's budget): 50,000; 0 turns it off. */
export const DEFAULT_POST_COMPACT_RESTORE_TOKENS = 50_000;

/** A `context_efficiency` nudge is attached after each this-many tokens of growth: 10,000. */
export const DEFAULT_NUDGE_INTERVAL_TOKENS = 10_000;

/** Tool names whose results are never cleared by the server-side edit, whatever the tool list says. */
export const DEFAULT_NEVER_CLEARED_TOOLS: readonly string[] = ["Agent", "Snip", "Task"];

export type CacheEditsMode = "auto" | "on" | "off";

export interface CompactionSettings {
  /** Tier 1 (short id tags, the Snip tool, nudges). Default DEFAULT_SNIP (off). */
  snip: boolean;
  /** Tier 2 (clearing old tool results, every path). Default on. */
  microcompact: boolean;
  /** Tier 3 (context collapse). Default DEFAULT_COLLAPSE (off). */
  collapse: boolean;
  /** Tier 4 (LLM summary). Default on. */
  autocompact: boolean;
  /** "auto" uses the provider capability; from THREADLINE_CACHE_EDITS=auto|on|off. Default "auto". */
  cacheEdits: CacheEditsMode;
  /** Idle gap that makes the time-based clear run, when shorter than the cache TTL in use. Default DEFAULT_TIME_BASED_GAP_MS (60 min). */
  timeBasedGapMs: number;
  /** Send the server's `clear_tool_uses` edit instead of clearing client-side in batches. Default DEFAULT_SERVER_CLEAR_TOOL_USES (false). */
  serverClearToolUses: boolean;
  /** Compactable results kept verbatim; never fewer than MIN_KEEP_RECENT. Default DEFAULT_KEEP_RECENT (5). */
  keepRecentToolResults: number;
  /** Results a public-path batch keeps verbatim; never fewer than MIN_BATCH_KEEP_RECENT. Default DEFAULT_BATCH_KEEP_RECENT (3). */
  batchKeepRecentToolResults: number;
  /** Smallest worthwhile public-path batch / server `clear_at_least`. Default DEFAULT_MIN_CLEAR_TOKENS (2,000). */
  minClearTokens: number;
  /** Server-side clearing trigger in input tokens. Default DEFAULT_CONTEXT_MANAGEMENT_TRIGGER_TOKENS (100,000). */
  contextManagementTriggerTokens: number;
  /** Growth between `context_efficiency` nudges. Default DEFAULT_NUDGE_INTERVAL_TOKENS (10,000). */
  nudgeIntervalTokens: number;
  /** Recently read files re-attached after a compaction, in tokens; 0 = none. Default DEFAULT_POST_COMPACT_RESTORE_TOKENS (50,000). */
  postCompactRestoreTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = Object.freeze({
  snip: DEFAULT_SNIP,
  microcompact: true,
  collapse: DEFAULT_COLLAPSE,
  autocompact: true,
  cacheEdits: "auto",
  timeBasedGapMs: DEFAULT_TIME_BASED_GAP_MS,
  serverClearToolUses: DEFAULT_SERVER_CLEAR_TOOL_USES,
  keepRecentToolResults: DEFAULT_KEEP_RECENT,
  batchKeepRecentToolResults: DEFAULT_BATCH_KEEP_RECENT,
  minClearTokens: DEFAULT_MIN_CLEAR_TOKENS,
  contextManagementTriggerTokens: DEFAULT_CONTEXT_MANAGEMENT_TRIGGER_TOKENS,
  nudgeIntervalTokens: DEFAULT_NUDGE_INTERVAL_TOKENS,
  postCompactRestoreTokens: DEFAULT_POST_COMPACT_RESTORE_TOKENS,
});

/** Environment variables read by `compactionSettingsFromEnv`; a truthy ENABLE turns its tier on, a truthy DISABLE off (DISABLE wins). */
export const COMPACTION_ENV = {
  cacheEdits: "THREADLINE_CACHE_EDITS",
  enableSnip: "THREADLINE_ENABLE_SNIP",
  disableSnip: "THREADLINE_DISABLE_SNIP",
  disableMicrocompact: "THREADLINE_DISABLE_MICROCOMPACT",
  enableCollapse: "THREADLINE_ENABLE_COLLAPSE",
  disableCollapse: "THREADLINE_DISABLE_COLLAPSE",
  disableAutocompact: "THREADLINE_DISABLE_AUTOCOMPACT",
  /** Claude Code's own names, honoured so habits carry over. */
  claudeDisableMicrocompact: "DISABLE_MICROCOMPACT",
  claudeDisableAutocompact: "DISABLE_AUTO_COMPACT",
  /** Claude Code's window for autocompact's threshold (capped at the model's window; docs/CONTEXT-BUDGET.md). */
  claudeAutoCompactWindow: "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
  /** Claude Code's percent of that window (less the output reserve) to autocompact at; it only lowers the threshold. */
  claudeAutoCompactPercent: "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
} as const;

const CACHE_EDITS_MODES: readonly CacheEditsMode[] = ["auto", "on", "off"];

function isTruthy(value: string | undefined): boolean {
  if (value === undefined) return false;
  return ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

function parseCacheEdits(value: string | undefined): CacheEditsMode {
  if (value === undefined || value.trim() === "") return "auto";
  const normalized = value.trim().toLowerCase();
  const mode = CACHE_EDITS_MODES.find((candidate) => candidate === normalized);
  if (mode === undefined) {
    throw new Error(`${COMPACTION_ENV.cacheEdits} must be one of auto|on|off, got ${JSON.stringify(value)}`);
  }
  return mode;
}

/**
 * Settings from the environment, then `overrides` (explicit options win over the environment).
 * `keepRecentToolResults` is raised to MIN_KEEP_RECENT; an unknown THREADLINE_CACHE_EDITS value throws.
 */
export function compactionSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<CompactionSettings> = {},
): CompactionSettings {
  const fromEnv: CompactionSettings = {
    ...DEFAULT_COMPACTION_SETTINGS,
    snip: (DEFAULT_SNIP || isTruthy(env[COMPACTION_ENV.enableSnip])) && !isTruthy(env[COMPACTION_ENV.disableSnip]),
    microcompact: !(
      isTruthy(env[COMPACTION_ENV.disableMicrocompact]) || isTruthy(env[COMPACTION_ENV.claudeDisableMicrocompact])
    ),
    collapse:
      (DEFAULT_COLLAPSE || isTruthy(env[COMPACTION_ENV.enableCollapse])) &&
      !isTruthy(env[COMPACTION_ENV.disableCollapse]),
    autocompact: !(
      isTruthy(env[COMPACTION_ENV.disableAutocompact]) || isTruthy(env[COMPACTION_ENV.claudeDisableAutocompact])
    ),
    cacheEdits: parseCacheEdits(env[COMPACTION_ENV.cacheEdits]),
  };
  const merged: CompactionSettings = { ...fromEnv };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof CompactionSettings, unknown]>) {
    if (value !== undefined) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  merged.keepRecentToolResults = effectiveKeepRecent(merged);
  return merged;
}

/**
 * The autocompact window and percent Claude Code's environment variables set, as model-limit overrides (the one
 * budget reads them: context-thresholds.ts). Unset or empty: none. A value that is not a positive whole number
 * (a percent over 100) throws one line naming the variable and the value.
 */
export function autoCompactOverridesFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): {
  autoCompactWindow?: number;
  autoCompactPercent?: number;
} {
  const read = (name: string, max: number): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") return undefined;
    const value = Number(raw.trim());
    if (!Number.isInteger(value) || value <= 0 || value > max)
      throw new Error(
        `${name} must be a whole number from 1 to ${max.toLocaleString("en-US")}, got ${JSON.stringify(raw)}`,
      );
    return value;
  };
  const window = read(COMPACTION_ENV.claudeAutoCompactWindow, Number.MAX_SAFE_INTEGER);
  const percent = read(COMPACTION_ENV.claudeAutoCompactPercent, 100);
  return {
    ...(window !== undefined ? { autoCompactWindow: window } : {}),
    ...(percent !== undefined ? { autoCompactPercent: percent } : {}),
  };
}

/** The keep count policies use: the setting, never below MIN_KEEP_RECENT. */
export function effectiveKeepRecent(settings: Pick<CompactionSettings, "keepRecentToolResults">): number {
  const value = Number.isFinite(settings.keepRecentToolResults) ? Math.floor(settings.keepRecentToolResults) : 0;
  return Math.max(MIN_KEEP_RECENT, value);
}

/** The keep count public-path batches use: the setting, never below MIN_BATCH_KEEP_RECENT. */
export function effectiveBatchKeepRecent(settings: Pick<CompactionSettings, "batchKeepRecentToolResults">): number {
  const value = Number.isFinite(settings.batchKeepRecentToolResults)
    ? Math.floor(settings.batchKeepRecentToolResults)
    : 0;
  return Math.max(MIN_BATCH_KEEP_RECENT, value);
}
