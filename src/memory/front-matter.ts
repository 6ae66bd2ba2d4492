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
    const prose = proseFields(yaml, parse);
    if (prose !== undefined) return { data: prose, body };
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
 * The keys Claude Code's agents, commands and skills use. In the prose reading below only these start a field at
 * the left margin, so `user: "Review PR 78"` inside an agent's examples is text, not a key.
 */
export const FRONT_MATTER_KEYS: ReadonlySet<string> = new Set([
  "name",
  "description",
  "when_to_use",
  "when-to-use",
  "tools",
  "disallowedTools",
  "allowed-tools",
  "argument-hint",
  "model",
  "effort",
  "color",
  "permissionMode",
  "skills",
  "hooks",
  "mcpServers",
  "memory",
  "maxTurns",
  "isolation",
  "background",
  "initialPrompt",
  "disable-model-invocation",
  "user-invocable",
  "context",
  "agent",
  "license",
  "metadata",
  "version",
]);

/** Keys whose value is prose: lines after them that start no known key continue them, indented or not. */
const PROSE_KEYS: ReadonlySet<string> = new Set(["description", "when_to_use", "when-to-use"]);

/**
 * Front matter whose prose runs over several lines without YAML's indentation, as published plugins' agents
 * write it (`description: Use this agent when … Examples:` then unindented `<example>`, `Context: …`,
 * `user: "…"` lines): each known key at the left margin starts a field; a field followed only by indented
 * lines is YAML on its own (a `hooks:` block, a `tools:` list) and is parsed so; a single line YAML refuses is
 * kept as its text; unindented lines that start no known key continue a prose key's text (newlines kept) and
 * make anything else unreadable (undefined, so the next reading or a problem line follows).
 */
export function proseFields(text: string, parse: (yaml: string) => unknown): Record<string, unknown> | undefined {
  const fields: { key: string; first: string; rest: string[] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(line);
    if (field !== null && FRONT_MATTER_KEYS.has(field[1]!)) {
      fields.push({ key: field[1]!, first: (field[2] ?? "").trim(), rest: [] });
      continue;
    }
    const current = fields.at(-1);
    if (current === undefined) {
      if (line.trim() === "" || line.trim().startsWith("#")) continue;
      return undefined;
    }
    current.rest.push(line);
  }
  if (fields.length === 0) return undefined;
  const data: Record<string, unknown> = {};
  for (const { key, first, rest } of fields) {
    const yamlShaped = rest.every((line) => line.trim() === "" || /^\s/.test(line));
    if (yamlShaped) {
      try {
        const parsed = parse([`${key}:${first === "" ? "" : ` ${first}`}`, ...rest].join("\n"));
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
          Object.assign(data, parsed);
          continue;
        }
      } catch {
        // Not YAML on its own: kept as text below when it is one line or prose.
      }
      if (rest.every((line) => line.trim() === "")) {
        data[key] = first;
        continue;
      }
    }
    if (!PROSE_KEYS.has(key)) return undefined;
    data[key] = [first, ...rest].join("\n").trim();
  }
  return data;
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
