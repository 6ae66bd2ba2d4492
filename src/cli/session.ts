/**
 * Opens the engine the flags ask for: a new session, `--session-id`, `--resume <id>` or `--continue`.
 * Problems a person can fix are `CliError`s with one clear line.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { QueryEngine, type QueryEngineOptions } from "../engine/query-engine.js";
import { missingCredentials, platformFromEnv } from "../provider/create-provider.js";
import type { PlatformName } from "../provider/platform-profiles.js";
import type { PermissionRequest } from "../tools/permissions.js";
import {
  cwdSlug,
  listSessions,
  PgSessionDatabase,
  parseStoreUrl,
  projectKeyDir,
  StoreError,
  type StoreLocation,
  THREADLINE_STORE_ENV,
  TRANSCRIPT_EXTENSION,
  threadlineHome,
  transcriptPath,
} from "../transcript/index.js";
import type { CliOptions } from "./args.js";

/** A failure to report as one line (exit 1), never with a stack trace. */
export class CliError extends Error {
  override readonly name = "CliError";
}

export interface OpenedSession {
  engine: QueryEngine;
  /** Whether an earlier session was loaded. */
  resumed: boolean;
  /** Lines the transcript loader had to skip (torn tail, bad lines). */
  problems: string[];
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
  ask?: (request: PermissionRequest) => Promise<boolean>,
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
    // settings.mcpServers (raw, per file, with its path) is the MCP loader's input, wired where it joins.
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

/** The transcript store the options (else `$THREADLINE_STORE`) name; a bad URL is one `CliError` line. */
function storeLocation(options: QueryEngineOptions): StoreLocation {
  try {
    return parseStoreUrl(options.store ?? (options.env ?? process.env)[THREADLINE_STORE_ENV]);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}

/** The JSONL file of a session id: under `--project`'s folder when given, else this directory's. */
function sessionFile(sessionId: string, cwd: string, options: QueryEngineOptions): string {
  const home = options.home ?? threadlineHome();
  if (options.project === undefined) return transcriptPath(sessionId, cwd, home);
  return join(projectKeyDir(options.project, home), `${sessionId}${TRANSCRIPT_EXTENSION}`);
}

/** Opens (or resumes) the session the flags name. */
export async function openSession(cli: CliOptions, options: QueryEngineOptions): Promise<OpenedSession> {
  const cwd = options.cwd ?? process.cwd();
  const location = storeLocation(options);
  if (cli.resume !== undefined) return resume(cli.resume, options);
  if (cli.continue) {
    if (location.kind === "postgres") return resume(await latestStoredSession(location.url, cwd, options), options);
    // Only the newest is wanted: no need to open every transcript for its preview.
    const [latest] = await listSessions(cwd, options.home, {
      previews: false,
      ...(options.project !== undefined ? { project: options.project } : {}),
    });
    if (latest === undefined) throw new CliError("No conversation found to continue in this directory.");
    return resume(latest.path, options);
  }
  if (
    location.kind === "jsonl" &&
    cli.sessionId !== undefined &&
    existsSync(sessionFile(cli.sessionId, cwd, options))
  ) {
    throw new CliError(`Session ID ${cli.sessionId} is already in use; use --resume ${cli.sessionId} to continue it.`);
  }
  const sessionId = cli.sessionId ?? randomUUID();
  if (location.kind === "postgres" && options.transcript === undefined) {
    // Opened now, not on the first turn: a database that is down is one line before any prompt is read.
    const database = await connectStore(location.url);
    try {
      const project = options.project ?? cwdSlug(cwd);
      const transcript = await database.createSession({ sessionId, cwd, project }, { closeDatabaseOnClose: true });
      return { engine: new QueryEngine({ ...options, sessionId, transcript }), resumed: false, problems: [] };
    } catch (error) {
      await database.close();
      if (error instanceof StoreError) throw new CliError(error.message);
      throw error;
    }
  }
  const engine = new QueryEngine({ ...options, sessionId });
  return { engine, resumed: false, problems: [] };
}

/** Resumes a session by id or transcript path. */
export async function resume(sessionIdOrPath: string, options: QueryEngineOptions): Promise<OpenedSession> {
  const cwd = options.cwd ?? process.cwd();
  const isPath = sessionIdOrPath.includes("/") || sessionIdOrPath.endsWith(TRANSCRIPT_EXTENSION);
  if (storeLocation(options).kind === "postgres") {
    if (isPath) {
      throw new CliError(
        `${THREADLINE_STORE_ENV} is a database: resume a session by id, or bring the file in first with \`threadline import ${sessionIdOrPath}\``,
      );
    }
    try {
      const { engine, problems } = await QueryEngine.resume(sessionIdOrPath, options);
      return { engine, resumed: true, problems };
    } catch (error) {
      if (error instanceof StoreError) throw new CliError(error.message);
      throw error;
    }
  }
  let path = isPath ? sessionIdOrPath : sessionFile(sessionIdOrPath, cwd, options);
  if (!isPath && !existsSync(path) && /^[0-9a-f-]{4,}$/i.test(sessionIdOrPath)) {
    // A unique prefix of a session id in this directory (as short ids are shown and typed) is enough.
    const prefix = sessionIdOrPath.toLowerCase();
    const matches = (
      await listSessions(cwd, options.home, {
        previews: false,
        ...(options.project !== undefined ? { project: options.project } : {}),
      })
    ).filter((session) => session.sessionId.startsWith(prefix));
    if (matches.length > 1) {
      throw new CliError(`Session ID prefix ${sessionIdOrPath} matches ${matches.length} sessions; type more of it.`);
    }
    if (matches[0] !== undefined) path = matches[0].path;
  }
  if (!existsSync(path)) {
    throw new CliError(
      isPath
        ? `No transcript at ${path}.`
        : `No conversation found with session ID: ${sessionIdOrPath} (in this directory).`,
    );
  }
  const { engine, problems } = await QueryEngine.resume(path, options);
  return { engine, resumed: true, problems };
}

/** The most recently active session of this project (`--project`, else the cwd's slug) in the database. */
async function latestStoredSession(url: string, cwd: string, options: QueryEngineOptions): Promise<string> {
  const project = options.project ?? cwdSlug(cwd);
  const database = await connectStore(url);
  try {
    const [latest] = await database.listSessions({ project, limit: 1 });
    if (latest === undefined) throw new CliError(`No conversation found to continue in project ${project}.`);
    return latest.sessionId;
  } finally {
    await database.close();
  }
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
