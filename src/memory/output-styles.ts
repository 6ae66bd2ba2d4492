/**
 * Output styles as Claude Code has them (https://code.claude.com/docs/en/output-styles): the built-in Default,
 * Explanatory and Learning, and custom ones in Markdown files under `~/.claude/output-styles/`, threadline's home
 * `output-styles/` and the project's `.claude/output-styles/` (a project's style overrides a user's of its name).
 * Front matter `name` (default: the file's name), `description`, `keep-coding-instructions` (default false); the
 * body is added to the end of the system prompt. The built-ins keep the coding instructions. The texts of the
 * built-ins are threadline's own words for what Claude Code's docs say each does. docs/SETTINGS.md.
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { confinedPath } from "../trust/index.js";
import { booleanField, parseFrontMatter, stringField } from "./front-matter.js";
import { configFolders, configRoots, type UserPlaces } from "./user-folders.js";

export interface OutputStyle {
  name: string;
  description: string;
  /** Added to the end of the system prompt; "" for the default style. */
  prompt: string;
  /** Whether the system prompt keeps its coding instructions. */
  keepCodingInstructions: boolean;
  /** Where it came from: a built-in, or the file. */
  source: "built-in" | string;
}

/** The style used when none is set (Claude Code's `default`): the system prompt as it is. */
export const DEFAULT_OUTPUT_STYLE = "default";

const EXPLANATORY_PROMPT = [
  "Help with the software engineering task as usual, and teach while doing it: before and after writing code,",
  'give a short "★ Insight" block (two or three points) on why this implementation was chosen and what it shows',
  "about this codebase's patterns. Keep insights specific to the code at hand, not general programming advice.",
].join("\n");

const LEARNING_PROMPT = [
  'Work with the person so they learn by doing. Share short "★ Insight" blocks on implementation choices as in',
  "the Explanatory style, and for small pieces of code that shape the solution (a key condition, a design",
  "choice of five to ten lines) do not write them yourself: leave a TODO(human) marker in the code where they",
  "belong, explain what is needed and why it matters, and ask the person to write it. Write the routine parts",
  "yourself.",
].join("\n");

export const BUILT_IN_OUTPUT_STYLES: readonly OutputStyle[] = [
  {
    name: DEFAULT_OUTPUT_STYLE,
    description: "Completes software engineering tasks efficiently",
    prompt: "",
    keepCodingInstructions: true,
    source: "built-in",
  },
  {
    name: "Explanatory",
    description: "Explains its implementation choices and the codebase's patterns",
    prompt: EXPLANATORY_PROMPT,
    keepCodingInstructions: true,
    source: "built-in",
  },
  {
    name: "Learning",
    description: "Learn by doing: leaves small pieces of code for you to write (TODO(human))",
    prompt: LEARNING_PROMPT,
    keepCodingInstructions: true,
    source: "built-in",
  },
];

export interface OutputStylesFound {
  styles: OutputStyle[];
  notices: string[];
}

async function markdownFiles(directory: string): Promise<string[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
      .map((entry) => join(directory, entry.name))
      .sort();
  } catch {
    return [];
  }
}

/** The built-in styles and every custom one; a later folder (the project) overrides an earlier style by name. */
export async function loadOutputStyles(places: UserPlaces): Promise<OutputStylesFound> {
  const byName = new Map(BUILT_IN_OUTPUT_STYLES.map((style) => [style.name.toLowerCase(), style]));
  const notices: string[] = [];
  for (const folder of configFolders(places, "output-styles")) {
    for (const path of await markdownFiles(folder.path)) {
      // A style file symlinked out of the workspace and config folders is refused, as agents are (docs/TRUST.md).
      const confined = confinedPath(path, configRoots(places));
      if ("refused" in confined) {
        notices.push(`output styles: ${confined.refused}; style not loaded`);
        continue;
      }
      const parsed = await parseFrontMatter(await readFile(path, "utf8"));
      if (parsed.problem !== undefined) notices.push(`output styles: ${path}: ${parsed.problem}`);
      const name = stringField(parsed.data, "name") ?? basename(path, ".md");
      byName.set(name.toLowerCase(), {
        name,
        description: (stringField(parsed.data, "description") ?? "").replace(/\s+/g, " "),
        prompt: parsed.body.trim(),
        keepCodingInstructions: booleanField(parsed.data, "keep-coding-instructions"),
        source: path,
      });
    }
  }
  return { styles: [...byName.values()], notices };
}

/** The style of that name, letter case aside (`/output-style explanatory` finds Explanatory). */
export function findOutputStyle(styles: readonly OutputStyle[], name: string): OutputStyle | undefined {
  const wanted = name.trim().toLowerCase();
  return styles.find((style) => style.name.toLowerCase() === wanted);
}
