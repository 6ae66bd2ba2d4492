/**
 * Where threadline keeps its files: `$THREADLINE_HOME`, else `.threadline` in the user's home. The one rule:
 * transcripts (sessions/), settings (settings/), memory files, skills and MCP servers all ask it, so a test or a
 * person who sets `HOME` or `THREADLINE_HOME` moves every one of them together (docs/ARCHITECTURE.md, "Where a
 * session lives").
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** Environment variable that moves threadline's home directory (default `~/.threadline`). */
export const THREADLINE_HOME_ENV = "THREADLINE_HOME";

/** Name of the home directory under the user's home when `THREADLINE_HOME` is unset. */
export const DEFAULT_THREADLINE_DIR = ".threadline";

/** The user's home: `$HOME` when set and not empty, else the operating system's answer. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME;
  return home !== undefined && home !== "" ? home : homedir();
}

/** threadline's home directory: `$THREADLINE_HOME` when set and not empty, else `<user home>/.threadline`. */
export function threadlineHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[THREADLINE_HOME_ENV];
  if (override !== undefined && override !== "") return override;
  return join(userHome(env), DEFAULT_THREADLINE_DIR);
}
