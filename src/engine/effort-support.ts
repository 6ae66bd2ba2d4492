/**
 * Effort (`output_config.effort`) only where the server declares it for the model (docs/TOOLS.md, "Agent
 * effort"): the provider asks the Models API once per model (`Provider.effortLevels`), and a level it does not
 * declare is dropped with one line saying so, never sent for the server to reject.
 */
import type { EffortLevel } from "../messages/index.js";
import type { Provider } from "../provider/index.js";

/** What a run sends (`effort`, for `model` only) and, when the wanted level was dropped, the line saying why. */
export interface EffortDecision {
  effort?: { level: EffortLevel; model: string };
  notice?: string;
}

/** Whether `level` may be sent to `model`; undefined `level` asks nothing of the server. */
export async function decideEffort(
  provider: Provider,
  model: string,
  level: EffortLevel | undefined,
  signal?: AbortSignal,
): Promise<EffortDecision> {
  if (level === undefined) return {};
  const declared =
    provider.effortLevels === undefined
      ? []
      : await provider.effortLevels(model, signal !== undefined ? { signal } : {});
  if (declared.includes(level)) return { effort: { level, model } };
  const offered =
    declared.length === 0
      ? "the server declares no effort levels for it"
      : `the server declares only ${declared.join(", ")} for it`;
  return { notice: `effort "${level}" was not sent: ${model} runs at its usual effort (${offered}).` };
}
