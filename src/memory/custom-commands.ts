/**
 * Custom slash commands in Claude Code's format: Markdown files under `.claude/commands/` (the project's),
 * `~/.claude/commands/`, threadline's home `commands/` or an enabled plugin's `commands/` (named
 * `<plugin>:<name>`, as Claude Code names them); a file in a subfolder is `folder:name`. Front matter
 * `description` (listed in /help), `argument-hint`, `allowed-tools` (permission rules granted while the
 * command's turn runs, and the rules its `` !`cmd` `` lines must pass), `model` (that turn's model),
 * `disable-model-invocation`. `$ARGUMENTS` in the body is replaced by everything after the command, `$1`…`$9`
 * by its words; arguments given to a body that names none are appended. `` !`cmd` `` and `@file` are expanded
 * by command-context.ts. docs/MEMORY.md "Custom commands".
 */
import { readFile } from "node:fs/promises";
import { relative, sep } from "node:path";
import { confinedPath } from "../trust/index.js";
import { booleanField, listField, parseFrontMatter, stringField } from "./front-matter.js";
import { markdownFiles } from "./markdown-files.js";
import { type ConfigScope, configFolders, configRoots, type PluginFolder, type UserPlaces } from "./user-folders.js";

export interface CustomCommand {
  /** Invoked as `/<name>`; `ns:name` for a file in a subfolder. */
  name: string;
  description: string;
  argumentHint?: string;
  /** Permission rules allowed while the command's turn runs (`Bash(git status:*)`, `Read`). */
  allowedTools: string[];
  /** `model:` in the front matter: the model of this command's turn. Default the session's. */
  model?: string;
  /**
   * `disable-model-invocation: true` (or `hide-from-slash-command-tool: "true"`) makes this false: a plugin's
   * command is then not offered in the Skill tool. Default true.
   */
  modelInvocable?: boolean;
  /** The prompt template. */
  body: string;
  path: string;
  scope: ConfigScope;
  /**
   * The project's own (its `.claude/commands/`, a skill of its own, a plugin its settings enabled): its
   * `` !`cmd` `` runs only in a trusted folder (docs/TRUST.md). Default false.
   */
  projectCode?: boolean;
  /** Set by the CLI for project code: the trust gate's `commandShell` question (command-context.ts). */
  mayRunShell?: (command: string) => boolean;
  /** A plugin's command: the plugin's folder (`${CLAUDE_PLUGIN_ROOT}`, expanded in the body and allowed-tools, and set for its shell). */
  pluginRoot?: string;
  /** For a skill run as `/name`: its folder (the prompt names it, as the Skill tool's result does). */
  skillDirectory?: string;
}

/** How a plugin's files name their own folder. */
const PLUGIN_ROOT_TEXT = `\${CLAUDE_PLUGIN_ROOT}`;

export interface CommandsFound {
  commands: CustomCommand[];
  notices: string[];
}

/** Every custom command of the places, by name; a project command overrides a user command of its name. */
export async function loadCustomCommands(
  places: UserPlaces,
  plugins: readonly PluginFolder[] = [],
): Promise<CommandsFound> {
  const byName = new Map<string, CustomCommand>();
  const notices: string[] = [];
  const roots = [
    ...plugins.map((plugin) => ({
      path: plugin.path,
      scope: "plugin" as const,
      namespace: plugin.namespace,
      projectCode: plugin.projectCode === true,
      root: plugin.root,
    })),
    ...configFolders(places, "commands").map((folder) => ({
      ...folder,
      namespace: undefined,
      projectCode: folder.scope === "project",
      root: undefined,
    })),
  ];
  for (const folder of roots) {
    for (const path of await markdownFiles(folder.path)) {
      const local = relative(folder.path, path).slice(0, -".md".length).split(sep).join(":");
      const name = folder.namespace !== undefined ? `${folder.namespace}:${local}` : local;
      const confined = confinedPath(
        path,
        folder.namespace !== undefined ? [...configRoots(places), folder.path] : configRoots(places),
      );
      if ("refused" in confined) {
        notices.push(`commands: ${confined.refused}; command not loaded`);
        continue;
      }
      const parsed = await parseFrontMatter(await readFile(path, "utf8"));
      if (parsed.problem !== undefined)
        notices.push(`commands: ${path}: ${parsed.problem}; kept the whole file as the prompt`);
      const argumentHint = stringField(parsed.data, "argument-hint");
      const model = stringField(parsed.data, "model");
      // `${CLAUDE_PLUGIN_ROOT}` is the plugin's folder in its commands, as in its hooks (Claude Code expands both).
      const root = folder.root;
      const expandRoot = (text: string) => (root === undefined ? text : text.replaceAll(PLUGIN_ROOT_TEXT, root));
      byName.set(name, {
        name,
        description: stringField(parsed.data, "description") ?? firstLine(parsed.body) ?? "(custom command)",
        ...(argumentHint !== undefined ? { argumentHint } : {}),
        allowedTools: listField(parsed.data, "allowed-tools").map(expandRoot),
        ...(model !== undefined ? { model } : {}),
        modelInvocable: !(
          booleanField(parsed.data, "disable-model-invocation") ||
          booleanField(parsed.data, "hide-from-slash-command-tool")
        ),
        body: expandRoot(parsed.body.trim()),
        path,
        scope: folder.scope,
        ...(root !== undefined ? { pluginRoot: root } : {}),
        ...(folder.projectCode ? { projectCode: true } : {}),
      });
    }
  }
  return { commands: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)), notices };
}

function firstLine(body: string): string | undefined {
  const line = body
    .split("\n")
    .map((text) => text.replace(/^#+\s*/, "").trim())
    .find((text) => text !== "");
  return line === undefined ? undefined : line.slice(0, 80);
}

/** The words of an argument string; "double" or 'single' quotes keep spaces inside one word. */
export function argumentWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}

/** The prompt `command` makes with `args` (the text after the command name). */
export function expandCommand(command: CustomCommand, args: string): string {
  const trimmed = args.trim();
  const words = argumentWords(trimmed);
  const usesArguments = /\$ARGUMENTS|\$[1-9]/.test(command.body);
  const expanded = command.body
    .replaceAll("$ARGUMENTS", trimmed)
    .replace(/\$([1-9])/g, (_, index: string) => words[Number(index) - 1] ?? "");
  if (!usesArguments && trimmed !== "") return `${expanded}\n\nARGUMENTS: ${trimmed}`;
  return expanded;
}

/**
 * The command `/name` names: the one of that name; else, as Claude Code resolves `/commit`, a plugin's command
 * whose name ends in `:name` when exactly one plugin has one. Undefined for none (or two).
 */
export function findCommand(commands: readonly CustomCommand[], name: string): CustomCommand | undefined {
  const exact = commands.find((candidate) => candidate.name === name);
  if (exact !== undefined) return exact;
  const bare = commands.filter((candidate) => candidate.scope === "plugin" && candidate.name.endsWith(`:${name}`));
  return bare.length === 1 ? bare[0] : undefined;
}

/** A line naming a custom command (`/name args`, `/ns:name`): the command and its prompt; else undefined. */
export function customCommandPrompt(
  line: string,
  commands: readonly CustomCommand[],
): { command: CustomCommand; prompt: string } | undefined {
  const match = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (match === null) return undefined;
  const command = findCommand(commands, match[1]!);
  if (command === undefined) return undefined;
  return { command, prompt: expandCommand(command, match[2] ?? "") };
}
