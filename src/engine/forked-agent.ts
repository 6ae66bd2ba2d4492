/**
 * The forked agent: a one-shot request that reuses the parent turn's exact system prompt, tools, model,
 * latches and pinned cache edits, and the parent's messages as its prefix — assembled by the same pure
 * `assembleRequest` the main loop uses, so the bytes up to the parent's message breakpoint are identical and
 * the provider's cache is read, not rewritten. Only one meta user instruction is appended (it carries no snip
 * tag), and only `max_tokens` differs, which is not part of the cache key.
 */

import {
  budgetLimits,
  ContextBudget,
  type ForkFailure,
  type ForkRequest,
  type ForkResult,
  type ForkRunner,
} from "../compaction/index.js";
import { AssistantEntries } from "../loop/assistant-entries.js";
import type { ForkParent } from "../loop/query-context.js";
import { createUserEntry, estimateRequestTokens, textBlock, type Usage } from "../messages/index.js";
import { ProviderError, type ProviderEvent } from "../provider/index.js";
import type { AssembledRequest } from "../request/index.js";
import { assembleRequest } from "../request/index.js";

/** Session id of the throwaway instruction entry (never stored: only its content reaches the request). */
const FORK_SESSION_ID = "forked-agent";

/** The request a fork sends: the parent's settings with `maxTokens`, its messages plus the instruction. */
export function assembleForkedRequest(parent: ForkParent, request: ForkRequest): AssembledRequest {
  const instruction = createUserEntry(
    { sessionId: FORK_SESSION_ID, parentUuid: null, uuid: "00000000-0000-4000-8000-000000000000" },
    [textBlock(request.instruction)],
    { isMeta: true },
  );
  return assembleRequest({
    messages: [...request.messages, instruction],
    settings: { ...parent.settings, maxTokens: request.maxTokens },
    latches: parent.latches,
    pins: parent.pins,
  }).request;
}

/** Sends one forked request and returns its text (its bill goes to `parent.onSideRequest`); throws the provider's error when it fails. */
export async function runForkedAgent(parent: ForkParent, request: ForkRequest): Promise<ForkResult> {
  const purpose = request.purpose ?? "compact";
  let result: ForkResult;
  try {
    result = await sendForkedRequest(parent, request);
  } catch (error) {
    // A refused summary is a request the server saw: the transcript says so (docs/CONTEXT-BUDGET.md).
    if (error instanceof ProviderError) {
      parent.onRequestFailed?.({ purpose, model: parent.settings.model, error, retried: false });
      // A cache-safe fork the server found too long names its window: the session keeps it (recorded with the
      // budget's next record), so no later fork is sized by the larger window the client believed.
      if (error.kind === "prompt_too_long") parent.budget?.learnWindow(error.options.maxTokens);
    }
    throw error;
  }
  parent.onSideRequest?.({ purpose, model: parent.settings.model, usage: result.usage });
  return result;
}

/** The smallest output cap a side request is sent with, however full the window: 256. */
export const MIN_SIDE_REQUEST_MAX_TOKENS = 256;

/**
 * The output a side request has room for: the server's window less its input by the server's count (the
 * session's calibration; docs/CONTEXT-BUDGET.md), so no summary asks for 20,000 tokens of a 12K window.
 */
export function sideRequestRoom(parent: ForkParent, estimatedInputTokens: number): number {
  const { model, modelOverrides } = parent.settings;
  const window = (parent.budget ?? new ContextBudget()).serverWindow(model, modelOverrides);
  const input = parent.budget?.toServer(estimatedInputTokens) ?? estimatedInputTokens;
  return Math.max(MIN_SIDE_REQUEST_MAX_TOKENS, window - input);
}

async function sendForkedRequest(parent: ForkParent, request: ForkRequest): Promise<ForkResult> {
  let assembled = assembleForkedRequest(parent, request);
  const estimatedInputTokens = estimateRequestTokens(assembled.body);
  const room = sideRequestRoom(parent, estimatedInputTokens);
  if (request.maxTokens > room) assembled = assembleForkedRequest(parent, { ...request, maxTokens: room });
  const onRetry = (retry: Extract<ProviderEvent, { type: "retry" }>): void =>
    parent.onRequestFailed?.({
      purpose: request.purpose ?? "compact",
      model: parent.settings.model,
      error: retry.error,
      retried: true,
    });
  const options = { onRetry, ...(parent.signal !== undefined ? { signal: parent.signal } : {}) };
  if (parent.provider.complete !== undefined) {
    const reply = await parent.provider.complete(assembled, options);
    const text = reply.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    return { text, usage: reply.usage, estimatedInputTokens, stopReason: reply.stopReason };
  }
  let text = "";
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let stopReason: string | null = null;
  // The blocks as the loop would record them (a block is counted once it is known whole).
  const entries = new AssistantEntries(() => ({ sessionId: FORK_SESSION_ID, parentUuid: null }));
  for await (const event of parent.provider.stream(assembled, options)) {
    for (const entry of entries.push(event)) {
      const block = entry.message.content[0];
      if (block.type === "text") text += block.text;
    }
    if (event.type === "message_end") {
      usage = event.usage;
      stopReason = event.stopReason;
    }
    if (event.type === "retry") onRetry(event);
  }
  return { text, usage, estimatedInputTokens, stopReason };
}

/** What a provider error means for compaction: "prompt is too long" (with the server's numbers) or final. */
export function forkFailure(error: unknown): ForkFailure {
  if (!(error instanceof ProviderError) || error.kind !== "prompt_too_long") return { kind: "other" };
  const { actualTokens, maxTokens } = error.options;
  return {
    kind: "prompt_too_long",
    ...(actualTokens !== undefined ? { actualTokens } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

/** A ForkRunner bound to `parent` (what the engine injects into the loop's compaction pass). */
export function createForkRunner(parent: ForkParent): ForkRunner {
  const limits = budgetLimits(parent.settings.model, parent.settings.modelOverrides, parent.budget);
  return {
    estimateWindow: limits.estimateWindow,
    run: (request) => runForkedAgent(parent, request),
    estimate: (request) => estimateRequestTokens(assembleForkedRequest(parent, request).body),
    failure: forkFailure,
  };
}
