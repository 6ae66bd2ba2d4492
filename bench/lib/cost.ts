/**
 * What a bill measures, from the emulator's request log: every `POST /v1/messages` answered (main loop,
 * re-reads, summaries, collapse, session memory, subagents alike), input at cache prices — uncached 1×,
 * 5-minute cache write 1.25×, 1-hour write 2×, cache read 0.1× — plus output at 5× input. The unit is
 * "input-token equivalents"; `dollars` prices it at a per-million input price.
 */
import type { RequestLogEntry } from "@threadline/emulator";
import {
  CACHE_READ_MULTIPLIER,
  CACHE_WRITE_1H_MULTIPLIER,
  CACHE_WRITE_5M_MULTIPLIER,
  UNCACHED_INPUT_MULTIPLIER,
} from "../../src/messages/pricing.js";

/** Prices relative to one uncached input token: the API's cache multipliers, and output at a Sonnet-class 5×. */
export const PRICE = {
  input: UNCACHED_INPUT_MULTIPLIER,
  write5m: CACHE_WRITE_5M_MULTIPLIER,
  write1h: CACHE_WRITE_1H_MULTIPLIER,
  read: CACHE_READ_MULTIPLIER,
  output: 5,
} as const;

/** Sonnet-class input price, dollars per million tokens (for the dollar column only). */
export const DEFAULT_INPUT_DOLLARS_PER_MILLION = 3;

export interface SessionCost {
  /** Input-token equivalents over every request. */
  cost: number;
  /** The part of `cost` spent on requests that were not main-loop turns (summaries, collapse, side requests). */
  sideCost: number;
  /** Answered messages requests, and how many were side requests (summary or other). */
  requests: number;
  sideRequests: number;
  /** Re-read turns (the scripted model asking for a file again) and files re-read. */
  rereadTurns: number;
  rereads: number;
  /** Needs still invisible after the re-reads. */
  factsLost: number;
}

/** The cost of one answered request, in input-token equivalents. */
export function requestCost(record: RequestLogEntry): number {
  const usage = record.usage;
  if (usage === undefined) return 0;
  const write = usage.cache_creation_input_tokens ?? 0;
  const write1h = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  const write5m = usage.cache_creation?.ephemeral_5m_input_tokens ?? write - write1h;
  return (
    PRICE.input * usage.input_tokens +
    PRICE.write5m * write5m +
    PRICE.write1h * write1h +
    PRICE.read * (usage.cache_read_input_tokens ?? 0) +
    PRICE.output * usage.output_tokens
  );
}

/** Totals over an emulator's request log. */
export function sessionCost(records: readonly RequestLogEntry[]): SessionCost {
  const figures: SessionCost = {
    cost: 0,
    sideCost: 0,
    requests: 0,
    sideRequests: 0,
    rereadTurns: 0,
    rereads: 0,
    factsLost: 0,
  };
  for (const record of records) {
    if (record.path !== "/v1/messages" || record.usage === undefined) continue;
    const cost = requestCost(record);
    figures.cost += cost;
    figures.requests++;
    if (record.source === "summary" || record.source === "side") {
      figures.sideRequests++;
      figures.sideCost += cost;
    }
    if (record.source === "reread") {
      figures.rereadTurns++;
      figures.rereads += record.rereadFiles?.length ?? 0;
    }
    figures.factsLost += record.lostFacts?.length ?? 0;
  }
  return figures;
}

/** `cost` in dollars at `inputDollarsPerMillion` (default DEFAULT_INPUT_DOLLARS_PER_MILLION). */
export function dollars(cost: number, inputDollarsPerMillion = DEFAULT_INPUT_DOLLARS_PER_MILLION): number {
  return (cost * inputDollarsPerMillion) / 1_000_000;
}
