/** What the hooks of one event said, folded into one outcome, and the small helpers the runner folds with. */

/** What the hooks of one event said, together. */
export interface HookOutcome {
  /** Hooks that ran. */
  ran: number;
  /** Why the action is blocked (exit 2 stderr, `decision: "block"`, a deny decision), when it is. */
  block?: string;
  /** PreToolUse's decision: deny beats ask beats allow across hooks. */
  permissionDecision?: "allow" | "deny" | "ask";
  permissionReason?: string;
  /** PreToolUse: the input to run the tool with instead (the last hook's). */
  updatedInput?: Record<string, unknown>;
  /** Text for the model (stdout context, `additionalContext`), in hook order. */
  context: string[];
  /** Lines for the person: failures, timeouts, cut output, `systemMessage`. */
  notices: string[];
  /** `continue: false`: the session should stop here, with this reason. */
  stop?: string;
  /** PermissionRequest's `decision`: answer the question for the person. */
  permissionRequest?: { behavior: "allow" | "deny"; message?: string };
}

/** Whether a notice line came from a hook (they start with the event's name): print mode always shows them. */
export function isHookNotice(message: string): boolean {
  return /^(?:PreToolUse|PostToolUse|PostToolUseFailure|PermissionRequest|UserPromptSubmit|SessionStart|SessionEnd|Stop|SubagentStart|SubagentStop|PreCompact|Notification) hook /.test(
    message,
  );
}

export function emptyOutcome(): HookOutcome {
  return { ran: 0, context: [], notices: [] };
}

/** Whether `matcher` (regex over the whole value, `|` lists, `*` or "" for all) accepts `value`. */
export function matcherAccepts(matcher: string, value: string | undefined): boolean {
  if (matcher === "" || matcher === "*") return true;
  if (value === undefined) return false;
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch {
    return matcher === value;
  }
}

export function appendBlock(outcome: HookOutcome, reason: string): void {
  outcome.block = outcome.block === undefined ? reason : `${outcome.block}\n${reason}`;
}

/** A command as a notice names it: one line, at most 60 characters. */
export function shorten(command: string): string {
  const line = command.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** Text as a notice quotes it: one line, at most 300 characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
