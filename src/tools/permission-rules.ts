/**
 * Allow/deny rules: `Tool` (every call of a tool), `Bash(npm test)` (that exact command) and
 * `Bash(npm test:*)` (commands starting with `npm test`).
 */

export interface PermissionRule {
  toolName: string;
  /** The text inside the parentheses, when present. */
  specifier?: string;
}

/** Parses `Name` or `Name(specifier)`; returns undefined for text that is neither. */
export function parsePermissionRule(rule: string): PermissionRule | undefined {
  const match = /^([A-Za-z0-9_-]+(?:__\*)?)(?:\((.*)\))?$/s.exec(rule.trim());
  if (match === null) return undefined;
  const toolName = match[1] ?? "";
  const specifier = match[2];
  return specifier === undefined || specifier === "" ? { toolName } : { toolName, specifier };
}

/**
 * Whether a rule's tool name covers `toolName`: the same name, or an MCP server's prefix — `mcp__server` or
 * `mcp__server__*` covers every `mcp__server__<tool>` (Claude Code's rule forms for MCP; docs/MCP.md).
 */
export function ruleNamesTool(ruleName: string, toolName: string): boolean {
  if (ruleName === toolName) return true;
  if (!ruleName.startsWith("mcp__")) return false;
  const server = ruleName.endsWith("__*") ? ruleName.slice(0, -3) : ruleName;
  return !server.slice(5).includes("__") && toolName.startsWith(`${server}__`);
}

/** Shell syntax after which a prefix no longer says what runs (chains, substitutions, redirections). */
const SHELL_COMPOSITION = /[;&|`$<>(){}\n\\]/;

/** Leading `VAR=value` assignments, which do not change which program runs. */
function stripAssignments(segment: string): string {
  return segment.replace(/^(?:\s*[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, "").trim();
}

function prefixMatches(command: string, prefix: string): boolean {
  return command === prefix || command.startsWith(`${prefix} `);
}

function bashCommandOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const command = (input as { command?: unknown }).command;
  return typeof command === "string" ? command : undefined;
}

/**
 * Whether an allow rule covers this call. A Bash rule with a specifier never allows a composed command
 * (`npm test && rm -rf x`), since the prefix would only vouch for its first part. Specifiers on other tools are
 * not understood and allow nothing.
 */
export function allowRuleMatches(rule: PermissionRule, toolName: string, input: unknown): boolean {
  if (!ruleNamesTool(rule.toolName, toolName)) return false;
  if (rule.specifier === undefined) return true;
  if (toolName !== "Bash") return false;
  const command = bashCommandOf(input)?.trim();
  if (command === undefined || SHELL_COMPOSITION.test(command)) return false;
  const stripped = stripAssignments(command);
  if (rule.specifier.endsWith(":*")) return prefixMatches(stripped, rule.specifier.slice(0, -2).trim());
  return stripped === rule.specifier.trim();
}

/**
 * Whether a deny rule covers this call. Deny errs the other way: a Bash rule matches when any part of a chain,
 * pipeline or substitution starts with its prefix, and a specifier on another tool denies the whole tool.
 */
export function denyRuleMatches(rule: PermissionRule, toolName: string, input: unknown): boolean {
  if (!ruleNamesTool(rule.toolName, toolName)) return false;
  if (rule.specifier === undefined || toolName !== "Bash") return true;
  const command = bashCommandOf(input);
  if (command === undefined) return true;
  const isPrefix = rule.specifier.endsWith(":*");
  const wanted = (isPrefix ? rule.specifier.slice(0, -2) : rule.specifier).trim();
  return command
    .split(/[;&|`\n(){}]|\$\(/)
    .map(stripAssignments)
    .some((segment) => (isPrefix ? segment.startsWith(wanted) : segment === wanted));
}

/** Most words after the program an "always allow" prefix keeps (`npm run build`). */
export const DEFAULT_PREFIX_SUBCOMMAND_WORDS = 2;

/** A word that names a subcommand (`test`, `run`, `status`), not a path, flag, value or pattern. */
const SUBCOMMAND_WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * The prefix an "always allow" answer remembers for a Bash command, like Claude Code's `Bash(npm test:*)`
 * rules: the program and the subcommand words after it, up to the first flag, path or other argument
 * (`npm test -- --watch` → `npm test`, `git log --oneline` → `git log`). Undefined for a command no prefix can
 * vouch for: chains, pipes, substitutions, redirections, leading assignments, or a program given by path.
 */
export function bashCommandPrefix(command: string): string | undefined {
  const trimmed = command.trim();
  if (trimmed === "" || SHELL_COMPOSITION.test(trimmed) || /["']/.test(trimmed)) return undefined;
  const [program, ...rest] = trimmed.split(/\s+/);
  if (program === undefined || !/^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/.test(program)) return undefined;
  const words = [program];
  for (const word of rest.slice(0, DEFAULT_PREFIX_SUBCOMMAND_WORDS)) {
    if (!SUBCOMMAND_WORD.test(word)) break;
    words.push(word);
  }
  return words.join(" ");
}

/**
 * The rule an "always allow" answer adds for this call: `Bash(prefix:*)` for a Bash command with a prefix,
 * the tool's name for other tools, undefined when nothing narrower than "every Bash command" would fit.
 */
export function alwaysAllowRule(toolName: string, input: unknown): string | undefined {
  if (toolName !== "Bash") return toolName;
  const command = bashCommandOf(input);
  const prefix = command === undefined ? undefined : bashCommandPrefix(command);
  return prefix === undefined ? undefined : `Bash(${prefix}:*)`;
}
