/**
 * Effort (`output_config.effort`) only where the server declares it for the model (docs/TOOLS.md, "Agent
 * effort"): the provider asks the Models API once per model (`Provider.effortLevels`), and a level it does not
 * declare is dropped with one line saying so, never sent for the server to reject.
 */
import type { EngineEvent } from "../loop/events.js";
import type { LoopConfig } from "../loop/query.js";
import type { EffortLevel } from "../messages/index.js";
import type { Provider } from "../provider/index.js";

/** What a run sends (`effort`, for `model` only) and, when the wanted level was dropped, the line saying why. */
export interface EffortDecision {
  effort?: { level: EffortLevel; model: string };
  notice?: string;
}

/** Whether a notice is a dropped effort's line (print mode shows it even without a renderer: it is said once). */
export function isEffortNotice(message: string): boolean {
  return /^effort "[a-z]+" was not sent: /.test(message);
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

/**
 * The session-wide effort (`--effort`, settings `effortLevel`): decided once per model the session's turns run on
 * (a `/model` switch or a turn's own model gets its own check), set on the session's loop config before each turn.
 * Subagents inherit it only when they run on the model it was checked for (`LoopConfig.effort.model`).
 */
export class SessionEffort {
  readonly #level: EffortLevel | undefined;
  readonly #provider: Provider;
  readonly #decided = new Map<string, EffortDecision>();

  constructor(level: EffortLevel | undefined, provider: Provider) {
    this.#level = level;
    this.#provider = provider;
  }

  /** Sets `config.effort` for a turn on `model`; the first time a level is dropped for it, yields the line why. */
  async *beforeTurn(config: LoopConfig, model: string, signal: AbortSignal): AsyncGenerator<EngineEvent> {
    if (this.#level === undefined) return;
    let decision = this.#decided.get(model);
    if (decision === undefined) {
      decision = await decideEffort(this.#provider, model, this.#level, signal);
      this.#decided.set(model, decision);
      if (decision.notice !== undefined) yield { type: "notice", level: "warning", message: decision.notice };
    }
    if (decision.effort !== undefined) config.effort = decision.effort;
    else delete config.effort;
  }
}
