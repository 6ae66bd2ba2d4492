import type { CompactionInput } from "../compaction/index.js";
import { runCompactionTiers } from "../compaction/index.js";
import {
  type AssistantEntry,
  createApiErrorEntry,
  createProgressEntry,
  createSystemEntry,
  createToolResultEntry,
  createUserEntry,
  type EntryContext,
  type MessageEntry,
  modelLimits,
  type TimelineEntry,
  type ToolUseBlock,
  toolResultBlock,
} from "../messages/index.js";
import { ProviderError } from "../provider/types.js";
import {
  assembleRequest,
  emptyLatches,
  featureOffRecord,
  latchRecord,
  type RequestSettings,
  withoutServerFeatures,
} from "../request/index.js";
import type { AssembledRequest, ThinkingConfig } from "../request/types.js";
import type { ToolOutput } from "../tools/types.js";
import { blockingLimitMessage, estimatedOverflow, estimateRequest } from "./blocking.js";
import { Channel } from "./channel.js";
import { addUsage, type EngineEvent, emptyUsage, type TerminalReason, type TurnUsage } from "./events.js";
import { cachedDeleteTokens, DEFAULT_CACHE_EDIT_ESTIMATE_SLACK } from "./expected-drops.js";
import {
  compactableToolNames,
  defaultRequestSettings,
  type ForkParent,
  pinsFromEntries,
  type QueryContext,
} from "./query-context.js";
import {
  CONTINUATION_PROMPT,
  decideMaxTokens,
  isMediaError,
  isPromptTooLong,
  newPromptTooLongRecovery,
  type PromptTooLongRecovery,
  type PromptTooLongStep,
  recoverFromPromptTooLong,
  syntheticErrorText,
} from "./recovery.js";
import { restoreFileReader } from "./restore-file.js";
import { capabilitiesWithout, decideSelfHeal } from "./self-heal.js";
import { SideRequestLog } from "./side-requests.js";
import { CUT_TOOL_USE_RESULT, contextWindowExceeded, REFUSAL_MESSAGE } from "./stop-reasons.js";
import { ToolExecutor } from "./tool-executor.js";
import { TurnRecorder } from "./turn-recorder.js";

type LoopItem = EngineEvent | { type: "_result"; block: ToolUseBlock; output: ToolOutput };

/** One user turn's loop. Yields events as they happen; the last event is always `turn_end`. */
export async function* query(context: QueryContext): AsyncGenerator<EngineEvent, TerminalReason> {
  const { timeline, config, state, signal } = context;
  state.featuresOff ??= new Set();
  const featuresOff = state.featuresOff;
  // What the server accepts: the provider's capabilities minus what it refused this session.
  const capabilities = () => capabilitiesWithout(context.provider.capabilities, featuresOff);
  const usage: TurnUsage = emptyUsage();
  const maxTokensState = { override: undefined as number | undefined, escalated: false, continuations: 0 };
  let iterations = 0;
  let mediaRetried = false;
  const promptTooLong: PromptTooLongRecovery = newPromptTooLongRecovery();
  let lastText = "";

  const recorder = new TurnRecorder(context.sessionId, timeline, context.transcript, context.now);
  const entryContext = (): EntryContext => recorder.context();
  const append = (entry: TimelineEntry): void => recorder.append(entry);
  const finish = (reason: TerminalReason, error?: string): EngineEvent => ({
    type: "turn_end",
    reason,
    usage,
    iterations,
    lastText,
    ...(error !== undefined ? { error } : {}),
  });

  const restoreFile = restoreFileReader(context.tools, context.cwd, context.additionalDirectories, signal);
  // Forked requests reuse the last request's settings exactly (its cache); before any, the session's defaults.
  // Side requests (summaries, urgent ctx-agent runs) are billed: their records follow the pass that made them.
  const sideRequests = new SideRequestLog();
  const appendSideRequests = () => {
    for (const record of sideRequests.drain(context.sessionId, context.now(), usage, config.modelOverrides))
      append(record);
  };
  const forkParent = (): ForkParent => ({
    provider: context.provider,
    onSideRequest: sideRequests.onSideRequest,
    ...(state.lastRequest ?? {
      settings: defaultRequestSettings(config, state.model, context.toolDefinitions, capabilities(), featuresOff),
      latches: state.latches,
      pins: pinsFromEntries(timeline.entries),
    }),
    signal,
  });

  // A server's announcement (x-emulator-features) holds for the session: recorded once, so a resume agrees.
  const recordAnnouncements = (): void => {
    const announced = context.provider.announcedFeatures ?? [];
    if (announced.length <= (state.features?.length ?? 0)) return;
    state.features = [...announced];
    append(latchRecord(state.latches, context.sessionId, context.now(), state.features));
  };

  while (true) {
    recordAnnouncements();
    if (signal.aborted) {
      yield finish("aborted");
      return "aborted";
    }
    if (config.maxTurns !== undefined && iterations >= config.maxTurns) {
      yield finish("max_turns", `Reached the limit of ${config.maxTurns} model requests for this turn.`);
      return "max_turns";
    }
    iterations++;
    const limits = modelLimits(state.model, config.modelOverrides);

    // 1. Compaction tiers, in their fixed order; they only add records.
    const compactionInput = (): CompactionInput => ({
      entries: timeline.entries,
      now: context.now(),
      settings: config.compaction,
      capabilities: capabilities(),
      model: state.model,
      contextWindow: limits.contextWindow,
      sessionId: context.sessionId,
      parentUuid: timeline.lastMessage?.uuid ?? null,
      compactableTools: compactableToolNames(context.tools),
      toolNames: [...context.tools.keys()],
      ...(context.forkFactory ? { fork: context.forkFactory(forkParent()) } : {}),
      ...(context.autoCompact ? { autoCompact: context.autoCompact } : {}),
      ...(restoreFile ? { restoreFile } : {}),
      cacheTtl: config.cacheTtl ?? "5m",
    });
    const compaction = await runCompactionTiers(compactionInput()).finally(appendSideRequests);
    for (const record of compaction.records) {
      append(record);
      if (record.type === "system" || record.type === "attachment") yield { type: "entry", entry: record };
    }
    // Latches reset on compaction (PIPELINE §4); the boundary makes a resume agree.
    if (compaction.compacted === true) state.latches = emptyLatches();
    if (compaction.compacted === true) context.cacheDetector?.expectDrop("compaction"); // PIPELINE §8: not a break
    if (compaction.expectCacheDrop) context.cacheDetector?.expectDrop(compaction.expectCacheDrop);
    // Cache edits delete tokens from the cached prefix on purpose: the read may fall by that much, no more.
    if (compaction.newCacheEdits.length > 0)
      context.cacheDetector?.expectDrop(
        `cache edits deleted ${compaction.newCacheEdits.length} old tool results`,
        undefined,
        Math.ceil(cachedDeleteTokens(compaction.records) * DEFAULT_CACHE_EDIT_ESTIMATE_SLACK),
      );

    // 2. Assembly: a pure function of the projected view, settings, latches and pins.
    const pins = pinsFromEntries(timeline.entries);
    // The session defaults (what forked requests use before any request), with this pass's decisions.
    const settingsFor = (model: string): RequestSettings =>
      withoutServerFeatures(
        {
          ...defaultRequestSettings(config, model, context.toolDefinitions, capabilities()),
          ...(maxTokensState.override !== undefined ? { maxTokens: maxTokensState.override } : {}),
          snipTags: compaction.snipTags,
          cacheEditing: compaction.cacheEditing,
          ...(compaction.contextManagement ? { contextManagement: compaction.contextManagement } : {}),
        },
        featuresOff,
      );
    const assembled = assembleRequest({
      messages: compaction.messages,
      settings: settingsFor(state.model),
      latches: state.latches,
      pins,
      newCacheEdits: compaction.newCacheEdits,
      ...(state.normalizeMemo ? { memo: state.normalizeMemo } : {}),
    });
    if (assembled.latches.betas.length !== state.latches.betas.length) {
      state.latches = assembled.latches;
      append(latchRecord(state.latches, context.sessionId, context.now(), state.features));
    }
    state.lastRequest = {
      settings: settingsFor(state.model),
      latches: state.latches,
      pins: [...pins, ...assembled.newPins],
    };
    for (const pin of assembled.newPins) {
      append({
        type: "cache-edit-pin",
        messageIndex: pin.messageIndex,
        block: pin.block,
        timestamp: context.now().toISOString(),
        sessionId: context.sessionId,
      });
    }
    // A tier that changed the view knows its size better than the last usage figure; the body is measured too.
    const estimate = estimateRequest(
      compaction.messages,
      assembled.request.body,
      state.model,
      limits,
      compaction.tokens,
    );
    const blocked = estimate.over
      ? blockingLimitMessage(
          compaction.messages,
          assembled.request.body,
          state.model,
          limits,
          config.compaction,
          estimate.tokens,
        )
      : undefined;
    if (blocked) {
      // Never upload what the estimate says is over: compact first, as for the server's own overflow error.
      const step = await recoverFromPromptTooLong(compactionInput(), estimatedOverflow(estimate), promptTooLong);
      if (step.action === "retry") {
        yield* applyRecovery(step);
        continue;
      }
      const notice = createSystemEntry(entryContext(), "informational", blocked, { level: "error" });
      append(notice);
      yield { type: "notice", level: "error", message: blocked, entry: notice };
      yield finish("blocking_limit", blocked);
      return "blocking_limit";
    }
    const rebuild = (model: string): AssembledRequest => {
      state.model = model;
      return assembleRequest({
        messages: compaction.messages,
        settings: settingsFor(model),
        latches: state.latches,
        pins: pinsFromEntries(timeline.entries),
      }).request;
    };

    // 3. Fingerprint, then make sure the transcript holds everything before the model is called.
    context.cacheDetector?.beforeRequest(assembled.request);
    yield { type: "request_start", request: assembled.request, iteration: iterations };
    await context.transcript.flush();

    // 4. Stream the response; tools start as their blocks finish.
    const channel = new Channel<LoopItem>();
    const newExecutor = (): ToolExecutor =>
      new ToolExecutor({
        tools: context.tools,
        policy: context.policy,
        ...(context.toolRuntime ? { runtime: context.toolRuntime } : {}),
        cwd: context.cwd,
        additionalDirectories: context.additionalDirectories,
        signal,
        session: {
          sessionId: context.sessionId,
          entries: () => timeline.entries,
          append: (entry) => append(entry),
        },
        onStart: (block) => channel.push({ type: "tool_start", block }),
        onProgress: (toolUseId, message) => {
          const entry = createProgressEntry(entryContext(), toolUseId, message);
          append(entry);
          channel.push({ type: "tool_progress", toolUseId, message });
        },
      });
    let executor = newExecutor();
    let attemptEntries: AssistantEntry[] = [];
    const toolOwners = new Map<string, AssistantEntry>();
    let stopReason: string | null = null;
    let responseText = "";
    let heldTools: ToolUseBlock[] = [];
    try {
      for await (const event of context.provider.stream(assembled.request, { signal, entryContext, rebuild })) {
        switch (event.type) {
          case "stream_event":
            yield event;
            break;
          case "block_complete":
            // A tool_use whose input did not parse waits for the stop reason: cut by max_tokens, it never runs.
            if (event.block.type === "tool_use" && event.inputInvalid === true) heldTools.push(event.block);
            else if (event.block.type === "tool_use") executor.add(event.block);
            break;
          case "assistant_entry": {
            append(event.entry);
            attemptEntries.push(event.entry);
            const block = event.entry.message.content[0];
            if (block.type === "tool_use") toolOwners.set(block.id, event.entry);
            if (block.type === "text") responseText += block.text;
            yield { type: "assistant", entry: event.entry };
            break;
          }
          case "retry": {
            if (event.supersededUuids.length > 0) {
              append(
                createSystemEntry(entryContext(), "stream_superseded", "Partial response superseded by a retry.", {
                  supersededUuids: event.supersededUuids,
                }),
              );
            }
            // The retried attempt starts over: forget this attempt's blocks and cancel its tools.
            executor.discard();
            executor = newExecutor();
            attemptEntries = [];
            toolOwners.clear();
            responseText = "";
            heldTools = [];
            const message = `${event.error.message} — retrying in ${Math.round(event.delayMs)} ms (attempt ${event.attempt})`;
            const notice = createSystemEntry(entryContext(), "api_error", message, {
              level: "warning",
              retryAttempt: event.attempt,
              retryInMs: event.delayMs,
            });
            append(notice);
            yield { type: "notice", level: "warning", message, entry: notice };
            break;
          }
          case "fallback": {
            const message = `Model ${event.from} is overloaded; switched to ${event.to}.`;
            const notice = createSystemEntry(entryContext(), "informational", message, { level: "warning" });
            append(notice);
            yield { type: "notice", level: "warning", message, entry: notice };
            break;
          }
          case "message_end":
            recordAnnouncements();
            stopReason = event.stopReason;
            addUsage(usage, event.usage, {
              inputPerMTok: limits.inputPricePerMTok,
              outputPerMTok: limits.outputPricePerMTok,
            });
            {
              const cacheBreak = context.cacheDetector?.afterResponse(event.usage, undefined, event.cacheMiss);
              if (cacheBreak && context.cacheDetector) {
                const message = context.cacheDetector.describe(cacheBreak);
                const notice = createSystemEntry(entryContext(), "informational", message, { level: "warning" });
                append(notice);
                yield { type: "notice", level: "warning", message, entry: notice };
              }
            }
            break;
        }
        for (const item of channel.drain()) if (item.type !== "_result") yield item;
      }
    } catch (error) {
      const failure = error instanceof ProviderError ? error : new ProviderError("connection", String(error));
      if (failure.kind === "aborted" || signal.aborted) {
        yield* recordInterruption(attemptEntries, toolOwners);
        yield finish("aborted");
        return "aborted";
      }
      // Blocks recorded by the failed attempt would otherwise dangle without a stop reason.
      if (attemptEntries.length > 0) {
        append(
          createSystemEntry(entryContext(), "stream_superseded", "Partial response from a failed request.", {
            supersededUuids: attemptEntries.map((entry) => entry.uuid),
          }),
        );
      }
      executor.discard();
      // A refused feature: off for the session (recorded, so a resume agrees), then the same turn goes again.
      const heal = decideSelfHeal(failure, assembled.request, featuresOff);
      if (heal !== undefined) {
        for (const feature of heal.features) {
          featuresOff.add(feature);
          append(featureOffRecord(feature, failure.message, context.sessionId, context.now()));
        }
        const notice = createSystemEntry(entryContext(), "informational", heal.notice, { level: "warning" });
        append(notice);
        yield { type: "notice", level: "warning", message: heal.notice, entry: notice };
        yield { type: "loop_continue", reason: "feature_off" };
        continue;
      }
      const synthetic = syntheticErrorText(failure);
      if (synthetic) append(createApiErrorEntry(entryContext(), synthetic, state.model));
      if (isMediaError(failure) && !mediaRetried) {
        mediaRetried = true;
        yield { type: "loop_continue", reason: "media_stripped" };
        continue;
      }
      let message = `API error (${failure.kind}): ${failure.message}`;
      if (isPromptTooLong(failure, mediaRetried)) {
        const step = await recoverFromPromptTooLong(compactionInput(), failure, promptTooLong).finally(
          appendSideRequests,
        );
        if (step.action === "retry") {
          yield* applyRecovery(step);
          continue;
        }
        message = step.message;
      }
      const notice = createSystemEntry(entryContext(), "api_error", message, { level: "error" });
      append(notice);
      yield { type: "notice", level: "error", message, entry: notice };
      const reason: TerminalReason = failure.kind === "prompt_too_long" ? "prompt_too_long" : "error";
      yield finish(reason, message);
      return reason;
    }
    if (responseText) lastText = responseText;

    // The context filled up mid-answer: the answer is dropped and the overflow chain makes room, as for a 400.
    if (stopReason === "model_context_window_exceeded") {
      executor.discard();
      supersede(attemptEntries, "Response cut by a full context window; retried after recovery.");
      const step = await recoverFromPromptTooLong(compactionInput(), contextWindowExceeded(), promptTooLong);
      if (step.action === "retry") {
        yield* applyRecovery(step);
        continue;
      }
      const notice = createSystemEntry(entryContext(), "api_error", step.message, { level: "error" });
      append(notice);
      yield { type: "notice", level: "error", message: step.message, entry: notice };
      yield finish("prompt_too_long", step.message);
      return "prompt_too_long";
    }
    // A tool_use cut by max_tokens never runs; other unparsable inputs run as `{}` and the tool says why.
    const cutTools = stopReason === "max_tokens" ? heldTools : [];
    if (stopReason !== "max_tokens") for (const block of heldTools) executor.add(block);
    if (cutTools.length > 0) {
      const decision = decideMaxTokens(
        maxTokensState,
        maxTokensState.override === undefined && config.maxTokens === undefined,
      );
      if (decision.action === "escalate") {
        executor.discard();
        maxTokensState.escalated = true;
        maxTokensState.override = decision.maxTokens;
        supersede(attemptEntries, "Tool input cut by the output cap; retried with a larger cap.");
        yield { type: "loop_continue", reason: "max_tokens_escalation" };
        continue;
      }
      if (executor.size > 0) yield* collectResults();
      for (const block of cutTools) {
        const owner = toolOwners.get(block.id);
        if (owner === undefined) continue;
        const result = toolResultBlock(block.id, CUT_TOOL_USE_RESULT, true);
        const entry = createToolResultEntry(entryContext(), [result], owner.uuid);
        append(entry);
        yield { type: "tool_result", block, entry, isError: true };
      }
      if (decision.action === "continue") {
        maxTokensState.continuations++;
        yield { type: "loop_continue", reason: "max_tokens_continuation" };
        continue;
      }
      yield finish("max_tokens", decision.message);
      return "max_tokens";
    }

    // 5. Tool results, in block order, each answering a recorded tool_use.
    if (toolOwners.size > 0) {
      yield* collectResults();
      if (signal.aborted) {
        yield finish("aborted");
        return "aborted";
      }
    }
    if (stopReason === "max_tokens") {
      const decision = decideMaxTokens(
        maxTokensState,
        maxTokensState.override === undefined && config.maxTokens === undefined,
      );
      if (decision.action === "escalate" && toolOwners.size === 0) {
        maxTokensState.escalated = true;
        maxTokensState.override = decision.maxTokens;
        append(
          createSystemEntry(
            entryContext(),
            "stream_superseded",
            "Truncated response retried with a larger output cap.",
            {
              supersededUuids: attemptEntries.map((entry) => entry.uuid),
            },
          ),
        );
        yield { type: "loop_continue", reason: "max_tokens_escalation" };
        continue;
      }
      if (decision.action !== "surface") {
        maxTokensState.continuations++;
        const entry = createUserEntry(entryContext(), CONTINUATION_PROMPT, { isMeta: true });
        append(entry);
        yield { type: "user", entry };
        yield { type: "loop_continue", reason: "max_tokens_continuation" };
        continue;
      }
      yield finish("max_tokens", decision.message);
      return "max_tokens";
    }
    if (stopReason === "refusal") {
      const notice = createSystemEntry(entryContext(), "informational", REFUSAL_MESSAGE, { level: "warning" });
      append(notice);
      yield { type: "notice", level: "warning", message: REFUSAL_MESSAGE, entry: notice };
      yield finish("refused", REFUSAL_MESSAGE);
      return "refused";
    }
    if (toolOwners.size > 0) {
      yield { type: "loop_continue", reason: "tool_use" };
      continue;
    }
    yield finish("completed");
    return "completed";

    /** Records a recovery step's entries and expects the cache drop its retry causes. */
    async function* applyRecovery(step: Extract<PromptTooLongStep, { action: "retry" }>): AsyncGenerator<EngineEvent> {
      for (const record of step.records) {
        append(record);
        if (record.type === "system" || record.type === "attachment") yield { type: "entry", entry: record };
      }
      if (step.compacted) state.latches = emptyLatches();
      context.cacheDetector?.expectDrop(step.reason); // the retry's prefix changed on purpose (PIPELINE §8)
      yield { type: "loop_continue", reason: step.reason };
    }

    function supersede(entries: readonly AssistantEntry[], why: string): void {
      if (entries.length === 0) return;
      append(
        createSystemEntry(entryContext(), "stream_superseded", why, {
          supersededUuids: entries.map((entry) => entry.uuid),
        }),
      );
    }

    // Local helpers close over this iteration's state.
    async function* collectResults(): AsyncGenerator<EngineEvent> {
      void (async () => {
        for await (const result of executor.results()) channel.push({ type: "_result", ...result });
        channel.close();
      })();
      for await (const item of channel) {
        if (item.type !== "_result") {
          yield item;
          continue;
        }
        const owner = toolOwners.get(item.block.id);
        if (!owner) continue; // its tool_use was never recorded (stream cut before the entry landed)
        const entry = createToolResultEntry(
          entryContext(),
          [toolResultBlock(item.block.id, item.output.content, item.output.isError ?? false)],
          owner.uuid,
          item.output.display,
        );
        append(entry);
        yield { type: "tool_result", block: item.block, entry, isError: item.output.isError ?? false };
      }
    }

    async function* recordInterruption(
      recorded: readonly AssistantEntry[],
      owners: Map<string, AssistantEntry>,
    ): AsyncGenerator<EngineEvent> {
      if (owners.size > 0 && executor.size > 0) yield* collectResults();
      // tool_use entries recorded but never handed to the executor still need an answer
      for (const entry of recorded) {
        const block = entry.message.content[0];
        if (block.type !== "tool_use" || answered(block.id)) continue;
        const result = createToolResultEntry(
          entryContext(),
          [toolResultBlock(block.id, "Interrupted by user before the tool ran.", true)],
          entry.uuid,
        );
        append(result);
      }
      const note = createUserEntry(entryContext(), "[Request interrupted by user]", { isMeta: true });
      append(note);
      yield { type: "user", entry: note };
      await context.transcript.flush();
    }

    function answered(toolUseId: string): boolean {
      for (let index = timeline.entries.length - 1; index >= 0; index--) {
        const entry = timeline.entries[index]!;
        if (entry.type !== "user" || typeof entry.message.content === "string") continue;
        if (entry.message.content.some((block) => block.type === "tool_result" && block.tool_use_id === toolUseId))
          return true;
      }
      return false;
    }
  }
}

export * from "./query-context.js";
export type { MessageEntry, ThinkingConfig };
