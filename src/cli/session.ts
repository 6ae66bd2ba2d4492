/**
 * Opens the engine the flags ask for: a new session, `--session-id`, `--resume <id>` or `--continue`.
 * Problems a person can fix are `CliError`s with one clear line.
 */
import { existsSync } from "node:fs";
import { QueryEngine, type QueryEngineOptions } from "../engine/query-engine.js";
import { missingCredentials, platformFromEnv } from "../provider/create-provider.js";
import type { PlatformName } from "../provider/platform-profiles.js";
import type { PermissionRequest } from "../tools/permissions.js";
import { listSessions, TRANSCRIPT_EXTENSION, threadlineHome, transcriptPath } from "../transcript/index.js";
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

/** Engine options from the flags; `ask` is the interactive permission prompt (absent in print mode). */
export function engineOptions(
  cli: CliOptions,
  cwd: string,
  ask?: (request: PermissionRequest) => Promise<boolean>,
): QueryEngineOptions {
  return {
    cwd,
    permission: {
      mode: cli.permissionMode,
      allow: cli.allowedTools,
      deny: cli.disallowedTools,
      ...(ask !== undefined ? { ask } : {}),
    },
    ...(cli.model !== undefined ? { model: cli.model } : {}),
    ...(cli.provider !== undefined ? { platform: cli.provider } : {}),
    ...(cli.fallbackModel !== undefined ? { fallbackModel: cli.fallbackModel } : {}),
    ...(cli.maxTurns !== undefined ? { maxTurns: cli.maxTurns } : {}),
    ...(cli.systemPrompt !== undefined ? { systemPrompt: cli.systemPrompt } : {}),
    ...(cli.appendSystemPrompt !== undefined ? { appendSystemPrompt: cli.appendSystemPrompt } : {}),
    ...(cli.contextWindow !== undefined ? { contextWindow: cli.contextWindow } : {}),
    ...(cli.sandbox !== undefined ? { sandbox: cli.sandbox } : {}),
    ...(cli.sandboxNetwork ? { sandboxNetwork: true } : {}),
  };
}

/** Opens (or resumes) the session the flags name. */
export async function openSession(cli: CliOptions, options: QueryEngineOptions): Promise<OpenedSession> {
  const cwd = options.cwd ?? process.cwd();
  if (cli.resume !== undefined) return resume(cli.resume, options);
  if (cli.continue) {
    // Only the newest is wanted: no need to open every transcript for its preview.
    const [latest] = await listSessions(cwd, options.home, { previews: false });
    if (latest === undefined) throw new CliError("No conversation found to continue in this directory.");
    return resume(latest.path, options);
  }
  if (cli.sessionId !== undefined && existsSync(transcriptPath(cli.sessionId, cwd, options.home ?? threadlineHome()))) {
    throw new CliError(`Session ID ${cli.sessionId} is already in use; use --resume ${cli.sessionId} to continue it.`);
  }
  const engine = new QueryEngine({ ...options, ...(cli.sessionId !== undefined ? { sessionId: cli.sessionId } : {}) });
  return { engine, resumed: false, problems: [] };
}

/** Resumes a session by id or transcript path. */
export async function resume(sessionIdOrPath: string, options: QueryEngineOptions): Promise<OpenedSession> {
  const cwd = options.cwd ?? process.cwd();
  const isPath = sessionIdOrPath.includes("/") || sessionIdOrPath.endsWith(TRANSCRIPT_EXTENSION);
  const path = isPath ? sessionIdOrPath : transcriptPath(sessionIdOrPath, cwd, options.home ?? threadlineHome());
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
