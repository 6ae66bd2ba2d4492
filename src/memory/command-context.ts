/**
 * What a custom command's prompt pulls in before it is sent, as Claude Code does (docs/MEMORY.md "Custom
 * commands"): each `` !`cmd` `` (and each fenced block whose info string is `!`) is replaced by the command's
 * output, run only when the Bash tool's own permission check would let it run with the command's
 * `allowed-tools` added to the session's rules (a read-only `git diff` runs; bypass mode runs all but what a
 * deny rule names); else it is replaced by a line saying so, and nothing runs. Each `@path`
 * naming a file inside the workspace adds that file's contents after the prompt. Skills run as `/name` are
 * commands too (`skillCommands`).
 */
import { execFile } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import {
  allowRuleMatches,
  bashTool,
  checkPermission,
  type PermissionPolicy,
  parsePermissionRule,
  type WorkspaceScope,
} from "../tools/index.js";
import type { CustomCommand } from "./custom-commands.js";
import { type Skill, skillBody } from "./skills.js";

/** Longest a `` !`cmd` `` may run: 30 seconds. */
export const COMMAND_SHELL_TIMEOUT_MS = 30_000;

/** Most characters of one `` !`cmd` ``'s output, and of one `@file`, put in the prompt: 40,000. */
export const COMMAND_CONTEXT_MAX_CHARS = 40_000;

export interface CommandContextOptions {
  cwd: string;
  /** The environment `` !`cmd` `` runs with: the tools' one, secrets removed (tools/secret-env.ts). */
  env: Readonly<Record<string, string>>;
  /** The command's `allowed-tools`. */
  allowedTools: readonly string[];
  /**
   * Whether a `` !`cmd` `` may run: the trust gate's `commandShell` question for a project's command (docs/TRUST.md).
   * Default: every one may (the user's own commands).
   */
  mayRunShell?: (command: string) => boolean;
  /**
   * The session's permission policy and workspace: a `` !`cmd` `` runs when the Bash tool's check allows it
   * with `allowedTools` added (nobody is asked). Absent: only the command's `allowedTools` let one run.
   */
  permission?: { policy: Pick<PermissionPolicy, "mode" | "allow" | "deny" | "home">; scope: WorkspaceScope };
}

export interface CommandContext {
  prompt: string;
  /** One line per thing not done (a command not allowed, a file too large). */
  notices: string[];
}

/** Whether `allowedTools` allow running `command` with Bash (the permission rules' own matcher). */
export function shellAllowed(command: string, allowedTools: readonly string[]): boolean {
  return allowedTools.some((text) => {
    const rule = parsePermissionRule(text);
    return rule !== undefined && allowRuleMatches(rule, "Bash", { command });
  });
}

function runShell(command: string, options: CommandContextOptions): Promise<string> {
  return new Promise((done) => {
    execFile(
      "bash",
      ["-c", command],
      { cwd: options.cwd, env: { ...options.env }, timeout: COMMAND_SHELL_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const text = `${stdout}${stderr}`.trimEnd();
        const failed = error !== null ? `\n(exit ${typeof error.code === "number" ? error.code : "error"})` : "";
        done(cap(text) + failed);
      },
    );
  });
}

function cap(text: string): string {
  return text.length > COMMAND_CONTEXT_MAX_CHARS
    ? `${text.slice(0, COMMAND_CONTEXT_MAX_CHARS)}\n… (${text.length - COMMAND_CONTEXT_MAX_CHARS} more characters not shown)`
    : text;
}

/** Whether a `` !`cmd` `` may run: the session's rules and mode with the command's `allowed-tools` added. */
async function shellMayRun(command: string, options: CommandContextOptions): Promise<boolean> {
  if (options.permission === undefined) return shellAllowed(command, options.allowedTools);
  const { policy, scope } = options.permission;
  const decision = await checkPermission(
    bashTool,
    { command },
    {
      mode: policy.mode,
      allow: [...policy.allow, ...options.allowedTools],
      deny: policy.deny,
      ...(policy.home !== undefined ? { home: policy.home } : {}),
    },
    scope,
  );
  return decision.behavior === "allow";
}

/** `` !`cmd` `` inline, and a fenced block whose info string is `!` (its lines are one script), as Claude Code runs them. */
const SHELL_PATTERN = /^```!\s*\n([\s\S]*?)^```[ \t]*$|!`([^`\n]+)`/gm;

/** The `` !`cmd` `` outputs and `@file` contents of an expanded command prompt. */
export async function expandCommandContext(prompt: string, options: CommandContextOptions): Promise<CommandContext> {
  const notices: string[] = [];
  let text = prompt;
  for (const match of [...prompt.matchAll(SHELL_PATTERN)]) {
    const command = (match[1] ?? match[2] ?? "").trim();
    if (command === "") continue;
    let output: string;
    if (options.mayRunShell !== undefined && !options.mayRunShell(command)) {
      output = `(not run: \`${command}\` is the project's shell and this folder is not trusted)`;
      notices.push(
        `command: !\`${command}\` not run: this folder is not trusted (run with --trust-folder, or answer yes to the trust question)`,
      );
    } else if (await shellMayRun(command, options)) output = await runShell(command, options);
    else {
      output = `(not run: \`${command}\` is not allowed by this command's allowed-tools)`;
      notices.push(`command: !\`${command}\` not run: its allowed-tools do not allow Bash(${command})`);
    }
    text = text.replace(match[0], () => output);
  }
  const files: string[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(/(?:^|\s)@([^\s`'"<>]+)/g)) {
    const path = await workspaceFile(match[1]!, options.cwd);
    if (path === undefined || seen.has(path)) continue;
    seen.add(path);
    const contents = await readFile(path, "utf8");
    if (contents.length > COMMAND_CONTEXT_MAX_CHARS)
      notices.push(`command: @${relative(options.cwd, path)} is cut to ${COMMAND_CONTEXT_MAX_CHARS} characters`);
    files.push(`<file path="${relative(options.cwd, path)}">\n${cap(contents)}\n</file>`);
  }
  return { prompt: files.length > 0 ? `${text}\n\n${files.join("\n\n")}` : text, notices };
}

/** The file an `@mention` names inside the workspace (trailing punctuation forgiven); else undefined. */
async function workspaceFile(mention: string, cwd: string): Promise<string | undefined> {
  for (const candidate of [mention, mention.replace(/[.,;:!?)\]]+$/, "")]) {
    const path = resolve(cwd, candidate);
    const inside = relative(cwd, path);
    if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) continue;
    try {
      if ((await stat(path)).isFile()) return path;
    } catch {
      // not a file: an email address, a handle, a decorator
    }
  }
  return undefined;
}

/** Skills as `/name` commands (their SKILL.md body is the prompt, with the folder it lives in). */
export async function skillCommands(skills: readonly Skill[]): Promise<CustomCommand[]> {
  return Promise.all(
    skills.map(async (skill) => ({
      name: skill.name,
      description: skill.description,
      ...(skill.argumentHint !== undefined ? { argumentHint: skill.argumentHint } : {}),
      allowedTools: skill.allowedTools,
      ...(skill.model !== undefined ? { model: skill.model } : {}),
      modelInvocable: skill.modelInvocable,
      body: `Base directory for this skill: ${skill.directory}\n\n${await skillBody(skill)}`,
      path: skill.path,
      scope: skill.scope,
      ...(skill.projectCode === true ? { projectCode: true } : {}),
      skillDirectory: skill.directory,
    })),
  );
}
