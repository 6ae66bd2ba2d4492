/**
 * Turns the `inspect` argument into a file: a path as given, else a session id looked up in threadline's
 * project folders (this cwd first, then all), else in Claude Code's.
 */
import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { TRANSCRIPT_EXTENSION, threadlineHome, transcriptPath } from "../../transcript/index.js";

export type ResolvedTranscript = { ok: true; path: string } | { ok: false; error: string };

/** Where `argument` points. `cwd` defaults to `process.cwd()`; `env.HOME` (else the OS home) locates `~/.claude`. */
export async function resolveTranscript(
  argument: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<ResolvedTranscript> {
  if (looksLikePath(argument) || (await isFile(argument))) {
    const info = await stat(argument).catch(() => null);
    if (info === null) return { ok: false, error: `no such file: ${argument}` };
    if (!info.isFile()) return { ok: false, error: `not a file: ${argument}` };
    return { ok: true, path: argument };
  }
  const fileName = `${argument}${TRANSCRIPT_EXTENSION}`;
  const home = threadlineHome(env);
  const inThisProject = transcriptPath(argument, cwd, home);
  if (await isFile(inThisProject)) return { ok: true, path: inThisProject };
  const threadlineProjects = join(home, "projects");
  const claudeProjects = join(env.HOME ?? homedir(), ".claude", "projects");
  for (const projects of [threadlineProjects, claudeProjects]) {
    const found = await findInProjects(projects, fileName);
    if (found !== null) return { ok: true, path: found };
  }
  return {
    ok: false,
    error: `no transcript for session ${argument} under ${threadlineProjects} or ${claudeProjects}`,
  };
}

function looksLikePath(argument: string): boolean {
  return argument.includes("/") || argument.includes("\\") || argument.endsWith(TRANSCRIPT_EXTENSION);
}

async function isFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ?? false;
}

async function findInProjects(projects: string, fileName: string): Promise<string | null> {
  const folders = await readdir(projects, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory()) continue;
    const candidate = join(projects, folder.name, fileName);
    if (await isFile(candidate)) return candidate;
  }
  return null;
}
