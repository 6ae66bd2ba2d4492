/**
 * Why a turn of the query loop ended. The loop ends turns with it, and a subagent's run reports it to the
 * Agent tool (tools/ sits below loop/, so the one definition lives here, in the shared vocabulary).
 */
export type TerminalReason =
  | "completed"
  | "aborted"
  | "max_turns"
  | "max_tokens"
  | "prompt_too_long"
  | "blocking_limit"
  /** The model refused (stop_reason `refusal`). */
  | "refused"
  /** A UserPromptSubmit hook blocked the prompt (it was not sent). */
  | "hook_blocked"
  | "error";
