/**
 * The engine's memory-file switch, where a session's memory files and skills are looked for, and the two steps
 * that record them before the first message (docs/MEMORY.md).
 */
import { threadlineHome, userHome } from "../home/index.js";
import type { EngineEvent } from "../loop/events.js";
import type { TurnRecorder } from "../loop/turn-recorder.js";
import {
  attachmentExtra,
  createSkillTool,
  loadSkills,
  MEMORY_ATTACHMENT_TYPE,
  MemoryFiles,
  type UserPlaces,
} from "../memory/index.js";
import { createAttachmentEntry } from "../messages/index.js";
import type { AnyTool } from "../tools/index.js";
import type { QueryEngineOptions } from "./engine-options.js";

export type { MemoryFiles } from "../memory/index.js";

/** Environment variable that turns memory files off when set to 1 (or true). */
export const DISABLE_MEMORY_ENV = "THREADLINE_DISABLE_MEMORY";

/** Memory files are on unless the option says false or the environment turns them off. */
export function memoryFilesEnabled(option: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (option === false) return false;
  const flag = env[DISABLE_MEMORY_ENV]?.trim().toLowerCase();
  return !(flag === "1" || flag === "true");
}

/** A session's memory files as its options ask (undefined when off: `memoryFiles: false` or the env flag). */
export function memoryFilesForSession(
  options: Pick<QueryEngineOptions, "memoryFiles" | "additionalDirectories" | "home">,
  cwd: string,
  env: NodeJS.ProcessEnv,
): MemoryFiles | undefined {
  if (!memoryFilesEnabled(options.memoryFiles, env)) return undefined;
  return memoryFilesFor(cwd, options.additionalDirectories ?? [], options.home, env);
}

/** The memory files of `cwd`: the user's home from the env, threadline's home from `home` or the env. */
export function memoryFilesFor(
  cwd: string,
  additionalDirectories: readonly string[],
  home: string | undefined,
  env: NodeJS.ProcessEnv,
): MemoryFiles {
  return new MemoryFiles({
    cwd,
    additionalDirectories,
    userHome: userHome(env),
    threadlineHome: home ?? threadlineHome(env),
  });
}

/** Where skills and custom commands are looked for: the workspace's `.claude/`, `~/.claude/`, threadline's home. */
export function userPlaces(cwd: string, home: string | undefined, env: NodeJS.ProcessEnv): UserPlaces {
  return { cwd, userHome: userHome(env), threadlineHome: home ?? threadlineHome(env) };
}

/**
 * The memory files known at session start, recorded once before the session's first message so they sit at
 * one fixed place in the first request; a resumed session already holds them and reads nothing.
 */
export async function* recordStartingMemory(memory: MemoryFiles, recorder: TurnRecorder): AsyncGenerator<EngineEvent> {
  const found = await memory.start(recorder.timeline.entries);
  for (const line of found.notices) yield recorder.notice("warning", line);
  if (found.attachment === undefined) return;
  const entry = createAttachmentEntry(
    recorder.context(),
    MEMORY_ATTACHMENT_TYPE,
    found.attachment.content,
    attachmentExtra(found.attachment),
  );
  recorder.append(entry);
  yield { type: "entry", entry };
}

/**
 * The Skill tool for the skills of the options' places (`home`, `env`) and enabled plugins
 * (`pluginSkillFolders`), added to `tools` unless the name is taken.
 */
export async function* addSkillTool(
  options: Pick<QueryEngineOptions, "home" | "env" | "pluginSkillFolders" | "commandSkills">,
  cwd: string,
  tools: Map<string, AnyTool>,
  recorder: TurnRecorder,
): AsyncGenerator<EngineEvent> {
  const places = userPlaces(cwd, options.home, options.env ?? process.env);
  const found = await loadSkills(places, options.pluginSkillFolders ?? []);
  for (const line of found.notices) yield recorder.notice("warning", line);
  const names = new Set(found.skills.map((skill) => skill.name));
  const commands = (options.commandSkills ?? []).filter((command) => !names.has(command.name));
  const tool = createSkillTool([...found.skills, ...commands]);
  if (tool !== undefined && !tools.has(tool.name)) tools.set(tool.name, tool as AnyTool);
}
