/**
 * Asking the server's count where the estimate is least certain (docs/CONTEXT-BUDGET.md, "Token counting"):
 * before the first request after a compaction (the estimate is all the budgets had to meet the target with)
 * and before a request whose new tool results are large (content the calibration has not seen: CJK text,
 * minified JSON, base64). Only where the provider declares `tokenCounting` — the public API's free
 * `count_tokens`; never sent to a server that has not declared it. The count feeds the same calibration a
 * response's usage feeds; when it moved the ratio up, the loop budgets the request again before sending it.
 */
import { estimateTextTokens } from "../../messages/index.js";
import { ProviderError } from "../../provider/index.js";
import type { AssembledRequest, MessagesRequest } from "../../request/index.js";
import type { EngineEvent } from "../events.js";
import { capabilities, type TurnState } from "../turn-state.js";
import { bodyKey, learnFromCount, sessionBudget } from "./budget-learning.js";

/** New tool results of at least this many estimated tokens are counted before they go out: 4,000. */
export const DEFAULT_COUNT_TOOL_RESULT_TOKENS = 4_000;

/** A ratio that grew by more than this share makes the loop budget the request again: 5 %. */
const RECOUNT_GROWTH = 0.05;

/** Why a request is counted before it is sent, or undefined when the estimate is trusted. */
export function countReason(turn: TurnState, body: MessagesRequest): "after-compaction" | "large-result" | undefined {
  if (sessionBudget(turn).pendingTarget !== undefined) return "after-compaction";
  return newToolResultTokens(body) >= DEFAULT_COUNT_TOOL_RESULT_TOKENS ? "large-result" : undefined;
}

/** Estimated tokens of the tool results in the request's last message (the ones this request adds). */
function newToolResultTokens(body: MessagesRequest): number {
  const last = body.messages.at(-1);
  if (last === undefined || last.role !== "user" || typeof last.content === "string") return 0;
  let tokens = 0;
  for (const block of last.content)
    if (block.type === "tool_result") tokens += estimateTextTokens(JSON.stringify(block.content ?? ""));
  return tokens;
}

/**
 * Counts `request` with the server when it is declared and worth it, and teaches the calibration. Returns true
 * when the ratio grew (the budgets of this request were too small: assemble it again before sending).
 */
export async function* countBeforeSending(
  turn: TurnState,
  request: AssembledRequest,
): AsyncGenerator<EngineEvent, boolean> {
  const { context } = turn;
  const provider = context.provider;
  if (capabilities(turn).tokenCounting !== true || provider.countTokens === undefined) return false;
  if (countReason(turn, request.body) === undefined) return false;
  // Each body is counted once: after a recount the same bytes go out as they are.
  const key = bodyKey(request.body);
  if (turn.countedBodies.has(key)) return false;
  turn.countedBodies.add(key);
  let counted: number;
  try {
    counted = await provider.countTokens(request, { signal: context.signal });
  } catch (error) {
    // A count over the window comes back as the server's overflow error, with its count.
    if (!(error instanceof ProviderError) || error.options.actualTokens === undefined) return false;
    counted = error.options.actualTokens;
  }
  const budget = sessionBudget(turn);
  const before = budget.ratio;
  // The count stands for the response's report: the target check runs on it, so it is not pending any more.
  yield* learnFromCount(turn, counted, request.body);
  return budget.ratio > before * (1 + RECOUNT_GROWTH);
}
