/**
 * YAML front matter of a Markdown file (SKILL.md, a custom command, an agent): a first line `---`, YAML, a line
 * `---`, then the body. Parsed with the `yaml` package; front matter that is not valid YAML is read again line
 * by line as `key: value` (Claude Code is that lenient: `argument-hint: [a] [b]` is not an error there), and
 * only front matter that neither reading understands is one problem line with the file read as body only, so
 * nothing of it is lost (docs/MEMORY.md "Front matter").
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
    const lenient = lineWiseFields(yaml);
    if (lenient !== undefined) return { data: lenient, body };
    const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
    return { data: {}, body: text, problem: `front matter is not valid YAML (${reason})` };
  }
  if (data === null || data === undefined) return { data: {}, body };
  if (typeof data !== "object" || Array.isArray(data))
    return { data: {}, body: text, problem: "front matter is not a mapping of keys to values" };
  return { data: data as Record<string, unknown>, body };
}

/**
 * Front matter that is not YAML, read as lines `key: value` (the value is the rest of the line, as text); a
 * line `- item` or an indented line after `key:` adds to that key's list or text. Undefined when a line is
 * neither, so real garbage is still a problem.
 */
export function lineWiseFields(text: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  let last: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const field = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(line);
    if (field !== null) {
      last = field[1]!;
      data[last] = (field[2] ?? "").trim();
      continue;
    }
    if (last === undefined || !/^\s/.test(line)) return undefined;
    const item = /^\s+-\s+(.*)$/.exec(line);
    const previous = data[last];
    if (item !== null)
      data[last] = [...(Array.isArray(previous) ? previous : previous === "" ? [] : [previous]), item[1]!.trim()];
    else if (typeof previous === "string") data[last] = `${previous} ${line.trim()}`.trim();
    else return undefined;
  }
  return Object.keys(data).length > 0 ? data : undefined;
}

/** Whether a field is `true` (YAML true, or the text "true" from the line-wise reading). */
export function booleanField(data: Record<string, unknown>, key: string): boolean {
  const value = data[key];
  return value === true || (typeof value === "string" && value.trim().toLowerCase() === "true");
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
