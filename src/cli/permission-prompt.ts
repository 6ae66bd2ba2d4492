/**
 * The question asked in `default` mode before a tool that changes things runs:
 * `Allow Bash(npm test)? [y]es / [a]lways (this session) / [n]o`.
 */
import type { PermissionRequest } from "../tools/permissions.js";
import type { LineReader } from "./line-reader.js";
import type { Style } from "./style.js";

export type PermissionAnswer = "yes" | "always" | "no";

/** Reads an answer; anything unrecognised (including an empty line) is "no", the safe side. */
export function parsePermissionAnswer(text: string | null): PermissionAnswer {
  const answer = (text ?? "").trim().toLowerCase();
  if (answer === "y" || answer === "yes") return "yes";
  if (answer === "a" || answer === "always") return "always";
  return "no";
}

export class PermissionPrompter {
  readonly #reader: LineReader;
  readonly #style: Style;
  readonly #writeLine: (text: string) => void;
  /** Tools the person allowed for the rest of the session. */
  readonly #always = new Set<string>();

  constructor(reader: LineReader, style: Style, writeLine: (text: string) => void) {
    this.#reader = reader;
    this.#style = style;
    this.#writeLine = writeLine;
  }

  /** The policy's `ask` callback. */
  async ask(request: PermissionRequest): Promise<boolean> {
    if (this.#always.has(request.tool)) return true;
    this.#writeLine(this.#style.warning(`? Allow ${request.summary}`));
    const answer = parsePermissionAnswer(await this.#reader.next("  [y]es / [a]lways for this tool / [n]o: "));
    if (answer === "always") this.#always.add(request.tool);
    if (answer === "no") this.#writeLine(this.#style.dim("  denied"));
    return answer !== "no";
  }
}
