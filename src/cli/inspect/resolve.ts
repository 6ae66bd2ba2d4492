/**
 * Turns the `inspect` argument into a file: a path as given, else a session id looked up in threadline's
 * project folders (this cwd first, then all), else in Claude Code's.
 */
import { readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { threadlineHome, userHome } from "../../home/index.js";
import { isTranscriptPath, MIN_ID_PREFIX_LENGTH } from "../../sessions/index.js";
import { TRANSCRIPT_EXTENSION, transcriptPath } from "../../transcript/index.js";

export type ResolvedTranscript = { ok: true; path: string } | { ok: false; error: string };

/** Where `argument` points. `cwd` defaults to `process.cwd()`; `env.HOME` (else the OS home) locates `~/.claude`. */
export async function resolveTranscript(
  argument: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<ResolvedTranscript> {
  if (isTranscriptPath(argument) || (await isFile(argument))) {
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
  const claudeProjects = join(userHome(env), ".claude", "projects");
  for (const projects of [threadlineProjects, claudeProjects]) {
    const found = await findInProjects(projects, fileName);
    if (found !== null) return { ok: true, path: found };
  }
  // A unique prefix of a session id, as `--resume` accepts (this project's sessions first, then all).
  if (new RegExp(`^[0-9a-f-]{${MIN_ID_PREFIX_LENGTH},}$`, "i").test(argument)) {
    const prefix = argument.toLowerCase();
    const here = await prefixMatches(dirname(inThisProject), prefix);
    const matches = here.length > 0 ? here : await projectsPrefixMatches([threadlineProjects, claudeProjects], prefix);
    if (matches.length === 1 && matches[0] !== undefined) return { ok: true, path: matches[0] };
    if (matches.length > 1)
      return { ok: false, error: `session id prefix ${argument} matches ${matches.length} sessions; type more of it` };
  }
  return {
    ok: false,
    error: `no transcript for session ${argument} under ${threadlineProjects} or ${claudeProjects}`,
  };
}

/** Transcripts in `folder` whose session id starts with `prefix`. */
async function prefixMatches(folder: string, prefix: string): Promise<string[]> {
  const files = await readdir(folder).catch(() => [] as string[]);
  return files
    .filter((name) => name.endsWith(TRANSCRIPT_EXTENSION) && name.toLowerCase().startsWith(prefix))
    .map((name) => join(folder, name));
}

async function projectsPrefixMatches(roots: readonly string[], prefix: string): Promise<string[]> {
  const matches: string[] = [];
  for (const projects of roots) {
    const folders = await readdir(projects, { withFileTypes: true }).catch(() => []);
    for (const folder of folders)
      if (folder.isDirectory()) matches.push(...(await prefixMatches(join(projects, folder.name), prefix)));
  }
  return matches;
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
