/**
 * Shift+Tab in the terminal: cycles the session's permission mode as Claude Code does — default → acceptEdits →
 * plan → default, with bypassPermissions after plan only when the session was started with it allowed
 * (`--dangerously-skip-permissions`, `--permission-mode bypassPermissions` or settings `defaultMode`; Claude Code's
 * issues #6265, #21062). Nothing else switches a session into bypassPermissions, so the cycle offers it once it has
 * seen the session in it.
 * The mode is the session's policy (`QueryEngine.permissions.mode`), so the next tool call is checked by it, and the
 * status line names it the way Claude Code's footer does (docs/TOOLS.md "Plan mode").
 */
import type { PermissionMode, PermissionPolicy } from "../../../tools/index.js";

/** The mode after `mode` in Claude Code's cycle. */
export function nextPermissionMode(mode: PermissionMode, bypassAllowed: boolean): PermissionMode {
  const cycle: PermissionMode[] = [
    "default",
    "acceptEdits",
    "plan",
    ...(bypassAllowed ? ["bypassPermissions" as const] : []),
  ];
  const index = cycle.indexOf(mode);
  return cycle[(index + 1) % cycle.length] ?? "default";
}

/** Claude Code's footer words for a mode; nothing for default. */
export function modeIndicator(mode: PermissionMode | undefined): string | undefined {
  const words: Partial<Record<PermissionMode, string>> = {
    acceptEdits: "⏵⏵ accept edits on",
    plan: "⏸ plan mode on",
    bypassPermissions: "⏵⏵ bypass permissions on",
  };
  const said = mode === undefined ? undefined : words[mode];
  return said === undefined ? undefined : `${said} (shift+tab to cycle)`;
}

/** The session's mode cycle: Shift+Tab moves the policy on; the status line shows where it is. */
export class ModeCycle {
  #bypassAllowed = false;
  readonly #policy: () => PermissionPolicy | undefined;
  readonly #changed: () => void;

  /** `policy` is the open session's (it changes at /clear); `changed` redraws the status line. */
  constructor(host: { policy: () => PermissionPolicy | undefined; changed: () => void }) {
    this.#policy = host.policy;
    this.#changed = host.changed;
  }

  /** Shift+Tab: the next mode, for the session's next call. */
  next(): void {
    const policy = this.#policy();
    if (policy === undefined) return;
    if (policy.mode === "bypassPermissions") this.#bypassAllowed = true;
    policy.mode = nextPermissionMode(policy.mode, this.#bypassAllowed);
    this.#changed();
  }

  /** The status line with the mode's words first (when it is not default). */
  footer(status: string): string {
    const current = this.#policy()?.mode;
    if (current === "bypassPermissions") this.#bypassAllowed = true;
    const mode = modeIndicator(current);
    return mode === undefined ? status : `${mode} · ${status}`;
  }
}
