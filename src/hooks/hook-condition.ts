/**
 * A hook's `if` key (docs/HOOKS.md "if"): a permission rule in Claude Code's syntax the tool call must match for
 * the hook to run. It matches the way a deny rule does (tools/permission-rules.ts): any part of a chained command
 * (`ls && git push` matches `Bash(git push:*)`), after `VAR=value` prefixes, and a path rule matches a call whose
 * path it cannot place. A guard hook that runs once too often costs a process; one that is skipped lets the call
 * through unchecked.
 */
import { denyRuleMatches, parsePermissionRule } from "../tools/index.js";

/** Whether the tool call (`tool_name`, `tool_input` of the hook's stdin) satisfies `condition`. */
export function hookConditionMatches(
  condition: string,
  fields: Readonly<Record<string, unknown>>,
  scope: { cwd: string; home: string },
): boolean {
  const rule = parsePermissionRule(condition);
  const toolName = fields.tool_name;
  // The settings parser keeps only well-formed rules on tool events; anything else runs nothing.
  // Stryker disable next-line ConditionalExpression: a name that is not a string matches no rule's tool name either
  if (rule === undefined || typeof toolName !== "string") return false;
  return denyRuleMatches(rule, toolName, fields.tool_input, { cwd: scope.cwd, root: scope.cwd, home: scope.home });
}
