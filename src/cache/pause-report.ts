/**
 * What the pause policy chose and what that saved (docs/PROMPT-CACHE.md, "Pauses"), for `/cost` and `inspect`:
 * each recorded choice beside the pause that really followed (up to the next prompt), priced with the same
 * model as the choice, against letting the cache expire. Pure; reads raw records, so a transcript file works.
 */
import type { TimelineEntry } from "../messages/index.js";
import { isTypedPrompt } from "../timeline/index.js";
import { hedgeCost, type PausePolicyName, pauseCost } from "./pause-policy.js";

/** The fields of a `pause-choice` record this report reads. */
export interface PauseChoiceShape {
  policy: PausePolicyName;
  ttl: "5m" | "1h";
  /** The cold-start hedge: the system markers' TTL and what the turn wrote with it. */
  prefixTtl?: "5m" | "1h";
  prefixTokens?: number;
  contextTokens: number;
  turnWriteTokens: number;
  timestamp: string;
}

export interface PauseSummary {
  /** Choices by policy. */
  chosen: Record<PausePolicyName, number>;
  /** Choices that held the system prompt and tools for an hour under a 5-minute conversation (cold start). */
  hedged: number;
  /** Pauses that have ended (a prompt followed). */
  pauses: number;
  /** Input-token equivalents saved against letting every pause expire (negative: it cost more). */
  savedTokens: number;
  /** Keep-warm requests sent. */
  keepWarmRequests: number;
}

/**
 * Summarises `choices` with the times of the prompts (ms since the epoch, ascending) and the number of
 * keep-warm requests billed. The model prices keep-warm by refreshes it would send, as the choice did.
 */
export function summarisePauses(
  choices: readonly PauseChoiceShape[],
  promptTimes: readonly number[],
  keepWarmRequests: number,
): PauseSummary {
  const chosen: Record<PausePolicyName, number> = { expire: 0, "one-hour": 0, "keep-warm": 0 };
  let pauses = 0;
  let savedTokens = 0;
  let hedged = 0;
  for (const choice of choices) {
    chosen[choice.policy]++;
    const hedge = choice.prefixTtl === "1h" && choice.ttl === "5m" ? (choice.prefixTokens ?? 0) : undefined;
    if (hedge !== undefined) hedged++;
    const at = Date.parse(choice.timestamp);
    const next = promptTimes.find((time) => time > at);
    if (next === undefined || !Number.isFinite(at)) continue;
    pauses++;
    const situation = {
      contextTokens: choice.contextTokens,
      turnWriteTokens: choice.turnWriteTokens,
      refreshOutputTokens: 1,
      outputRatio: 5,
      oneHourOffered: true,
      keepWarmAllowed: true,
      keepWarmLimitMs: Number.POSITIVE_INFINITY,
    };
    const gap = next - at;
    savedTokens += pauseCost("expire", gap, situation) - pauseCost(choice.policy, gap, situation);
    if (hedge !== undefined) savedTokens -= hedgeCost(gap, hedge);
  }
  return { chosen, hedged, pauses, savedTokens: Math.round(savedTokens), keepWarmRequests };
}

/** One line: `3 (keep-warm 2, one-hour 1); saved ≈ 180,200 input-token equivalents ($0.9010) …`. */
export function formatPauseSummary(summary: PauseSummary, inputPricePerMTok: number): string {
  const parts = (Object.entries(summary.chosen) as Array<[PausePolicyName, number]>)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${count}`)
    .concat(summary.hedged > 0 ? [`system prompt held an hour ${summary.hedged}`] : []);
  const dollars = (summary.savedTokens * inputPricePerMTok) / 1_000_000;
  const tokens = summary.savedTokens.toLocaleString("en-US");
  const verb = summary.savedTokens >= 0 ? "saved" : "cost";
  return (
    `${Object.values(summary.chosen).reduce((sum, count) => sum + count, 0)} (${parts.join(", ")}); ` +
    `${verb} ≈ ${tokens.replace("-", "")} input-token equivalents ($${Math.abs(dollars).toFixed(4)}) against ` +
    `letting the cache expire over ${summary.pauses} ended pause${summary.pauses === 1 ? "" : "s"}; ` +
    `${summary.keepWarmRequests} keep-warm request${summary.keepWarmRequests === 1 ? "" : "s"}`
  );
}

/** The summary of a session's entries; undefined when no pause choice was recorded. */
export function summariseSessionPauses(entries: readonly TimelineEntry[]): PauseSummary | undefined {
  const choices: PauseChoiceShape[] = [];
  const promptTimes: number[] = [];
  let keepWarm = 0;
  for (const entry of entries) {
    if (entry.type === "pause-choice") choices.push(entry);
    else if (entry.type === "side-request" && entry.purpose === "keep-warm") keepWarm++;
    else if (isTypedPrompt(entry)) promptTimes.push(Date.parse((entry as { timestamp: string }).timestamp));
  }
  return choices.length === 0 ? undefined : summarisePauses(choices, promptTimes, keepWarm);
}
