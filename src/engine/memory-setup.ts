/** The engine's memory-file switch and where a session's memory files are looked for (docs/MEMORY.md). */
import { homedir } from "node:os";
import { MemorySession, type UserPlaces } from "../memory/index.js";
import { threadlineHome } from "../transcript/index.js";

export type { MemorySession } from "../memory/index.js";

/** Environment variable that turns memory files off when set to 1 (or true). */
export const DISABLE_MEMORY_ENV = "THREADLINE_DISABLE_MEMORY";

/** Memory files are on unless the option says false or the environment turns them off. */
export function memoryFilesEnabled(option: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (option === false) return false;
  const flag = env[DISABLE_MEMORY_ENV]?.trim().toLowerCase();
  return !(flag === "1" || flag === "true");
}

/** A memory session for `cwd`: the user's home from `env.HOME`, threadline's home from `home` or the env. */
export function memorySessionFor(
  cwd: string,
  additionalDirectories: readonly string[],
  home: string | undefined,
  env: NodeJS.ProcessEnv,
): MemorySession {
  return new MemorySession({
    cwd,
    additionalDirectories,
    userHome: env.HOME ?? homedir(),
    threadlineHome: home ?? threadlineHome(env),
  });
}

/** Where skills and custom commands are looked for: the workspace's `.claude/`, `~/.claude/`, threadline's home. */
export function userPlaces(cwd: string, home: string | undefined, env: NodeJS.ProcessEnv): UserPlaces {
  return { cwd, userHome: env.HOME ?? homedir(), threadlineHome: home ?? threadlineHome(env) };
}
