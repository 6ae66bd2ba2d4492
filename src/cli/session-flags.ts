/**
 * Maps the session flags to the session manager's calls (sessions/session-manager.ts, where a session lives):
 * `--resume <id>` → `open`, `--continue` → `continueLatest`, else `create` (`--session-id`), then runs what it
 * opened in a `QueryEngine`. Problems a person can fix are `CliError`s with one clear line.
 */
import { randomUUID } from "node:crypto";
import { QueryEngine, type QueryEngineOptions } from "../engine/query-engine.js";
import type { ProviderName } from "../provider/index.js";
import { missingCredentials, platformFromEnv } from "../provider/index.js";
import { type OpenedSession, SessionManager } from "../sessions/index.js";
import { defaultTools, deferredBuiltinTools, type PermissionReply, type PermissionRequest } from "../tools/index.js";
import { MemoryTranscriptStore, PgSessionDatabase, StoreError } from "../transcript/index.js";
import type { CliOptions } from "./args.js";

/** A failure to report as one line (exit 1), never with a stack trace. */
export class CliError extends Error {
  override readonly name = "CliError";
}

/**
 * Fails early, with a hint, when the platform's credentials are missing (the SDKs' own errors are less
 * helpful, and the cloud credential chains would otherwise probe metadata servers). Default platform: the
 * environment's (`THREADLINE_USE_BEDROCK` / `THREADLINE_USE_VERTEX`).
 */
export function requireCredentials(
  env: NodeJS.ProcessEnv,
  platform: ProviderName = platformFromEnv(env),
  baseURL?: string,
): void {
  const missing = missingCredentials(platform, env, baseURL);
  if (missing !== undefined) throw new CliError(missing);
}

/**
 * Engine options from the flags and the settings files attached to them (settings-options.ts): rules from both,
 * the flags' first; `ask` is the interactive permission prompt (absent in print mode).
 */
export function engineOptions(
  cli: CliOptions,
  cwd: string,
  ask?: (request: PermissionRequest) => Promise<PermissionReply>,
): QueryEngineOptions {
  const settings = cli.settings;
  const directories = [...(settings?.permissions.additionalDirectories ?? []), ...(cli.addDirs ?? [])];
  const compaction = {
    ...settings?.compaction,
    ...(cli.autocompact !== undefined ? { autocompact: cli.autocompact } : {}),
  };
  return {
    cwd,
    // Claude Code's deferred built-ins (WebFetch, NotebookEdit) behind ToolSearch, as a switching user has them.
    deferredTools: true,
    fileCheckpointing: true, // the CLI keeps checkpoints for /rewind and --rewind-to (docs/REWIND.md)
    permission: {
      mode: cli.permissionMode,
      allow: [...cli.allowedTools, ...(settings?.permissions.allow ?? [])],
      deny: [...cli.disallowedTools, ...(settings?.permissions.deny ?? [])],
      askRules: settings?.permissions.ask ?? [],
      // `--permission-mode dontAsk`: no question, so what no rule allows is denied (as in print mode).
      ...(ask !== undefined && cli.dontAsk !== true ? { ask } : {}),
    },
    ...(settings !== undefined && Object.keys(settings.hooks).length > 0 ? { hooks: settings.hooks } : {}),
    ...(directories.length > 0 ? { additionalDirectories: directories } : {}),
    ...(cli.trustGate !== undefined ? { projectCodeTrusted: cli.trustGate.trusted } : {}),
    ...(Object.keys(compaction).length > 0 ? { compaction } : {}),
    ...(cli.sessionEnv !== undefined ? { env: cli.sessionEnv } : {}),
    ...(settings !== undefined && Object.keys(settings.env).length > 0 ? { toolEnv: settings.env } : {}),
    // settings.mcpServers (raw, per file, with its path) goes to the MCP loader: cli/modes/mcp-session.ts openMcp.
    ...(settings?.memoryFiles !== undefined ? { memoryFiles: settings.memoryFiles } : {}),
    ...(settings !== undefined && Object.keys(settings.pause).length > 0 ? { pause: { ...settings.pause } } : {}),
    ...(cli.model !== undefined ? { model: cli.model } : {}),
    ...(cli.provider !== undefined ? { platform: cli.provider } : {}),
    ...(cli.baseURL !== undefined ? { baseURL: cli.baseURL } : {}),
    ...(cli.fallbackModel !== undefined ? { fallbackModel: cli.fallbackModel } : {}),
    ...(cli.effort !== undefined ? { effort: cli.effort } : {}),
    ...(cli.maxTurns !== undefined ? { maxTurns: cli.maxTurns } : {}),
    ...(cli.systemPrompt !== undefined ? { systemPrompt: cli.systemPrompt } : {}),
    ...(cli.appendSystemPrompt !== undefined ? { appendSystemPrompt: cli.appendSystemPrompt } : {}),
    ...(cli.contextWindow !== undefined ? { contextWindow: cli.contextWindow } : {}),
    ...(cli.sandbox !== undefined ? { sandbox: cli.sandbox } : {}),
    ...(cli.sandboxNetwork ? { sandboxNetwork: true } : {}),
    ...(cli.noMemory ? { memoryFiles: false } : {}),
    ...(cli.project !== undefined ? { project: cli.project } : {}),
    ...(cli.tools !== undefined ? onlyTools(cli.tools) : {}),
  };
}

/**
 * `--tools Bash,Read`: only the named built-ins are offered (Claude Code's meaning; `""` offers none). Agent stays
 * when named; MCP tools are not built-ins and still come from their servers.
 */
function onlyTools(names: readonly string[]): Pick<QueryEngineOptions, "tools" | "agents"> {
  const wanted = new Set(names);
  const tools = [...defaultTools(), ...deferredBuiltinTools()].filter((tool) => wanted.has(tool.name));
  return { tools, ...(wanted.has("Agent") ? {} : { agents: false }) };
}

/** A session running in an engine: whether an earlier one was loaded, and what its loader had to skip. */
export interface RunningSession {
  engine: QueryEngine;
  resumed: boolean;
  problems: string[];
}

/** `use(manager)` on the place the options name; its one-line `StoreError`s become `CliError`s. */
export async function withSessionManager<T>(
  options: QueryEngineOptions,
  use: (manager: SessionManager) => Promise<T>,
): Promise<T> {
  try {
    return await use(new SessionManager(options));
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message);
    throw error;
  }
}

/** Opens the session the flags name: `--resume <id>`, `--continue`, else a new one (`--session-id`). */
export async function openSession(cli: CliOptions, options: QueryEngineOptions): Promise<RunningSession> {
  // `--no-session-persistence`: the session is kept in memory only; a resumed one is read, never appended to.
  const keep = cli.noSessionPersistence === true ? false : undefined;
  const opened = await withSessionManager(options, (manager) => {
    if (cli.forkSession) return manager.fork(cli.resume);
    if (cli.resume !== undefined) return manager.open(cli.resume, keep);
    if (cli.continue) return manager.continueLatest(keep);
    if (keep === false) return Promise.resolve(inMemorySession(cli.sessionId));
    return manager.create(cli.sessionId);
  });
  return run(opened, options);
}

function inMemorySession(sessionId: string | undefined): OpenedSession {
  const id = sessionId ?? randomUUID();
  return { sessionId: id, entries: [], transcript: new MemoryTranscriptStore(), resumed: false, problems: [] };
}

/** `/resume`: another saved session, by id, unique id prefix or transcript path. */
export async function switchSession(sessionIdOrPath: string, options: QueryEngineOptions): Promise<RunningSession> {
  return run(await withSessionManager(options, (manager) => manager.open(sessionIdOrPath)), options);
}

function run(opened: OpenedSession, options: QueryEngineOptions): RunningSession {
  return { engine: QueryEngine.fromSession(opened, options), resumed: opened.resumed, problems: opened.problems };
}

/** Connects to the database store; a failure is one `CliError` line. */
export async function connectStore(url: string): Promise<PgSessionDatabase> {
  try {
    return await PgSessionDatabase.connect(url);
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message);
    throw error;
  }
}
