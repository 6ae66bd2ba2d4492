/**
 * Where MCP servers are configured, as Claude Code reads them: `mcpServers` in settings files (their raw values
 * handed in by whoever reads settings), the project's `.mcp.json`, and each `--mcp-config` (a file path or a
 * JSON text). `--strict-mcp-config` keeps only the `--mcp-config` ones.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { claudeCodeServers, readClaudeJson } from "../home/index.js";
import { SecretEnvironment } from "../tools/index.js";
import { type ConfiguredServer, mergeServers, type ParsedServers, parseMcpServers } from "./config.js";

/** The project file of shared servers. */
export const PROJECT_MCP_FILE = ".mcp.json";

/** A settings file's raw `mcpServers` value and the file's path. */
export interface SettingsServers {
  path: string;
  mcpServers: unknown;
  /** From a project or local settings file: expanded without secret variables, like `.mcp.json`. Default false. */
  project?: boolean;
}

export interface McpConfigInputs {
  /** The project directory (`.mcp.json` is read there). */
  cwd: string;
  /** Values of `--mcp-config`, in order; default none. */
  mcpConfigs?: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers. Default false. */
  strict?: boolean;
  /** The user's own file of servers (`threadline mcp add --scope user`), read first; default none. */
  userFile?: string;
  /**
   * Claude Code's `~/.claude.json`: its user-scope servers (above `userFile`) and this folder's local-scope ones
   * (above `.mcp.json`, as in Claude Code: local beats project beats user). Default none.
   */
  claudeJsonFile?: string;
  /** Settings files' `mcpServers`, lowest precedence first; default none. */
  settings?: readonly SettingsServers[];
  /** Read the project's `.mcp.json` (false in a folder that is not trusted: docs/TRUST.md). Default true. */
  includeProject?: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/** A JSON document's `mcpServers`; a document without the key is read as the server map itself. */
function serversOf(document: unknown): unknown {
  if (typeof document === "object" && document !== null && "mcpServers" in document)
    return (document as { mcpServers: unknown }).mcpServers;
  return document;
}

function parseJsonDocument(text: string, source: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: `${source}: not valid JSON (${(error as Error).message}); no servers read from it` };
  }
}

/** `.mcp.json` of `cwd`, when there is one. */
export function readProjectServers(cwd: string, env: McpConfigInputs["env"]): ParsedServers {
  return readServersFile(join(cwd, PROJECT_MCP_FILE), env);
}

/** The servers of a `{"mcpServers": …}` file, when it exists. */
export function readServersFile(path: string, env: McpConfigInputs["env"]): ParsedServers {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], problems: [] };
    return {
      servers: [],
      problems: [`${path}: cannot be read (${(error as Error).message}); no servers read from it`],
    };
  }
  const document = parseJsonDocument(text, path);
  if (document.problem !== undefined) return { servers: [], problems: [document.problem] };
  return parseMcpServers(serversOf(document.value), path, env);
}

/** One `--mcp-config` value: JSON text when it starts with `{`, else a path (relative to `cwd`). */
export function readMcpConfigArgument(value: string, cwd: string, env: McpConfigInputs["env"]): ParsedServers {
  const trimmed = value.trim();
  let text = trimmed;
  let source = "--mcp-config";
  if (!trimmed.startsWith("{")) {
    const path = resolve(cwd, trimmed);
    source = path;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      return {
        servers: [],
        problems: [`--mcp-config ${value}: cannot be read (${(error as Error).message}); no servers read from it`],
      };
    }
  }
  const document = parseJsonDocument(text, source);
  if (document.problem !== undefined) return { servers: [], problems: [document.problem] };
  return parseMcpServers(serversOf(document.value), source, env);
}

/** Every configured server, merged by name (later sources win), with every problem line. */
export function loadMcpServers(inputs: McpConfigInputs): { servers: ConfiguredServer[]; problems: string[] } {
  const lists: ConfiguredServer[][] = [];
  const problems: string[] = [];
  const take = (parsed: ParsedServers): void => {
    lists.push(parsed.servers);
    problems.push(...parsed.problems);
  };
  // A project's files are the repository's, not the user's: `${ANTHROPIC_API_KEY}` in them expands to nothing
  // a tool process would not get (the same secret list: tools/secret-env.ts), so it stays as written.
  const projectEnv = projectExpansionEnv(inputs.env);
  if (inputs.strict !== true) {
    const claudeCode = inputs.claudeJsonFile !== undefined ? readClaudeCodeServers(inputs.claudeJsonFile, inputs) : [];
    if (inputs.userFile !== undefined) take(readServersFile(inputs.userFile, inputs.env));
    if (claudeCode[0] !== undefined) take(claudeCode[0]);
    for (const settings of inputs.settings ?? [])
      take(parseMcpServers(settings.mcpServers, settings.path, settings.project === true ? projectEnv : inputs.env));
    if (inputs.includeProject !== false) take(readProjectServers(inputs.cwd, projectEnv));
    if (claudeCode[1] !== undefined) take(claudeCode[1]);
  }
  for (const value of inputs.mcpConfigs ?? []) take(readMcpConfigArgument(value, inputs.cwd, inputs.env));
  return { servers: mergeServers(lists), problems };
}

/**
 * The user-scope and local-scope servers of Claude Code's record. They are the person's own (written by
 * `claude mcp add` or `threadline mcp add`), so they expand from the whole environment, like the user file.
 */
export function readClaudeCodeServers(path: string, inputs: Pick<McpConfigInputs, "cwd" | "env">): ParsedServers[] {
  const read = readClaudeJson(path);
  if (read.kind === "absent") return [];
  if (read.kind === "problem") return [{ servers: [], problems: [read.problem] }];
  const { user, local } = claudeCodeServers(read.document, inputs.cwd);
  return [
    parseMcpServers(user, `${path} (user scope)`, inputs.env),
    parseMcpServers(local, `${path} (local scope, ${inputs.cwd})`, inputs.env),
  ];
}

/** The variables a project's MCP configuration may expand: the environment tool processes get (secrets removed). */
export function projectExpansionEnv(env: McpConfigInputs["env"]): Readonly<Record<string, string>> {
  return new SecretEnvironment(env as NodeJS.ProcessEnv).toolEnv;
}
