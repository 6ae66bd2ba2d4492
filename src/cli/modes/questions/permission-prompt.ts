/**
 * The question asked in `default` mode before a tool that changes things runs:
 * `Allow Bash(npm test)? [y]es / [a]lways for Bash(npm test:*) / [n]o`.
 */

import type { PermissionReply, PermissionRequest } from "../../../tools/index.js";
import { allowRuleMatches, alwaysAllowRule, parsePermissionRule } from "../../../tools/index.js";
import type { Style } from "../../terminal/style.js";

/** Where answers come from: a line reader, or the raw-mode terminal (which also answers with one key). */
export interface PromptReader {
  next(prompt: string): Promise<string | null>;
  /** Settles the pending question or prompt with `answer` (null: the person pressed Esc or Ctrl-C). */
  cancel(answer: string | null): void;
  readonly waiting: boolean;
  clearInput(): boolean;
  close(): void;
  /** A question answered by a single key of `keys`; null when Esc or Ctrl-C dismissed it. */
  choose?(text: string, keys: readonly string[]): Promise<string | null>;
}

/** `cancel`: Esc, Ctrl-C or the end of input at the question, which end the turn with nothing run. */
export type PromptAnswer = "yes" | "always" | "no" | "cancel";

/** The line shown after `n` on a terminal, above `REASON_PROMPT`. */
export const REASON_HINT = "  Tell the model what to do instead (Enter to skip, Esc stops the turn):";

/** The prompt for that reason (as wide as the main prompt's marker, so the editor wraps alike). */
export const REASON_PROMPT = "› ";

/**
 * Reads a typed answer; anything unrecognised (including an empty line) is "no", the safe side. After a no
 * (`n, run the tests first`, `no: use pnpm`) the rest of the line is the reason given to the model.
 */
export function parsePermissionAnswer(text: string | null): { answer: PromptAnswer; reason: string } {
  if (text === null) return { answer: "cancel", reason: "" };
  const trimmed = text.trim();
  const answer = trimmed.toLowerCase();
  if (answer === "y" || answer === "yes") return { answer: "yes", reason: "" };
  if (answer === "a" || answer === "always") return { answer: "always", reason: "" };
  const reason = /^(?:no|n)(?:\s*[-—,:;.]\s*|\s+)(.+)$/is.exec(trimmed)?.[1]?.trim() ?? "";
  return { answer: "no", reason };
}

export interface PermissionPrompterOptions {
  /** Lines shown before the question (the diff of an Edit or Write). Default: none. */
  describe?: (request: PermissionRequest) => string[];
  /** Called when the question is dismissed (Esc, Ctrl-C, end of input): stops the turn. Default: nothing. */
  onCancel?: () => void;
  /** Asks about a plan (ExitPlanMode) instead of the yes/no question (plan-approval.ts). Default: the question. */
  plan?: (request: PermissionRequest) => Promise<PermissionReply>;
}

export class PermissionPrompter {
  readonly #reader: PromptReader;
  readonly #style: Style;
  readonly #writeLine: (text: string) => void;
  /**
   * Rules the person allowed for the rest of the session: a tool's name, or for Bash the command's prefix
   * (`Bash(npm test:*)`), so "always" for `npm test` does not allow every command.
   */
  readonly #always: string[] = [];

  readonly #describe: (request: PermissionRequest) => string[];
  readonly #onCancel: () => void;
  readonly #plan: PermissionPrompterOptions["plan"];

  constructor(
    reader: PromptReader,
    style: Style,
    writeLine: (text: string) => void,
    options: PermissionPrompterOptions = {},
  ) {
    this.#describe = options.describe ?? (() => []);
    this.#onCancel = options.onCancel ?? (() => {});
    this.#plan = options.plan;
    this.#reader = reader;
    this.#style = style;
    this.#writeLine = writeLine;
  }

  /** The rules remembered so far, in the order they were given. */
  get alwaysAllowed(): readonly string[] {
    return this.#always;
  }

  /** The policy's `ask` callback. */
  async ask(request: PermissionRequest): Promise<PermissionReply> {
    if (request.tool === "ExitPlanMode" && this.#plan !== undefined) return this.#plan(request);
    if (this.#always.some((text) => matches(text, request))) return true;
    const rule = alwaysAllowRule(request.tool, request.input);
    const details = this.#describe(request);
    if (details.length > 0) this.#writeLine(details.join("\n"));
    const always = rule === undefined ? "" : ` · [a]lways for ${rule}`;
    let reply: { answer: PromptAnswer; reason: string };
    if (this.#reader.choose !== undefined) {
      const question = `${this.#style.warning(`? Allow ${request.summary}?`)} ${this.#style.dim(`[y]es${always} · [n]o · esc stops`)}`;
      const keys = rule === undefined ? ["y", "n"] : ["y", "a", "n"];
      const key = await this.#reader.choose(question, keys);
      reply = parsePermissionAnswer(key);
      if (reply.answer === "no") {
        // One line for the model, as a person would say it; Esc here stops the turn like Esc at the question.
        this.#writeLine(this.#style.dim(REASON_HINT));
        const reason = await this.#reader.next(REASON_PROMPT);
        reply = reason === null ? { answer: "cancel", reason: "" } : { answer: "no", reason: reason.trim() };
      }
    } else {
      this.#writeLine(this.#style.warning(`? Allow ${request.summary}`));
      reply = parsePermissionAnswer(
        await this.#reader.next(`  [y]es${always.replace(" · ", " / ")} / [n]o (n, <what to do instead>): `),
      );
    }
    const { answer, reason } = reply;
    if (answer === "cancel") {
      // The interrupt comes before the denial reaches the tool, so the call is recorded as interrupted.
      this.#onCancel();
      return false;
    }
    if (answer === "always" && rule !== undefined) this.#always.push(rule);
    if (answer === "always" && rule === undefined) {
      this.#writeLine(this.#style.dim("  allowed once (no command prefix to remember for this one)"));
    }
    if (answer !== "no") return true;
    return reason === "" ? false : { allow: false, reason };
  }
}
function matches(text: string, request: PermissionRequest): boolean {
  const rule = parsePermissionRule(text);
  return rule !== undefined && allowRuleMatches(rule, request.tool, request.input);
}
