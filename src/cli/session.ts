/**
 * Maps the flags to the engine's `SessionStore` (engine/sessions.ts, where a session is opened): a new session,
 * `--session-id`, `--resume <id>` or `--continue`. Problems a person can fix are `CliError`s with one clear line.
 */
import type { QueryEngineOptions } from "../engine/query-engine.js";
import { type OpenedSession, SessionStore } from "../engine/sessions.js";
import type { PlatformName } from "../provider/index.js";
import { missingCredentials, platformFromEnv } from "../provider/index.js";
import type { PermissionReply, PermissionRequest } from "../tools/index.js";
import { PgSessionDatabase, StoreError } from "../transcript/index.js";
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
export function requireCredentials(env: NodeJS.ProcessEnv, platform: PlatformName = platformFromEnv(env)): void {
  const missing = missingCredentials(platform, env);
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
  const directories = settings?.permissions.additionalDirectories ?? [];
  const compaction = settings?.compaction ?? {};
  return {
    cwd,
    permission: {
      mode: cli.permissionMode,
      allow: [...cli.allowedTools, ...(settings?.permissions.allow ?? [])],
      deny: [...cli.disallowedTools, ...(settings?.permissions.deny ?? [])],
      askRules: settings?.permissions.ask ?? [],
      ...(ask !== undefined ? { ask } : {}),
    },
    ...(settings !== undefined && Object.keys(settings.hooks).length > 0 ? { hooks: settings.hooks } : {}),
    ...(directories.length > 0 ? { additionalDirectories: directories } : {}),
    ...(Object.keys(compaction).length > 0 ? { compaction } : {}),
    ...(cli.sessionEnv !== undefined ? { env: cli.sessionEnv } : {}),
    ...(settings !== undefined && Object.keys(settings.env).length > 0 ? { toolEnv: settings.env } : {}),
    // settings.mcpServers (raw, per file, with its path) goes to the MCP loader: cli/mcp-session.ts openMcp.
    ...(settings?.memoryFiles !== undefined ? { memoryFiles: settings.memoryFiles } : {}),
    ...(cli.model !== undefined ? { model: cli.model } : {}),
    ...(cli.provider !== undefined ? { platform: cli.provider } : {}),
    ...(cli.fallbackModel !== undefined ? { fallbackModel: cli.fallbackModel } : {}),
    ...(cli.maxTurns !== undefined ? { maxTurns: cli.maxTurns } : {}),
    ...(cli.systemPrompt !== undefined ? { systemPrompt: cli.systemPrompt } : {}),
    ...(cli.appendSystemPrompt !== undefined ? { appendSystemPrompt: cli.appendSystemPrompt } : {}),
    ...(cli.contextWindow !== undefined ? { contextWindow: cli.contextWindow } : {}),
    ...(cli.sandbox !== undefined ? { sandbox: cli.sandbox } : {}),
    ...(cli.sandboxNetwork ? { sandboxNetwork: true } : {}),
    ...(cli.noMemory ? { memoryFiles: false } : {}),
    ...(cli.project !== undefined ? { project: cli.project } : {}),
  };
}

/** `use(store)` on the session store the options name; its one-line `StoreError`s become `CliError`s. */
export async function withSessionStore<T>(
  options: QueryEngineOptions,
  use: (store: SessionStore) => Promise<T>,
): Promise<T> {
  try {
    return await use(new SessionStore(options));
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message);
    throw error;
  }
}

/** Opens the session the flags name: `--resume <id>`, `--continue`, else a new one (`--session-id`). */
export function openSession(cli: CliOptions, options: QueryEngineOptions): Promise<OpenedSession> {
  return withSessionStore(options, (store) => {
    if (cli.resume !== undefined) return store.open(cli.resume);
    if (cli.continue) return store.continueLatest();
    return store.create(cli.sessionId);
  });
}

/** Resumes a session by id, unique id prefix or transcript path. */
export function resume(sessionIdOrPath: string, options: QueryEngineOptions): Promise<OpenedSession> {
  return withSessionStore(options, (store) => store.open(sessionIdOrPath));
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
