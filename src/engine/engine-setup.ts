/**
 * QueryEngine's setup steps that are plain functions of the options: how the model is reached, the tools'
 * runtime, the loop's configuration (model, system prompt, compaction settings, limits) and the loop state a
 * session starts from (header latches, announced and refused server features recorded by an earlier run, so a
 * resumed session's requests match its last ones).
 */
import { autoCompactOverridesFromEnv, type CompactionSettings, ContextBudget } from "../compaction/index.js";
import type { LoopConfig, LoopState } from "../loop/query.js";
import { DEFAULT_MODEL, type ModelLimits, type TimelineEntry } from "../messages/index.js";
import type { CreateProviderOptions, Provider } from "../provider/index.js";
import {
  announcedFeaturesFromEntries,
  emptyLatches,
  latchesFromEntries,
  NormalizeMemo,
  serverFeaturesFromEntries,
} from "../request/index.js";
import type { ToolRuntimeOptions } from "../tools/index.js";
import type { PauseOptions, QueryEngineOptions } from "./engine-options.js";
import { REAL_CLOCK } from "./pause-keeper.js";
import { buildSystemPrompt } from "./system-prompt.js";

/** The loop's configuration from the options (`ANTHROPIC_MODEL` in `env` when no model is given). */
export function loopConfigFor(
  options: QueryEngineOptions,
  env: NodeJS.ProcessEnv,
  cwd: string,
  compaction: CompactionSettings,
): LoopConfig {
  // --context-window, and Claude Code's autocompact window and percent (docs/CONTEXT-BUDGET.md): all read by the
  // one budget (compaction/budget/context-budget.ts `budgetLimits`) through the overrides.
  const overrides: Partial<ModelLimits> = {
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    ...autoCompactOverridesFromEnv(env),
  };
  const modelOverrides = Object.keys(overrides).length > 0 ? overrides : undefined;
  return {
    model: options.model ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL,
    systemPrompt: buildSystemPrompt({
      cwd,
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.appendSystemPrompt !== undefined ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
      ...(options.outputStyle !== undefined ? { outputStyle: options.outputStyle } : {}),
      ...(options.now ? { date: options.now() } : {}),
    }),
    compaction,
    ...(options.fallbackModel !== undefined ? { fallbackModel: options.fallbackModel } : {}),
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(options.thinking !== undefined ? { thinking: options.thinking } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.cacheTtl !== undefined ? { cacheTtl: options.cacheTtl } : {}),
    ...(options.serverCompaction !== undefined ? { serverCompaction: options.serverCompaction } : {}),
    ...(modelOverrides ? { modelOverrides } : {}),
  };
}

/**
 * The loop state a session starts from. Announcements recorded by an earlier run of this session hold again
 * (the provider adopts them), so the resumed requests match.
 */
export function startingLoopState(entries: readonly TimelineEntry[], provider: Provider, model: string): LoopState {
  const features = announcedFeaturesFromEntries(entries);
  if (features.length > 0) provider.adoptFeatures?.(features);
  return {
    latches: latchesFromEntries(entries) ?? emptyLatches(),
    features,
    featuresOff: serverFeaturesFromEntries(entries),
    model,
    normalizeMemo: new NormalizeMemo(),
    budget: ContextBudget.fromEntries(entries),
  };
}

/** The provider the options ask for, when none is given: platform and fallback model from the options. */
export function providerOptions(options: QueryEngineOptions, env: NodeJS.ProcessEnv): CreateProviderOptions {
  return {
    env,
    ...(options.platform !== undefined ? { platform: options.platform } : {}),
    ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    ...(options.fallbackModel !== undefined ? { fallbackModel: options.fallbackModel } : {}),
  };
}

/** The tools' environment, secrets and sandbox from the options. */
export function toolRuntimeOptions(options: QueryEngineOptions, env: NodeJS.ProcessEnv): ToolRuntimeOptions {
  return {
    env,
    ...(options.secretEnv !== undefined ? { secretEnv: options.secretEnv } : {}),
    ...(options.toolEnv !== undefined ? { extraEnv: options.toolEnv } : {}),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
    ...(options.sandboxNetwork !== undefined ? { sandboxNetwork: options.sandboxNetwork } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  };
}

/** The pause options with the engine-wide ones folded in: a forced `cacheTtl`, the engine's clock. */
export function pauseOptions(options: QueryEngineOptions): PauseOptions {
  const now = options.now;
  return {
    ...options.pause,
    ...(options.cacheTtl !== undefined ? { cacheTtl: options.cacheTtl } : {}),
    ...(options.pause?.clock === undefined && now !== undefined
      ? { clock: { ...REAL_CLOCK, now: () => now().getTime() } }
      : {}),
  };
}
