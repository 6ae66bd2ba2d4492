/**
 * `/output-style`: lists the output styles (built-in and custom) with the session's own marked;
 * `/output-style <name>` saves `outputStyle` in `.claude/settings.local.json`, as Claude Code does. The system
 * prompt is fixed at session start (a byte-stable prefix for the prompt cache, docs/PROMPT-CACHE.md), so the new
 * style applies from /clear or the next session, and the line says so (docs/SETTINGS.md "Output styles").
 */

import type { OutputStyleInstructions } from "../../../engine/system-prompt.js";
import { DEFAULT_OUTPUT_STYLE, findOutputStyle, type OutputStyle } from "../../../memory/index.js";
import { updateLocalSettings } from "./local-settings.js";

/** What /output-style needs from the REPL. */
export interface OutputStyleHost {
  readonly outputStyles?: readonly OutputStyle[] | undefined;
  /** The style the open session's system prompt was built with. */
  readonly sessionOutputStyle: string;
  /** The style the next session (/clear) starts with. */
  chooseOutputStyle(style: OutputStyle): void;
}

/** Runs `/output-style [name]`; the text to print. */
export async function outputStyleCommand(host: OutputStyleHost, cwd: string, argument: string): Promise<string> {
  const styles = host.outputStyles ?? [];
  if (argument === "") {
    const lines = styles.map((style) => {
      const mark = style.name.toLowerCase() === host.sessionOutputStyle.toLowerCase() ? "●" : "○";
      const where = style.source === "built-in" ? "built-in" : style.source;
      return `  ${mark} ${style.name}${style.description !== "" ? ` — ${style.description}` : ""}  (${where})`;
    });
    return ["Output styles (● this session's):", ...lines, "/output-style <name> to choose one"].join("\n");
  }
  const style = findOutputStyle(styles, argument);
  if (style === undefined) return `No output style "${argument}" (${styles.map((known) => known.name).join(", ")}).`;
  const written = await updateLocalSettings(cwd, (data) => {
    data.outputStyle = style.name;
  });
  if ("problem" in written) return written.problem;
  host.chooseOutputStyle(style);
  const name = style.name === DEFAULT_OUTPUT_STYLE ? "the default style" : `"${style.name}"`;
  return `Output style set to ${name} in ${written.path}. It applies from /clear or the next session: this session's system prompt stays as it started, so its prompt cache still holds.`;
}

/**
 * The REPL's output style: the one its open session started with, and the one /output-style chose for the next
 * session. `apply` is called with the engine options of every session the REPL opens (start, /clear, /resume).
 */
export class OutputStyleChoice implements OutputStyleHost {
  readonly #styles: () => readonly OutputStyle[] | undefined;
  #chosen: OutputStyle | undefined;
  #session = DEFAULT_OUTPUT_STYLE;

  constructor(styles: () => readonly OutputStyle[] | undefined) {
    this.#styles = styles;
  }

  get outputStyles(): readonly OutputStyle[] | undefined {
    return this.#styles();
  }

  get sessionOutputStyle(): string {
    return this.#session;
  }

  chooseOutputStyle(style: OutputStyle): void {
    this.#chosen = style;
  }

  /** `options` with the chosen style in place of the setting's; remembers the style the session opens with. */
  apply<T extends { outputStyle?: OutputStyleInstructions }>(options: T): T {
    let result = options;
    if (this.#chosen !== undefined) {
      const { outputStyle: _setting, ...rest } = options;
      result = (this.#chosen.name === DEFAULT_OUTPUT_STYLE ? rest : { ...rest, outputStyle: this.#chosen }) as T;
    }
    this.#session = result.outputStyle?.name ?? DEFAULT_OUTPUT_STYLE;
    return result;
  }
}
