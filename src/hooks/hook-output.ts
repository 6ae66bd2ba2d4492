/**
 * A hook's JSON output (Claude Code's protocol, docs/HOOKS.md): the common fields `continue`, `stopReason`,
 * `suppressOutput`, `systemMessage`, the older top-level `decision` / `reason`, and `hookSpecificOutput` with
 * `permissionDecision`, `permissionDecisionReason`, `updatedInput`, `additionalContext` and PermissionRequest's
 * `decision`. Bytes from a
 * hook process are a trust boundary: anything that does not fit is reported, never guessed at.
 */
import * as z from "zod";

const hookSpecificSchema = z
  .object({
    hookEventName: z.string().optional(),
    permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
    permissionDecisionReason: z.string().optional(),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    additionalContext: z.string().optional(),
    // PermissionRequest's answer to the question (docs/HOOKS.md).
    decision: z
      .object({ behavior: z.enum(["allow", "deny"]), message: z.string().optional() })
      .loose()
      .optional(),
  })
  .loose();

const hookOutputSchema = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    // "approve" is PreToolUse's older spelling of allow.
    decision: z.enum(["block", "approve"]).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: hookSpecificSchema.optional(),
  })
  .loose();

export type HookJsonOutput = z.infer<typeof hookOutputSchema>;

/**
 * The JSON object a hook printed, `undefined` when stdout is not a JSON object (plain text), or a problem line
 * when it is a JSON object whose fields have the wrong types.
 */
export function parseHookJson(stdout: string): { output?: HookJsonOutput; problem?: string } {
  const text = stdout.trim();
  if (!text.startsWith("{")) return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return {}; // text that merely starts with "{": plain output
  }
  const parsed = hookOutputSchema.safeParse(data);
  if (parsed.success) return { output: parsed.data };
  const issue = parsed.error.issues[0];
  // Stryker disable next-line StringLiteral,OptionalChaining: a failed parse has at least one issue, and its path is an array
  const where = issue?.path.join(".") ?? "";
  return {
    // Stryker disable next-line StringLiteral,ConditionalExpression,OptionalChaining: text that starts with "{" parses to an object, so the issue is at a field (never "") and has a message
    problem: `its JSON output has a bad ${where === "" ? "shape" : `"${where}"`} (${issue?.message ?? "invalid"}); ignored`,
  };
}
