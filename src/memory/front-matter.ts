/**
 * YAML front matter of a Markdown file (SKILL.md, a custom command): a first line `---`, YAML, a line `---`,
 * then the body. Parsed with the `yaml` package; front matter that does not parse (or is not a mapping) is
 * one problem line and the file is read as body only, so nothing of it is lost.
 * The `yaml` package is imported only when a file has front matter: a session without skills or commands
 * never loads it (docs/PERFORMANCE.md, start-up memory).
 */

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** Why the front matter was not used, when it was not. */
  problem?: string;
}

const OPEN = /^---\r?\n/;
const CLOSE = /\r?\n---[ \t]*(?:\r?\n|$)/;

export async function parseFrontMatter(text: string): Promise<FrontMatter> {
  if (!OPEN.test(text)) return { data: {}, body: text };
  const rest = text.replace(OPEN, "");
  const close = CLOSE.exec(rest);
  if (close === null) return { data: {}, body: text, problem: "front matter opened with --- is never closed" };
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length);
  const { parse } = await import("./yaml-parse.js");
  let data: unknown;
  try {
    data = parse(yaml);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return { data: {}, body: text, problem: `front matter is not valid YAML (${reason})` };
  }
  if (data === null || data === undefined) return { data: {}, body };
  if (typeof data !== "object" || Array.isArray(data))
    return { data: {}, body: text, problem: "front matter is not a mapping of keys to values" };
  return { data: data as Record<string, unknown>, body };
}

/** A string field, trimmed; undefined when absent or not a string. */
export function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** A list field written as a YAML list or a comma-separated string (`allowed-tools: Bash(git:*), Read`). */
export function listField(data: Record<string, unknown>, key: string): string[] {
  const value = data[key];
  if (Array.isArray(value))
    return value.filter((item): item is string => typeof item === "string").map((s) => s.trim());
  if (typeof value === "string") return splitList(value);
  return [];
}

/** Splits on commas outside parentheses, so `Bash(git add:*, git commit:*)` stays one rule. */
function splitList(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      if (current.trim() !== "") items.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim() !== "") items.push(current.trim());
  return items;
}
