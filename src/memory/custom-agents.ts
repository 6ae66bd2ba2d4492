/**
 * Custom subagents in Claude Code's format: Markdown files under `.claude/agents/` (the project's),
 * `~/.claude/agents/`, threadline's home `agents/` or an enabled plugin's `agents/` (named `<plugin>:<name>`).
 * Front matter `name` (default: the file's name), `description` (how the model chooses it), `tools` (a
 * comma-separated list or YAML list of tool names; default all), `model` (`inherit`, an alias `sonnet` /
 * `opus` / `haiku`, or a model id); the body is the subagent's system prompt. A project agent overrides a
 * user agent of the same name. Other front matter keys are named as not acted on, one line per key however many files use it. docs/PLUGINS.md.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { confinedPath } from "../trust/index.js";
import { listField, parseFrontMatter, stringField } from "./front-matter.js";
import { markdownFiles } from "./markdown-files.js";
import { type ConfigScope, configFolders, configRoots, type PluginFolder, type UserPlaces } from "./user-folders.js";

/** A subagent type read from a file (the engine's `SubagentType` shape, plus where it came from). */
export interface CustomAgent {
  name: string;
  description: string;
  systemPrompt: string;
  /** Tool names it may use; undefined means all of the parent's. */
  tools?: string[];
  /** Undefined means the parent's model (`inherit` or no `model:`). */
  model?: string;
  path: string;
  scope: ConfigScope;
}

export interface AgentsFound {
  agents: CustomAgent[];
  notices: string[];
}

/** Claude Code's model aliases, as the newest model of each family threadline's table knows. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "claude-sonnet-5-5",
  opus: "claude-opus-5-5",
  haiku: "claude-haiku-5-5",
  // Claude Code 2.1.328's Agent tool offers `fable` too (its `model` enum).
  fable: "claude-fable-5-2",
};

/** A `model:` value as a model id: aliases resolved, `inherit` (or nothing) undefined. */
export function resolveModelAlias(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === "" || value.trim() === "inherit") return undefined;
  return MODEL_ALIASES[value.trim().toLowerCase()] ?? value.trim();
}

/** Front matter keys of an agent file threadline acts on; any other is named once. */
const AGENT_KEYS = new Set(["name", "description", "tools", "model"]);

/** Claude Code's names for tools threadline calls otherwise. */
const TOOL_RENAMES: Readonly<Record<string, string>> = { Task: "Agent" };

/** Every custom agent of the places and plugins; later places (the project) override earlier ones by name. */
export async function loadCustomAgents(
  places: UserPlaces,
  plugins: readonly PluginFolder[] = [],
): Promise<AgentsFound> {
  const byName = new Map<string, CustomAgent>();
  const notices: string[] = [];
  const ignoredKeys = new Map<string, string[]>();
  const roots = [
    ...plugins.map((plugin) => ({ path: plugin.path, scope: "plugin" as const, namespace: plugin.namespace })),
    ...configFolders(places, "agents").map((folder) => ({ ...folder, namespace: undefined })),
  ];
  for (const folder of roots) {
    for (const path of await markdownFiles(folder.path)) {
      // An agent file symlinked out of the workspace and config folders is refused, as skills are (docs/TRUST.md).
      const confined = confinedPath(
        path,
        folder.namespace !== undefined ? [...configRoots(places), folder.path] : configRoots(places),
      );
      if ("refused" in confined) {
        notices.push(`agents: ${confined.refused}; not offered as a subagent type`);
        continue;
      }
      const parsed = await parseFrontMatter(await readFile(path, "utf8"));
      if (parsed.problem !== undefined) {
        notices.push(`agents: ${path}: ${parsed.problem}; not offered as a subagent type`);
        continue;
      }
      const local = stringField(parsed.data, "name") ?? basename(path, ".md");
      const name = folder.namespace !== undefined ? `${folder.namespace}:${local}` : local;
      const description = stringField(parsed.data, "description");
      if (description === undefined) {
        notices.push(`agents: ${path}: no description in its front matter; not offered as a subagent type`);
        continue;
      }
      const ignored = Object.keys(parsed.data).filter((key) => !AGENT_KEYS.has(key));
      for (const key of ignored) ignoredKeys.set(key, [...(ignoredKeys.get(key) ?? []), path]);
      const hasTools = parsed.data.tools !== undefined && parsed.data.tools !== "";
      const tools = listField(parsed.data, "tools").map((tool) => {
        const bare = tool.replace(/\(.*$/s, "").trim();
        return TOOL_RENAMES[bare] ?? bare;
      });
      const model = resolveModelAlias(stringField(parsed.data, "model"));
      byName.set(name, {
        name,
        description: description.replace(/\s+/g, " "),
        systemPrompt: parsed.body.trim(),
        ...(hasTools ? { tools } : {}),
        ...(model !== undefined ? { model } : {}),
        path,
        scope: folder.scope,
      });
    }
  }
  // One line per key, not per file: thirteen plugins' `color:` is one thing to say (issue 57).
  for (const [key, paths] of ignoredKeys)
    notices.push(
      paths.length === 1
        ? `agents: ${paths[0]}: ${key} not acted on by threadline`
        : `agents: ${key} not acted on by threadline (${paths.length} files, the first ${paths[0]})`,
    );
  return { agents: [...byName.values()], notices };
}
