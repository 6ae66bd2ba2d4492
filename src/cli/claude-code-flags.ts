/**
 * Claude Code's options beyond threadline's first set (issue 56): each either means what it means in Claude Code
 * 2.1.337, or is refused in one line that names it and says why — never "unknown option" for a real Claude Code
 * flag, so a script learns at once what differs. The reference is Claude Code's CLI reference
 * (code.claude.com/docs/en/cli-reference) and its `--help`.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "./usage-error.js";

/** `parseArgs` definitions of the Claude Code options this file reads. */
export const CLAUDE_CODE_OPTIONS = {
  "add-dir": { type: "string", multiple: true },
  agents: { type: "string" },
  tools: { type: "string", multiple: true },
  "input-format": { type: "string" },
  "json-schema": { type: "string" },
  "max-budget-usd": { type: "string" },
  "no-session-persistence": { type: "boolean" },
  "system-prompt-file": { type: "string" },
  "append-system-prompt-file": { type: "string" },
  "setting-sources": { type: "string" },
  "replay-user-messages": { type: "boolean" },
  "include-hook-events": { type: "boolean" },
  "exclude-dynamic-system-prompt-sections": { type: "boolean" },
  autocompact: { type: "boolean" },
  "no-autocompact": { type: "boolean" },
  worktree: { type: "boolean", short: "w" },
  debug: { type: "boolean", short: "d" },
  "debug-to-stderr": { type: "boolean" },
  "debug-file": { type: "string" },
  "allow-dangerously-skip-permissions": { type: "boolean" },
  "permission-prompt-tool": { type: "string" },
  betas: { type: "string", multiple: true },
  ide: { type: "boolean" },
  chrome: { type: "boolean" },
  "no-chrome": { type: "boolean" },
  "from-pr": { type: "string" },
  remote: { type: "string" },
  teleport: { type: "boolean" },
  agent: { type: "string" },
  name: { type: "string", short: "n" },
  "disable-slash-commands": { type: "boolean" },
} as const;

/** Options Claude Code has that threadline refuses, each with the reason printed after its name. */
export const REFUSED_OPTIONS: Readonly<Record<string, string>> = {
  "json-schema": "structured output validated against a schema is not built in threadline yet",
  worktree: "threadline does not create a git worktree for a session; make one (git worktree add) and run there",
  "include-hook-events": "threadline's stream-json does not carry hook lifecycle events",
  "permission-prompt-tool":
    "threadline has no MCP permission-prompt tool; use --allowedTools or a PermissionRequest hook",
  "from-pr": "sessions are not linked to pull requests in threadline",
  remote: "threadline has no claude.ai web sessions",
  teleport: "threadline has no claude.ai web sessions",
  ide: "threadline does not connect to an IDE",
  chrome: "threadline has no Chrome integration",
  agent: "running the main session as a custom agent is not built in threadline; use --agents for subagents",
  "debug-file": "threadline's debug log is --verbose on stderr; it writes no debug file",
};

/** Options accepted for a script's sake that change nothing here, each with the line said once on stderr. */
export const NO_EFFECT_OPTIONS: Readonly<Record<string, string>> = {
  "exclude-dynamic-system-prompt-sections":
    "threadline's system prompt already keeps its per-machine sections in one place; the option changes nothing",
  "allow-dangerously-skip-permissions": "threadline's mode cycle offers bypassPermissions only when started in it",
  betas: "threadline sends a beta header only where the server declares the feature (docs/API-SURFACE.md)",
  "no-chrome": "threadline has no Chrome integration",
  name: "threadline names sessions by id",
  "disable-slash-commands": "threadline runs a custom command in -p only when the prompt starts with /",
};

/** The `--setting-sources` names (Claude Code's `settingSources`). */
export const SETTING_SOURCES = ["user", "project", "local"] as const;
export type SettingSource = (typeof SETTING_SOURCES)[number];

/** A subagent from `--agents '{"name": {"description", "prompt", "tools"?, "model"?}}'`. */
export interface FlagAgent {
  name: string;
  description: string;
  prompt: string;
  tools?: string[];
  model?: string;
}

/** What these options choose (part of `CliOptions`). */
export interface ClaudeCodeChoices {
  /** `--add-dir`: more folders the tools may use without asking (absolute). Default none. */
  addDirs?: string[];
  /** `--agents`: subagents for this run, above the agent files of the same name. Default none. */
  agents?: FlagAgent[];
  /** `--tools`: the only built-in tools offered (`""`: none). Default all. */
  tools?: string[];
  /** `--input-format`: `stream-json` reads user messages as JSON lines on stdin. Default text. */
  inputFormat?: "text" | "stream-json";
  /** `--max-budget-usd`: print mode stops once the session's cost passes this. Default no limit. */
  maxBudgetUsd?: number;
  /** `--no-session-persistence`: no transcript is written. Default false. */
  noSessionPersistence?: boolean;
  /** `--setting-sources`: which settings files are read (managed and `--settings` always are). Default all. */
  settingSources?: SettingSource[];
  /** `--replay-user-messages`: stream-json input's user messages are echoed on stdout. Default false. */
  replayUserMessages?: boolean;
  /** `--autocompact` / `--no-autocompact`: autocompaction on or off for the session. Default the settings'. */
  autocompact?: boolean;
  /** Lines said once on stderr at start (options accepted without effect). */
  notices: string[];
}

/** The parts of the command line's options this file reads or sets. */
interface Target extends ClaudeCodeChoices {
  print: boolean;
  outputFormat: string;
  verbose: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string;
}

type Values = Partial<Record<keyof typeof CLAUDE_CODE_OPTIONS, string | boolean | string[]>>;

/**
 * Claude Code's `--add-dir <directories...>` takes every following word up to the next option (commander's
 * variadic option), so `--add-dir ../apps ../lib` is two folders; each is folded into its own `--add-dir=`.
 * And `-d` / `--debug` take an optional filter in Claude Code (`--debug api,hooks`); parseArgs has no optional values,
 * so a following word that reads as a filter (categories, commas, `!`) is folded in as `--debug=<filter>` first.
 */
export function foldVariadicOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? "";
    if (argument === "--") return [...out, ...argv.slice(index)];
    if (argument === "--add-dir") {
      let taken = 0;
      while (index + 1 < argv.length && !(argv[index + 1] ?? "-").startsWith("-")) {
        out.push(`--add-dir=${argv[++index]}`);
        taken++;
      }
      if (taken === 0) out.push(argument); // parseArgs says it needs a value
      continue;
    }
    const next = argv[index + 1];
    if (
      (argument === "-d" || argument === "--debug") &&
      next !== undefined &&
      /^!?[a-z0-9_]+(,!?[a-z0-9_]+)*$/.test(next)
    ) {
      out.push("--debug");
      index++; // the filter: threadline's log has no categories, so it selects nothing
      continue;
    }
    out.push(argument.startsWith("--debug=") ? "--debug" : argument);
  }
  return out;
}

/** Applies the Claude Code options to `options` (already holding threadline's own); throws `UsageError`. */
export function applyClaudeCodeOptions(options: Target, values: Values, cwd: string): void {
  for (const [name, reason] of Object.entries(REFUSED_OPTIONS)) {
    if (values[name as keyof Values] !== undefined) throw new UsageError(`--${name} is not supported: ${reason}`);
  }
  for (const [name, line] of Object.entries(NO_EFFECT_OPTIONS)) {
    if (values[name as keyof Values] !== undefined) options.notices.push(`--${name}: ${line}`);
  }
  const addDirs = values["add-dir"];
  if (Array.isArray(addDirs)) options.addDirs = addDirs.map((directory) => resolve(cwd, directory));
  if (typeof values.agents === "string") options.agents = parseAgents(values.agents);
  const tools = Array.isArray(values.tools) ? splitNames(values.tools) : undefined;
  if (tools !== undefined) options.tools = tools;
  const inputFormat = values["input-format"];
  if (typeof inputFormat === "string") {
    if (inputFormat !== "text" && inputFormat !== "stream-json")
      throw new UsageError(`--input-format must be one of text, stream-json; got "${inputFormat}"`);
    options.inputFormat = inputFormat;
  }
  const budget = values["max-budget-usd"];
  if (typeof budget === "string") {
    const dollars = Number(budget);
    if (budget.trim() === "" || !Number.isFinite(dollars) || dollars <= 0)
      throw new UsageError(`--max-budget-usd must be a positive number of dollars, got "${budget}"`);
    options.maxBudgetUsd = dollars;
  }
  if (values["no-session-persistence"] === true) options.noSessionPersistence = true;
  const systemFile = values["system-prompt-file"];
  if (typeof systemFile === "string") options.systemPrompt = readPromptFile(systemFile, "--system-prompt-file", cwd);
  const appendFile = values["append-system-prompt-file"];
  if (typeof appendFile === "string")
    options.appendSystemPrompt = readPromptFile(appendFile, "--append-system-prompt-file", cwd);
  const sources = values["setting-sources"];
  if (typeof sources === "string") options.settingSources = parseSources(sources);
  if (values["replay-user-messages"] === true) options.replayUserMessages = true;
  if (values.autocompact === true && values["no-autocompact"] === true)
    throw new UsageError("--autocompact and --no-autocompact cannot be combined");
  if (values.autocompact === true) options.autocompact = true;
  if (values["no-autocompact"] === true) options.autocompact = false;
  if (values.debug === true || values["debug-to-stderr"] === true) options.verbose = true;
}

/** Checks made once every option is known (Claude Code's own rules for these combinations). */
export function checkClaudeCodeCombinations(options: Target): void {
  if (options.inputFormat === "stream-json" && options.outputFormat !== "stream-json")
    throw new UsageError("--input-format stream-json needs --output-format stream-json (as in Claude Code)");
  if (options.replayUserMessages === true && options.inputFormat !== "stream-json")
    throw new UsageError("--replay-user-messages needs --input-format stream-json and --output-format stream-json");
  if (options.noSessionPersistence === true && !options.print)
    throw new UsageError("--no-session-persistence only works with --print");
  if (options.maxBudgetUsd !== undefined && !options.print)
    throw new UsageError("--max-budget-usd only works with --print");
}

function parseAgents(text: string): FlagAgent[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--agents must be a JSON object of agents (${(error as Error).message})`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError('--agents must be a JSON object: {"name": {"description": "…", "prompt": "…"}}');
  return Object.entries(value).map(([name, raw]) => {
    const agent = raw as Record<string, unknown> | null;
    if (typeof agent?.description !== "string" || typeof agent.prompt !== "string")
      throw new UsageError(`--agents: agent "${name}" needs a "description" and a "prompt" (strings)`);
    const tools = agent.tools;
    if (tools !== undefined && (!Array.isArray(tools) || tools.some((tool) => typeof tool !== "string")))
      throw new UsageError(`--agents: agent "${name}": "tools" must be a list of tool names`);
    if (agent.model !== undefined && typeof agent.model !== "string")
      throw new UsageError(`--agents: agent "${name}": "model" must be a string`);
    return {
      name,
      description: agent.description,
      prompt: agent.prompt,
      ...(tools !== undefined ? { tools: tools as string[] } : {}),
      ...(typeof agent.model === "string" && agent.model !== "inherit" ? { model: agent.model } : {}),
    };
  });
}

/** `--tools "Bash,Edit,Read"` (or several words): the names; `""` is none, `default` all (undefined). */
function splitNames(lists: readonly string[]): string[] | undefined {
  const names = lists.flatMap((list) => list.split(/[,\s]+/)).filter((name) => name !== "");
  if (names.length === 1 && names[0] === "default") return undefined;
  return names;
}

function readPromptFile(path: string, flag: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, path), "utf8");
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

function parseSources(text: string): SettingSource[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.map((name) => {
    const source = SETTING_SOURCES.find((candidate) => candidate === name);
    if (source === undefined)
      throw new UsageError(`--setting-sources must list user, project or local (comma-separated); got "${name}"`);
    return source;
  });
}
