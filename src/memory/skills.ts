/**
 * Skills in Claude Code's format: a folder `<name>/SKILL.md` under `.claude/skills/` (the project's), the
 * user's `~/.claude/skills/` or threadline's home `skills/`. Front matter `name` and `description`; only
 * those are listed to the model (in the Skill tool's description), the body is loaded when the model asks
 * for it. A project skill overrides a user skill of the same name. docs/MEMORY.md "Skills".
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseFrontMatter, stringField } from "./front-matter.js";
import { configFolders, type UserPlaces } from "./user-folders.js";

export interface Skill {
  name: string;
  description: string;
  /** The folder holding SKILL.md (files beside it belong to the skill). */
  directory: string;
  /** Path of SKILL.md. */
  path: string;
  scope: "user" | "project";
}

export interface SkillsFound {
  skills: Skill[];
  notices: string[];
}

async function folders(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** Every skill of the places, sorted by name (a stable order: the tool description never reorders). */
export async function loadSkills(places: UserPlaces): Promise<SkillsFound> {
  const byName = new Map<string, Skill>();
  const notices: string[] = [];
  for (const folder of configFolders(places, "skills")) {
    for (const name of await folders(folder.path)) {
      const directory = join(folder.path, name);
      const path = join(directory, "SKILL.md");
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch {
        continue; // a folder without SKILL.md is not a skill
      }
      const parsed = await parseFrontMatter(text);
      if (parsed.problem !== undefined)
        notices.push(`skills: ${path}: ${parsed.problem}; listed it by its folder name`);
      const skillName = stringField(parsed.data, "name") ?? name;
      const description =
        stringField(parsed.data, "description") ?? firstLine(parsed.body) ?? "(no description in SKILL.md)";
      byName.set(skillName, { name: skillName, description, directory, path, scope: folder.scope });
    }
  }
  return { skills: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), notices };
}

function firstLine(body: string): string | undefined {
  const line = body
    .split("\n")
    .map((text) => text.replace(/^#+\s*/, "").trim())
    .find((text) => text !== "");
  return line === undefined ? undefined : line.slice(0, 200);
}

/** The body of a skill's SKILL.md (front matter removed), read now. */
export async function skillBody(skill: Skill): Promise<string> {
  return (await parseFrontMatter(await readFile(skill.path, "utf8"))).body.trim();
}
