/**
 * The terminal's answer to ExitPlanMode: the plan shown whole, then Claude Code's choices — yes with edits
 * accepted automatically, yes with each edit asked about, or no with what to change — plus "yes, clear the
 * context and accept edits": the planning conversation is left behind and a fresh session starts from the plan
 * alone, in acceptEdits mode (docs/TOOLS.md "Plan mode"). Claude Code hides that last choice unless
 * `showClearContextOnPlanAccept` is set; threadline offers it, since a plan made over a long exploration is
 * cheaper carried out without it.
 */
import type { PermissionMode, PermissionReply, PermissionRequest } from "../../../tools/index.js";
import type { Style } from "../../terminal/style.js";
import { type PromptReader, REASON_HINT, REASON_PROMPT } from "./permission-prompt.js";

/** What the terminal does with the choice. */
export interface PlanApprovalHost {
  reader: PromptReader;
  style: Style;
  print(text: string): void;
  /** The session's permission mode from now on. */
  setMode(mode: PermissionMode): void;
  /** Ends the turn now; after it, a cleared session starts from `plan`. */
  startAfresh(plan: string): void;
  /** Esc at the question: the turn ends with nothing run. */
  cancel(): void;
}

/** The prompt a cleared session starts from. */
export function planPrompt(plan: string): string {
  return `Implement the following plan:\n\n${plan}`;
}

const CHOICES = [
  "[c] yes, clear context and auto-accept edits",
  "[a] yes, auto-accept edits",
  "[m] yes, manually approve edits",
  "[n] no, keep planning",
];

/** Asks about the plan in `request` (an ExitPlanMode call) and carries the choice out. */
export async function approvePlan(host: PlanApprovalHost, request: PermissionRequest): Promise<PermissionReply> {
  const { reader, style } = host;
  const plan = String((request.input as { plan?: unknown } | undefined)?.plan ?? "").trim();
  host.print(style.bold("Plan:"));
  for (const line of plan.split("\n")) host.print(`  ${line}`);
  const question = `${style.warning("? Proceed with this plan?")} ${style.dim(`${CHOICES.join(" · ")} · esc stops`)}`;
  const key =
    reader.choose !== undefined
      ? await reader.choose(question, ["c", "a", "m", "n"])
      : ((await reader.next(`${question} `))?.trim().toLowerCase().slice(0, 1) ?? null);
  if (key === null) {
    host.cancel();
    return false;
  }
  if (key === "c" || key === "a") {
    host.setMode("acceptEdits");
    if (key === "c") host.startAfresh(plan);
    return true;
  }
  if (key === "m") {
    host.setMode("default");
    return true;
  }
  host.print(style.dim(REASON_HINT.replace("what to do instead", "what to change in the plan")));
  const reason = await reader.next(REASON_PROMPT);
  if (reason === null) {
    host.cancel();
    return false;
  }
  return reason.trim() === "" ? false : { allow: false, reason: reason.trim() };
}
