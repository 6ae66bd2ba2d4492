/** Permission modes and rules: decides whether a tool call may run, asking a person when the policy says so. */
import { homedir } from "node:os";
import { splitBashChain } from "../shell/bash-chain.js";
import type { AnyTool, WorkspaceScope } from "../types.js";
import type { RuleScope } from "./permission-path-rules.js";
import { allowRuleMatches, alwaysAllowRule, denyRuleMatches, parsePermissionRule } from "./permission-rules.js";

/**
 * `default`: read-only calls run, others ask. `acceptEdits`: file edits (Write, Edit) run too, Bash still asks.
 * `bypassPermissions`: everything not denied runs. `plan` (Claude Code's plan mode): only read-only calls run;
 * everything else is refused without asking, whatever allow rules or hooks say (docs/TOOLS.md "Plan mode").
 */
export type PermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan";

export interface PermissionRequest {
  tool: string;
  input: unknown;
  /** One line for a person: `Bash(npm install)`, `Write(/ws/a.ts)`. */
  summary: string;
}

/**
 * A person's answer to a question: `true` allows, `false` denies, and a denial may carry what the person
 * typed for the model ("no, run the tests first"), which the model reads in the tool's result.
 */
export type PermissionReply = boolean | { allow: false; reason: string };

/**
 * A rule as written, or with the settings file it came from: `root` is where its `/path` patterns start
 * (default: the workspace), `source` is named when it denies.
 */
export type PermissionRuleEntry = string | { rule: string; root?: string; source?: string };

export interface PermissionPolicy {
  mode: PermissionMode;
  /** Rules whose calls run without asking (`Read`, `Bash(npm test:*)`). */
  allow: PermissionRuleEntry[];
  /** Rules whose calls never run, in every mode (bypass included); deny wins over everything else. */
  deny: PermissionRuleEntry[];
  /** Rules whose calls always ask, even where an allow rule or the mode would let them run. Default none. */
  askRules?: PermissionRuleEntry[];
  /** Asks a person; resolves true to allow. Without it, calls that need asking are denied. */
  ask?: (request: PermissionRequest) => Promise<PermissionReply>;
  /**
   * A PreToolUse hook's decision for this one call: "allow" skips the question (never a deny or ask rule),
   * "ask" asks even where the mode would allow. Default none.
   */
  hookDecision?: "allow" | "ask";
  /** Home directory for `~/` patterns. Default `os.homedir()`. */
  home?: string;
}

function ruleText(entry: PermissionRuleEntry): string {
  return typeof entry === "string" ? entry : entry.rule;
}

function ruleScope(entry: PermissionRuleEntry, cwd: string, home: string): RuleScope {
  return { cwd, root: typeof entry === "string" ? cwd : (entry.root ?? cwd), home };
}

function firstMatch(
  entries: readonly PermissionRuleEntry[],
  matches: typeof allowRuleMatches,
  toolName: string,
  input: unknown,
  cwd: string,
  home: string,
): PermissionRuleEntry | undefined {
  for (const entry of entries) {
    const rule = parsePermissionRule(ruleText(entry));
    if (rule !== undefined && matches(rule, toolName, input, ruleScope(entry, cwd, home))) return entry;
  }
  return undefined;
}

/**
 * `asked`: a person answered no (the UI says "denied" instead of the text meant for the model), with the
 * `reason` they typed, if any.
 */
export type PermissionDecision =
  | { behavior: "allow" }
  | { behavior: "deny"; message: string; asked?: { reason: string } };

/** Longest argument shown in a summary. */
const SUMMARY_ARGUMENT_CHARS = 200;

/** A short human-readable description of a call, e.g. `Bash(npm test)`. */
export function summarizeToolCall(toolName: string, input: unknown): string {
  let argument = "";
  if (typeof input === "object" && input !== null) {
    const fields = input as Record<string, unknown>;
    const primary = fields.command ?? fields.file_path ?? fields.pattern ?? fields.path;
    argument = typeof primary === "string" ? primary : JSON.stringify(input);
  }
  if (argument.length > SUMMARY_ARGUMENT_CHARS) argument = `${argument.slice(0, SUMMARY_ARGUMENT_CHARS)}…`;
  return `${toolName}(${argument})`;
}

/** Whether `acceptEdits` lets the tool through: it changes the one file it names (Write, Edit; `Tool.traits`). */
function acceptsEdits(tool: AnyTool): boolean {
  const changes = tool.traits?.changesFiles;
  return changes?.kind === "file" && changes.acceptEdits;
}

function isReadOnlyCall(tool: AnyTool, input: unknown, scope: WorkspaceScope | undefined): boolean {
  try {
    return tool.isReadOnly(input, scope);
  } catch {
    return false;
  }
}

/**
 * The parts of a chained Bash command (`git add x && git commit -m y`) as inputs of their own; [] for other
 * tools and for commands that are not a plain chain (bash-chain.ts): those are never allowed part by part.
 */
function chainParts(toolName: string, input: unknown): Array<{ command: string }> {
  if (toolName !== "Bash" || typeof input !== "object" || input === null) return [];
  const command = (input as { command?: unknown }).command;
  if (typeof command !== "string") return [];
  return (splitBashChain(command) ?? []).map((part) => ({ command: part }));
}

/**
 * Decides one call. Order: deny rules (in every mode), ask rules and a hook's "ask", a hook's "allow", bypass
 * mode (or a tool that checks each of its own actions), allow rules, read-only calls (read-only inside `scope`,
 * the workspace, when given), acceptEdits, then ask.
 */
export async function checkPermission(
  tool: AnyTool,
  input: unknown,
  policy: PermissionPolicy,
  scope?: WorkspaceScope,
): Promise<PermissionDecision> {
  const summary = summarizeToolCall(tool.name, input);
  const cwd = scope?.cwd ?? process.cwd();
  const home = policy.home ?? homedir();
  const denied = firstMatch(policy.deny, denyRuleMatches, tool.name, input, cwd, home);
  if (denied !== undefined) {
    const from = typeof denied !== "string" && denied.source !== undefined ? ` (${denied.source})` : "";
    return {
      behavior: "deny",
      message: `Permission denied: ${summary} is blocked by the deny rule "${ruleText(denied)}"${from}. Do not retry it; find another way or ask the user.`,
    };
  }
  if (policy.mode === "plan") return planModeDecision(tool, input, scope, summary);
  const parts = chainParts(tool.name, input);
  const mustAsk =
    policy.hookDecision === "ask" ||
    firstMatch(policy.askRules ?? [], allowRuleMatches, tool.name, input, cwd, home) !== undefined ||
    parts.some((part) => firstMatch(policy.askRules ?? [], allowRuleMatches, tool.name, part, cwd, home) !== undefined);
  if (!mustAsk) {
    if (policy.hookDecision === "allow") return { behavior: "allow" };
    if (policy.mode === "bypassPermissions" || tool.checksOwnPermissions === true) return { behavior: "allow" };
    if (firstMatch(policy.allow, allowRuleMatches, tool.name, input, cwd, home) !== undefined)
      return { behavior: "allow" };
    // A chain runs without asking when every part would on its own: an allow rule, or a read-only part.
    const partAllowed = (part: { command: string }) =>
      firstMatch(policy.allow, allowRuleMatches, tool.name, part, cwd, home) !== undefined ||
      isReadOnlyCall(tool, part, scope);
    if (parts.length > 1 && parts.every(partAllowed)) return { behavior: "allow" };
    if (isReadOnlyCall(tool, input, scope)) return { behavior: "allow" };
    if (policy.mode === "acceptEdits" && acceptsEdits(tool)) return { behavior: "allow" };
  }
  if (policy.ask === undefined) {
    return {
      behavior: "deny",
      message:
        `Permission denied: ${summary} needs approval, but permission mode "${policy.mode}" has no way to ask ` +
        "the user. The user can allow it with an allow rule (e.g. " +
        `"${alwaysAllowRule(tool.name, input) ?? tool.name}") or another permission mode; until then, do not retry this call.`,
    };
  }
  let approved: PermissionReply;
  try {
    approved = await policy.ask({ tool: tool.name, input, summary });
  } catch (error) {
    return {
      behavior: "deny",
      message: `Permission denied: asking the user about ${summary} failed (${(error as Error).message}).`,
    };
  }
  if (approved === true) return { behavior: "allow" };
  const reason = approved === false ? "" : approved.reason.trim();
  return {
    behavior: "deny",
    asked: { reason },
    message:
      reason === ""
        ? `The user denied permission for ${summary}. Do not retry it; ask the user what to do instead.`
        : `The user denied permission for ${summary} and said: ${reason}`,
  };
}

/** Plan mode: read-only calls (inside the workspace when `scope` is given) run; nothing else does, nobody is asked. */
function planModeDecision(
  tool: AnyTool,
  input: unknown,
  scope: WorkspaceScope | undefined,
  summary: string,
): PermissionDecision {
  if (isReadOnlyCall(tool, input, scope)) return { behavior: "allow" };
  return {
    behavior: "deny",
    message:
      `Plan mode: ${summary} was not run; while planning only read-only tools and commands run. ` +
      "Finish the plan and present it to the user; it runs once the user leaves plan mode.",
  };
}
