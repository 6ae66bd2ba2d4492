/**
 * Allow/ask/deny rules, in Claude Code's syntax (docs/SETTINGS.md): `Tool` (every call of a tool),
 * `Bash(npm test)` (that exact command), `Bash(npm test:*)` and `Bash(npm run *)` (commands starting so),
 * `Read(./secrets/**)` / `Edit(/src/**)` (paths, gitignore-style), `mcp__server` / `mcp__server__tool`,
 * `Agent(Explore)` (one subagent type), `WebFetch(domain:example.com)` (one host; `*.example.com` its subdomains).
 */
import {
  pathRuleFamily,
  pathRuleMatches,
  type RuleScope,
  searchesFolder,
  searchReaches,
  searchWithin,
  toolCallPath,
} from "./permission-path-rules.js";

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

/**
 * A program named in quotes (`"/plugin/scripts/setup.sh" args`, as published plugin commands write it) is the
 * same program unquoted, when the quotes hold nothing the shell would expand or split.
 */
function unquoteProgram(command: string): string {
  return command.replace(/^(["'])([^"'\s$`\\]+)\1(?=\s|$)/, "$2");
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
 * Whether the rule's tool name covers this tool: the same name; an Edit or Read rule's family
 * (permission-path-rules.ts); `mcp__server` (or `mcp__server__*`) for every tool of that MCP server.
 */
export function ruleCoversTool(rule: PermissionRule, toolName: string): boolean {
  if (rule.toolName === toolName) return true;
  if (pathRuleFamily(rule.toolName)?.includes(toolName) === true) return true;
  if (rule.toolName === "Task" && toolName === "Agent") return true;
  return ruleNamesTool(rule.toolName, toolName);
}

/** The kind of specifier a rule has for this tool. */
function specifierKind(
  rule: PermissionRule,
  toolName: string,
): "none" | "bash" | "path" | "agent" | "domain" | "other" {
  if (rule.specifier === undefined) return "none";
  if (toolName === "WebFetch" && rule.toolName === "WebFetch" && rule.specifier.trim().startsWith("domain:"))
    return "domain";
  if (toolName === "Bash" && rule.toolName === "Bash") return "bash";
  if (pathRuleFamily(rule.toolName) !== undefined) return "path";
  if (toolName === "Agent" && (rule.toolName === "Agent" || rule.toolName === "Task")) return "agent";
  return "other";
}

/** A Bash specifier as a matcher over one command: `prefix:*`, a `*` wildcard pattern, or the exact command. */
function bashSpecifierMatcher(specifier: string): (command: string) => boolean {
  const text = specifier.trim();
  if (text.endsWith(":*")) {
    const prefix = text.slice(0, -2).trim();
    return (command) => prefixMatches(command, prefix);
  }
  if (text.includes("*")) {
    // `npm run *`: a trailing ` *` also matches the bare command, as in Claude Code.
    const body = text.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
    const expression = new RegExp(`^${body.endsWith(" .*") ? `${body.slice(0, -3)}(?: .*)?` : body}$`, "s");
    return (command) => expression.test(command);
  }
  return (command) => command === text;
}

function agentTypeOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const type = (input as { subagent_type?: unknown }).subagent_type;
  return typeof type === "string" ? type : undefined;
}

/** The host a WebFetch call reaches (lower case), undefined when its URL does not parse. */
export function webFetchHost(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const url = (input as { url?: unknown }).url;
  if (typeof url !== "string") return undefined;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `domain:example.com` covers that host only; `domain:*.example.com` covers its subdomains (Claude Code's form). */
function domainMatches(specifier: string, host: string): boolean {
  const domain = specifier.trim().slice("domain:".length).trim().toLowerCase();
  if (domain.startsWith("*.")) return host.endsWith(domain.slice(1));
  return host === domain;
}

/**
 * Whether an allow (or ask) rule covers this call. A Bash rule with a specifier never allows a composed command
 * (`npm test && rm -rf x`), since the prefix would only vouch for its first part. A path rule needs `scope` to
 * place its pattern; without it, or for a specifier it does not understand, the rule allows nothing.
 */
export function allowRuleMatches(rule: PermissionRule, toolName: string, input: unknown, scope?: RuleScope): boolean {
  if (!ruleCoversTool(rule, toolName)) return false;
  const kind = specifierKind(rule, toolName);
  switch (kind) {
    case "none":
      return true;
    case "bash": {
      const command = bashCommandOf(input)?.trim();
      if (command === undefined || SHELL_COMPOSITION.test(command)) return false;
      return bashSpecifierMatcher(rule.specifier ?? "")(unquoteProgram(stripAssignments(command)));
    }
    case "path": {
      if (scope === undefined) return false;
      const path = toolCallPath(toolName, input, scope.cwd);
      if (path === undefined) return false;
      const specifier = rule.specifier ?? "";
      return searchesFolder(toolName) ? searchWithin(specifier, path, scope) : pathRuleMatches(specifier, path, scope);
    }
    case "agent":
      return agentTypeOf(input) === rule.specifier?.trim();
    case "domain": {
      const host = webFetchHost(input);
      return host !== undefined && domainMatches(rule.specifier ?? "", host);
    }
    case "other":
      return false;
    default: {
      const unknown: never = kind;
      return unknown;
    }
  }
}

/**
 * Whether a deny rule covers this call. Deny errs the other way: a Bash rule matches when any part of a chain,
 * pipeline or substitution matches, a path rule matches when the call names no path it can check (or no scope
 * is given), and a specifier it does not understand denies the whole tool.
 */
export function denyRuleMatches(rule: PermissionRule, toolName: string, input: unknown, scope?: RuleScope): boolean {
  if (!ruleCoversTool(rule, toolName)) return false;
  const kind = specifierKind(rule, toolName);
  switch (kind) {
    case "none":
    case "other":
      return true;
    case "bash": {
      const command = bashCommandOf(input);
      if (command === undefined) return true;
      const matches = bashSpecifierMatcher(rule.specifier ?? "");
      const prefix =
        rule.specifier?.trim().endsWith(":*") === true ? rule.specifier.trim().slice(0, -2).trim() : undefined;
      return command
        .split(/[;&|`\n(){}]|\$\(/)
        .map(stripAssignments)
        .some((segment) => matches(segment) || (prefix !== undefined && segment.startsWith(prefix)));
    }
    case "path": {
      if (scope === undefined) return true;
      const path = toolCallPath(toolName, input, scope.cwd);
      if (path === undefined) return true;
      const specifier = rule.specifier ?? "";
      return searchesFolder(toolName) ? searchReaches(specifier, path, scope) : pathRuleMatches(specifier, path, scope);
    }
    case "agent": {
      const type = agentTypeOf(input);
      return type === undefined || type === rule.specifier?.trim();
    }
    case "domain": {
      // A URL that does not parse names no host to clear: denied.
      const host = webFetchHost(input);
      return host === undefined || domainMatches(rule.specifier ?? "", host);
    }
    default: {
      const unknown: never = kind;
      return unknown;
    }
  }
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
  if (toolName === "WebFetch") {
    // One host, as Claude Code remembers it: allowing one page must not allow the whole web.
    const host = webFetchHost(input);
    return host === undefined ? undefined : `WebFetch(domain:${host})`;
  }
  if (toolName !== "Bash") return toolName;
  const command = bashCommandOf(input);
  const prefix = command === undefined ? undefined : bashCommandPrefix(command);
  return prefix === undefined ? undefined : `Bash(${prefix}:*)`;
}
