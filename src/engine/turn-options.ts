/**
 * What one submitted message may change for its own turn only (SubmitOptions): extra allow rules and the model,
 * as a custom command's `allowed-tools` and `model:` ask (docs/MEMORY.md "Custom commands").
 */
import type { LoopState } from "../loop/query.js";
import type { PermissionPolicy } from "../tools/index.js";

/** The session's policy with a turn's extra allow rules (a custom command's `allowed-tools`); deny still wins. */
export function turnPolicy(policy: PermissionPolicy, allowedTools: readonly string[] | undefined): PermissionPolicy {
  return allowedTools?.length ? { ...policy, allow: [...policy.allow, ...allowedTools] } : policy;
}

/**
 * Sets a turn's own model (a custom command's `model:`) and returns what puts the session's back after the
 * turn; a fallback the turn switched to is kept (the state no longer holds the turn's model then).
 */
export function turnModel(state: LoopState, model: string | undefined): () => void {
  if (model === undefined) return () => {};
  const sessionModel = state.model;
  state.model = model;
  return () => {
    if (state.model === model) state.model = sessionModel;
  };
}
