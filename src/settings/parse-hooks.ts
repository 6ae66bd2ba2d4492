/**
 * A settings file's `hooks` (docs/HOOKS.md): each event's matcher groups and command hooks, validated one by one,
 * with a problem line for everything not acted on (an event threadline does not fire, a hook type or key it does
 * not run, an `if` that can never match).
 */
import * as z from "zod";
import {
  type CommandHookSetting,
  HOOK_EVENTS,
  type HookEventName,
  type HookMatcherSetting,
  type Settings,
  UNFIRED_HOOK_EVENTS,
} from "./settings-types.js";

/** How a wrongly typed value is named in a problem line: `a list`, `number 42`. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

/** `Name` or `Name(specifier)`: the rule grammar of permission-rules.ts. */
const RULE_SYNTAX = /^[A-Za-z0-9_-]+(?:\(.*\))?$/s;

const commandHookSchema = z.object({
  type: z.literal("command"),
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
  if: z.string().min(1).optional(),
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
  rewakeMessage: z.string().optional(),
  rewakeSummary: z.string().optional(),
});

/** The events whose hooks see a tool call, so an `if` rule has something to match (docs/HOOKS.md "if"). */
const TOOL_EVENTS: readonly string[] = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"];

export function readHooks(
  value: unknown,
  settings: Settings,
  source: string,
  add: (key: string, message: string) => void,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    add("hooks", `must be an object of event names, got ${describeType(value)}; no hooks from this file`);
    return;
  }
  for (const [event, groups] of Object.entries(value as Record<string, unknown>)) {
    const name = HOOK_EVENTS.find((candidate) => candidate === event);
    if (name === undefined) {
      add(
        `hooks.${event}`,
        UNFIRED_HOOK_EVENTS.includes(event)
          ? "is a Claude Code event threadline does not fire; its hooks never run"
          : `is not an event threadline runs (${HOOK_EVENTS.join(", ")}); ignored`,
      );
      continue;
    }
    const kept = readMatcherGroups(groups, `hooks.${event}`, source, add);
    if (kept.length > 0) settings.hooks[name as HookEventName] = kept;
  }
}

function readMatcherGroups(
  value: unknown,
  path: string,
  source: string,
  add: (key: string, message: string) => void,
): HookMatcherSetting[] {
  if (!Array.isArray(value)) {
    add(path, `must be a list of {"matcher", "hooks"}, got ${describeType(value)}; ignored`);
    return [];
  }
  const groups: HookMatcherSetting[] = [];
  value.forEach((group, index) => {
    const at = `${path}[${index}]`;
    if (typeof group !== "object" || group === null || Array.isArray(group)) {
      add(at, `must be an object with "hooks", got ${describeType(group)}; ignored`);
      return;
    }
    const { matcher = "", hooks } = group as { matcher?: unknown; hooks?: unknown };
    if (typeof matcher !== "string") {
      add(`${at}.matcher`, `must be a string, got ${describeType(matcher)}; this entry is ignored`);
      return;
    }
    if (!validMatcher(matcher)) {
      add(`${at}.matcher`, `${JSON.stringify(matcher)} is not a valid regular expression; this entry is ignored`);
      return;
    }
    if (!Array.isArray(hooks)) {
      add(`${at}.hooks`, `must be a list of {"type": "command", "command": …}, got ${describeType(hooks)}; ignored`);
      return;
    }
    const commands: CommandHookSetting[] = [];
    hooks.forEach((hook, hookIndex) => {
      const parsed = commandHookSchema.safeParse(hook);
      if (!parsed.success) {
        const type = (hook as { type?: unknown } | null)?.type;
        const why =
          typeof type === "string" && type !== "command"
            ? `type "${type}" is not run by threadline (only "command")`
            : `must be {"type": "command", "command": "…", "timeout"?: seconds, "if"?: rule, "async"?: true}`;
        add(`${at}.hooks[${hookIndex}]`, `${why}; ignored`);
        return;
      }
      const condition = parsed.data.if?.trim();
      if (condition !== undefined) {
        // Claude Code evaluates `if` only on tool events; elsewhere such a hook never runs. Said, not silent.
        if (!TOOL_EVENTS.some((tool) => path === `hooks.${tool}`)) {
          add(
            `${at}.hooks[${hookIndex}].if`,
            `only tool events (${TOOL_EVENTS.join(", ")}) have one; this hook never runs`,
          );
          return;
        }
        if (!RULE_SYNTAX.test(condition)) {
          add(
            `${at}.hooks[${hookIndex}].if`,
            `${JSON.stringify(condition)} is not a rule like "Bash(git commit:*)"; this hook is ignored`,
          );
          return;
        }
      }
      const extra = Object.keys(hook as object).filter((key) => !KNOWN_HOOK_KEYS.has(key));
      if (extra.length > 0)
        add(
          `${at}.hooks[${hookIndex}]`,
          `${extra.map((key) => `"${key}"`).join(", ")} not acted on by threadline; the hook runs without them`,
        );
      commands.push({
        command: parsed.data.command,
        source,
        ...(parsed.data.timeout !== undefined ? { timeoutSeconds: parsed.data.timeout } : {}),
        ...(condition !== undefined ? { if: condition } : {}),
        ...(parsed.data.async === true || parsed.data.asyncRewake === true ? { async: true } : {}),
        ...(parsed.data.asyncRewake === true
          ? {
              rewake: {
                ...(parsed.data.rewakeMessage !== undefined ? { message: parsed.data.rewakeMessage } : {}),
                ...(parsed.data.rewakeSummary !== undefined ? { summary: parsed.data.rewakeSummary } : {}),
              },
            }
          : {}),
      });
    });
    if (commands.length > 0) groups.push({ matcher, hooks: commands });
  });
  return groups;
}

/** Keys of a command hook threadline acts on; others (`asyncRewake`, `statusMessage`, `once`, `shell`) are named. */
const KNOWN_HOOK_KEYS: ReadonlySet<string> = new Set([
  "type",
  "command",
  "timeout",
  "if",
  "async",
  "asyncRewake",
  "rewakeMessage",
  "rewakeSummary",
]);

function validMatcher(matcher: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  try {
    new RegExp(`^(?:${matcher})$`);
    return true;
  } catch {
    return false;
  }
}
