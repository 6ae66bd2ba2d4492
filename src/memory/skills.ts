/**
 * Skills in Claude Code's format: a folder `<name>/SKILL.md` under `.claude/skills/` (the project's), the
 * user's `~/.claude/skills/`, threadline's home `skills/` or an enabled plugin's `skills/`. A skill is named by
 * its folder, as Claude Code names it (`skills/hook-development/SKILL.md` is "hook-development" whatever its
 * front matter `name:` says; a plugin's is "<plugin>:<folder>"); front matter `name` is kept only as a second
 * name the Skill tool accepts. Only names and descriptions are listed to the model (in the Skill tool's
 * description), the body is loaded when the model asks for it; `disable-model-invocation: true` keeps a skill
 * out of that list (it is still run as `/name`). A project skill overrides a user skill of the same name, and
 * both override a plugin's. docs/MEMORY.md "Skills".
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { confinedPath } from "../trust/index.js";
import { booleanField, listField, parseFrontMatter, stringField } from "./front-matter.js";
import { type ConfigScope, configFolders, configRoots, type PluginFolder, type UserPlaces } from "./user-folders.js";

export interface Skill {
  /** The folder's name (`<plugin>:<folder>` for a plugin's skill). */
  name: string;
  /** Front matter `name`, when it differs from the folder's: the Skill tool accepts it too. */
  alias?: string;
  description: string;
  argumentHint?: string;
  /** `allowed-tools`: permission rules granted while the skill runs as `/name`. */
  allowedTools: string[];
  /** `model`: the model of a `/name` turn. */
  model?: string;
  /** `disable-model-invocation: true`: not offered to the model, only run as `/name`. */
  modelInvocable: boolean;
  /** The folder holding SKILL.md (files beside it belong to the skill). */
  directory: string;
  /** Path of SKILL.md. */
  path: string;
  scope: ConfigScope;
  /**
   * A plugin command offered as a skill: its prompt, made when the model calls it (`` !`cmd` `` run then).
   * Default none: the SKILL.md body is the prompt.
   */
  render?: () => Promise<string>;
  /** The project's own, or a plugin's the project enabled (its shell waits for trust). Default false. */
  projectCode?: boolean;
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
export async function loadSkills(places: UserPlaces, plugins: readonly PluginFolder[] = []): Promise<SkillsFound> {
  const byName = new Map<string, Skill>();
  const notices: string[] = [];
  const roots = [
    ...plugins.map((plugin) => ({
      path: plugin.path,
      scope: "plugin" as const,
      namespace: plugin.namespace,
      projectCode: plugin.projectCode === true,
    })),
    ...configFolders(places, "skills").map((folder) => ({
      ...folder,
      namespace: undefined,
      projectCode: folder.scope === "project",
    })),
  ];
  for (const folder of roots) {
    for (const name of await folders(folder.path)) {
      const directory = join(folder.path, name);
      const path = join(directory, "SKILL.md");
      // A symlinked folder or SKILL.md that leads out of the workspace and config folders is refused.
      const confined = confinedPath(
        path,
        folder.namespace !== undefined ? [...configRoots(places), folder.path] : configRoots(places),
      );
      if ("refused" in confined) {
        notices.push(`skills: ${confined.refused}; skill not loaded`);
        continue;
      }
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch {
        continue; // a folder without SKILL.md is not a skill
      }
      const parsed = await parseFrontMatter(text);
      if (parsed.problem !== undefined)
        notices.push(`skills: ${path}: ${parsed.problem}; listed it by its folder name`);
      const skillName = folder.namespace !== undefined ? `${folder.namespace}:${name}` : name;
      const declared = stringField(parsed.data, "name");
      const description =
        stringField(parsed.data, "description") ?? firstLine(parsed.body) ?? "(no description in SKILL.md)";
      const argumentHint = stringField(parsed.data, "argument-hint");
      const model = stringField(parsed.data, "model");
      byName.set(skillName, {
        name: skillName,
        ...(declared !== undefined && declared !== skillName ? { alias: declared } : {}),
        description,
        ...(argumentHint !== undefined ? { argumentHint } : {}),
        allowedTools: listField(parsed.data, "allowed-tools"),
        ...(model !== undefined ? { model } : {}),
        modelInvocable: !booleanField(parsed.data, "disable-model-invocation"),
        directory,
        path,
        scope: folder.scope,
        ...(folder.projectCode ? { projectCode: true } : {}),
      });
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
