/**
 * The `Skill` tool: its description lists every skill's name and description, fixed when the session's
 * tools are made (so the cached tools block never changes mid-session); a call returns the skill's
 * SKILL.md body with the folder it lives in, so the model can Read the files beside it.
 */
import * as z from "zod";
import type { Tool } from "../tools/index.js";
import { type Skill, skillBody } from "./skills.js";

const inputSchema = z.strictObject({
  skill: z.string().min(1).describe("The name of the skill to load, as listed in this tool's description."),
});

/**
 * The skill a call names: by its folder name first (Claude Code's name for it), then by its front matter `name`,
 * then a plugin's skill by its folder name without the plugin's prefix when only one plugin has it.
 */
export function findSkill(skills: readonly Skill[], name: string): Skill | undefined {
  const wanted = name.trim().replace(/^\//, "");
  const exact = skills.find((skill) => skill.name === wanted) ?? skills.find((skill) => skill.alias === wanted);
  if (exact !== undefined) return exact;
  const bare = skills.filter((skill) => skill.name.endsWith(`:${wanted}`));
  return bare.length === 1 ? bare[0] : undefined;
}

/** The tool for `skills`; undefined when none may be invoked by the model (no tool is offered then). */
export function createSkillTool(all: readonly Skill[]): Tool<z.infer<typeof inputSchema>> | undefined {
  const skills = all.filter((skill) => skill.modelInvocable);
  if (skills.length === 0) return undefined;
  const listing = skills.map((skill) => `- ${skill.name}: ${skill.description}`).join("\n");
  return {
    name: "Skill",
    description: `Load a skill: instructions for a kind of task, written by the user or the project. Call it when a task matches a skill's description, before starting the task; the result holds the skill's instructions and the folder with its other files.\n\nAvailable skills:\n${listing}`,
    inputSchema,
    isReadOnly: () => true,
    // A loaded skill is instructions, like a memory file: never cleared as an old tool result.
    compactable: false,
    async call(input) {
      const skill = findSkill(skills, input.skill);
      if (skill === undefined)
        return {
          content: `Error: no skill named "${input.skill}". Available: ${skills.map((known) => known.name).join(", ")}`,
          isError: true,
        };
      const body = skill.render !== undefined ? await skill.render() : await skillBody(skill);
      return { content: `Skill "${skill.name}" (base directory: ${skill.directory}):\n\n${body}` };
    },
  };
}
