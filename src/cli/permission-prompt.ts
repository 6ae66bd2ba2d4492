/**
 * The question asked in `default` mode before a tool that changes things runs:
 * `Allow Bash(npm test)? [y]es / [a]lways for Bash(npm test:*) / [n]o`.
 */

import type { PermissionRequest } from "../tools/index.js";
import { allowRuleMatches, alwaysAllowRule, parsePermissionRule } from "../tools/index.js";
import type { Style } from "./terminal/style.js";

/** Where answers come from: a line reader, or the raw-mode terminal (which also answers with one key). */
export interface PromptReader {
  next(prompt: string): Promise<string | null>;
  /** Answers the pending question or prompt (Ctrl-C at a question answers "no"). */
  cancel(answer: string | null): void;
  readonly waiting: boolean;
  clearInput(): boolean;
  close(): void;
  /** A question answered by a single key of `keys`. */
  choose?(text: string, keys: readonly string[]): Promise<string>;
}

export type PermissionAnswer = "yes" | "always" | "no";

/** Reads an answer; anything unrecognised (including an empty line) is "no", the safe side. */
export function parsePermissionAnswer(text: string | null): PermissionAnswer {
  const answer = (text ?? "").trim().toLowerCase();
  if (answer === "y" || answer === "yes") return "yes";
  if (answer === "a" || answer === "always") return "always";
  return "no";
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

  /** `describe` gives lines shown before the question (the diff of an Edit or Write). Default: none. */
  constructor(
    reader: PromptReader,
    style: Style,
    writeLine: (text: string) => void,
    describe: (request: PermissionRequest) => string[] = () => [],
  ) {
    this.#describe = describe;
    this.#reader = reader;
    this.#style = style;
    this.#writeLine = writeLine;
  }

  /** The rules remembered so far, in the order they were given. */
  get alwaysAllowed(): readonly string[] {
    return this.#always;
  }

  /** The policy's `ask` callback. */
  async ask(request: PermissionRequest): Promise<boolean> {
    if (this.#always.some((text) => matches(text, request))) return true;
    const rule = alwaysAllowRule(request.tool, request.input);
    const details = this.#describe(request);
    if (details.length > 0) this.#writeLine(details.join("\n"));
    const always = rule === undefined ? "" : ` · [a]lways for ${rule}`;
    let answer: PermissionAnswer;
    if (this.#reader.choose !== undefined) {
      const question = `${this.#style.warning(`? Allow ${request.summary}?`)} ${this.#style.dim(`[y]es${always} · [n]o`)}`;
      const keys = rule === undefined ? ["y", "n"] : ["y", "a", "n"];
      answer = parsePermissionAnswer(await this.#reader.choose(question, keys));
    } else {
      this.#writeLine(this.#style.warning(`? Allow ${request.summary}`));
      answer = parsePermissionAnswer(await this.#reader.next(`  [y]es${always.replace(" · ", " / ")} / [n]o: `));
    }
    if (answer === "always" && rule !== undefined) this.#always.push(rule);
    if (answer === "always" && rule === undefined) {
      this.#writeLine(this.#style.dim("  allowed once (no command prefix to remember for this one)"));
    }
    if (answer === "no") this.#writeLine(this.#style.dim("  denied"));
    return answer !== "no";
  }
}

function matches(text: string, request: PermissionRequest): boolean {
  const rule = parsePermissionRule(text);
  return rule !== undefined && allowRuleMatches(rule, request.tool, request.input);
}
