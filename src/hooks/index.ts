export { hookConditionMatches } from "./hook-condition.js";
export { HOOK_CONTEXT_ATTACHMENT, hookContextEntries, hookContextText } from "./hook-context.js";
export { type HookJsonOutput, parseHookJson } from "./hook-output.js";
export {
  type AsyncHookResult,
  DEFAULT_HOOK_OUTPUT_CHARS,
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_STOP_HOOK_BLOCK_CAP,
  emptyOutcome,
  type HookFields,
  type HookOutcome,
  HookRunner,
  type HookRunnerOptions,
  isHookNotice,
  matcherAccepts,
} from "./hook-runner.js";
export { type HookCommandOptions, type HookCommandResult, runHookCommand } from "./run-hook-command.js";
export { toolResponse } from "./tool-response.js";
