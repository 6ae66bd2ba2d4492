/** The folders of the user's own configuration: `~/.claude` and threadline's home, in that order. */
import { join } from "node:path";

export interface UserPlaces {
  /** The workspace (its `.claude/` folder is the project's). */
  cwd: string;
  /** The user's home (`~/.claude/`). */
  userHome: string;
  /** threadline's home (skills and commands directly below it). */
  threadlineHome: string;
}

/** `<name>` folders to read, lowest precedence first: the user's two, then the project's. */
export function configFolders(
  places: UserPlaces,
  name: "skills" | "commands" | "agents" | "output-styles",
): Array<{ path: string; scope: "user" | "project" }> {
  return [
    { path: join(places.userHome, ".claude", name), scope: "user" },
    { path: join(places.threadlineHome, name), scope: "user" },
    { path: join(places.cwd, ".claude", name), scope: "project" },
  ];
}

/**
 * Where a skill, command or agent file may really be (symlinks resolved): the workspace and the user's two
 * config folders. Anything else is refused like a Read outside the workspace (trust/confine.ts, docs/TRUST.md).
 */
export function configRoots(places: UserPlaces): string[] {
  return [places.cwd, join(places.userHome, ".claude"), places.threadlineHome];
}

/** A plugin's folder of commands, agents or skills: what is found there is named `<namespace>:<name>`. */
export interface PluginFolder {
  path: string;
  /** The plugin's name. */
  namespace: string;
  /** The plugin's folder: `${CLAUDE_PLUGIN_ROOT}` in its commands. Default none (nothing expanded). */
  root?: string;
  /** The project's settings enabled the plugin: its `` !`cmd` `` is project code (docs/TRUST.md). Default false. */
  projectCode?: boolean;
}

/** Where a command, skill or agent came from. */
export type ConfigScope = "user" | "project" | "plugin";
