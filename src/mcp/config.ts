/**
 * MCP server configuration as Claude Code reads it: an `mcpServers` object of named servers, each stdio
 * (`command`, `args`, `env`, optional `type: "stdio"`), streamable HTTP (`type: "http"`, `url`, `headers`) or
 * SSE for older servers (`type: "sse"`). The same shape arrives from `.mcp.json`, from `--mcp-config` and from
 * settings files, so one parser reads them all: a bad entry is one problem line naming the file and server,
 * and every good entry is kept.
 */
import * as z from "zod";
import { expandEnvReferences } from "./expand-env.js";

export interface StdioServerConfig {
  type: "stdio";
  command: string;
  /** Default none. */
  args: string[];
  /** Added to the small default environment the SDK gives a server (PATH, HOME, …); default none. */
  env: Record<string, string>;
  /** Working directory of the process; default the session's. */
  cwd?: string;
}

export interface RemoteServerConfig {
  /** `http` is streamable HTTP; `sse` the older HTTP+SSE transport. */
  type: "http" | "sse";
  url: string;
  /** Default none. */
  headers: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | RemoteServerConfig;

/** One configured server and where its configuration came from (for `/mcp` and problem lines). */
export interface ConfiguredServer {
  name: string;
  config: McpServerConfig;
  /** A file path, `--mcp-config`, or a settings file's path. */
  source: string;
}

export interface ParsedServers {
  servers: ConfiguredServer[];
  /** One line per entry that was not kept or not fully expanded. */
  problems: string[];
}

const stringMap = z.record(z.string(), z.string());

const stdioSchema = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().optional(),
});

const remoteSchema = z.object({
  type: z.enum(["http", "sse", "streamable-http"]),
  url: z.string().min(1),
  headers: stringMap.optional(),
});

type RawServer = z.infer<typeof stdioSchema> | z.infer<typeof remoteSchema>;

function parseServer(raw: unknown): { ok: true; value: RawServer } | { ok: false; reason: string } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { ok: false, reason: "is not an object" };
  const type = (raw as { type?: unknown }).type;
  const schema = type === undefined || type === "stdio" ? stdioSchema : remoteSchema;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.join(".") ?? "";
  return { ok: false, reason: `${path === "" ? "" : `${path}: `}${issue?.message ?? "is not valid"}` };
}

/**
 * Servers from a raw `mcpServers` value (from `source`, named in problem lines), with `${VAR}` and
 * `${VAR:-default}` expanded from `env` in command, args, env, url and headers.
 */
export function parseMcpServers(
  raw: unknown,
  source: string,
  env: Readonly<Record<string, string | undefined>>,
): ParsedServers {
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { servers: [], problems };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return { servers: [], problems: [`${source}: mcpServers must be an object of named servers; none kept`] };
  }
  const servers: ConfiguredServer[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const parsed = parseServer(value);
    if (!parsed.ok) {
      problems.push(`${source}: MCP server "${name}" ${parsed.reason}; skipped (the others are kept)`);
      continue;
    }
    const missing = new Set<string>();
    const expand = (text: string): string => {
      const result = expandEnvReferences(text, env);
      for (const variable of result.missing) missing.add(variable);
      return result.text;
    };
    const expandMap = (map: Record<string, string> | undefined): Record<string, string> =>
      Object.fromEntries(Object.entries(map ?? {}).map(([key, text]) => [key, expand(text)]));
    const entry = parsed.value;
    const config: McpServerConfig =
      "command" in entry
        ? {
            type: "stdio",
            command: expand(entry.command),
            args: (entry.args ?? []).map(expand),
            env: expandMap(entry.env),
            ...(entry.cwd !== undefined ? { cwd: expand(entry.cwd) } : {}),
          }
        : {
            type: entry.type === "sse" ? "sse" : "http",
            url: expand(entry.url),
            headers: expandMap(entry.headers),
          };
    if (missing.size > 0) {
      problems.push(
        `${source}: MCP server "${name}" uses unset ${[...missing].map((variable) => `\${${variable}}`).join(", ")}; kept as written`,
      );
    }
    servers.push({ name, config, source });
  }
  return { servers, problems };
}

/**
 * Server lists merged by name, later lists winning (settings, then `.mcp.json`, then `--mcp-config`), in the
 * order names were first seen so the tools' order never depends on which source won.
 */
export function mergeServers(lists: readonly (readonly ConfiguredServer[])[]): ConfiguredServer[] {
  const byName = new Map<string, ConfiguredServer>();
  for (const list of lists) for (const server of list) byName.set(server.name, server);
  return [...byName.values()];
}
