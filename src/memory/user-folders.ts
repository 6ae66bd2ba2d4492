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
  name: "skills" | "commands",
): Array<{ path: string; scope: "user" | "project" }> {
  return [
    { path: join(places.userHome, ".claude", name), scope: "user" },
    { path: join(places.threadlineHome, name), scope: "user" },
    { path: join(places.cwd, ".claude", name), scope: "project" },
  ];
}
