/**
 * What compaction needs to run a forked side request (summaries, the ctx-agent, compaction notes): a runner the
 * engine implements on top of the provider. Compaction never sees the provider itself, so it cannot reach
 * past this contract; the runner says in compaction's own terms why a request failed, when it matters.
 */
import type { MessageEntry, SideRequestPurpose, Usage } from "../../messages/index.js";

/** One forked request: the parent's prefix (`messages`, assembled exactly as the main loop would) plus one instruction. */
export interface ForkRequest {
  messages: readonly MessageEntry[];
  /** Appended as one meta user message after `messages`. */
  instruction: string;
  /** Output cap of the forked request. */
  maxTokens: number;
  /** What the request is for, in its bill (`SideRequestBill.purpose`). Default "compact". */
  purpose?: SideRequestPurpose;
}

/** The bill of one forked request that got an answer, for the transcript and the session's totals. */
export interface SideRequestBill {
  purpose: SideRequestPurpose;
  model: string;
  usage: Usage;
}

export interface ForkResult {
  /** The reply's text blocks, joined. */
  text: string;
  usage: Usage;
  /** The client's estimate of the request's input tokens (tools, system and messages). */
  estimatedInputTokens: number;
  /** Why the reply ended, where the provider said (`max_tokens`: the summary was cut off). Default unknown. */
  stopReason?: string | null;
}

/**
 * Why a forked request failed, as far as compaction acts on it: a prompt the server found too long (with its
 * numbers when it gave them) is retried smaller; anything else is final.
 */
export type ForkFailure = { kind: "prompt_too_long"; actualTokens?: number; maxTokens?: number } | { kind: "other" };

/** Runs forked requests that reuse the parent's system prompt, tools, model and message prefix. */
export interface ForkRunner {
  /** Sends one request; rejects with the runner's own error when it fails (see `failure`). */
  run(request: ForkRequest): Promise<ForkResult>;
  /** The client's estimate of the input tokens `run(request)` would send (same ruler as the server's). */
  estimate(request: ForkRequest): number;
  /** The window the requests go to, in estimate units (the server's ÷ the calibration; context-budget.ts). */
  readonly estimateWindow: number;
  /**
   * What an error `run` rejected with means for compaction. The error itself travels on unchanged (callers
   * above compaction see what the runner threw). Default: every failure is `{ kind: "other" }`.
   */
  failure?(error: unknown): ForkFailure;
}
