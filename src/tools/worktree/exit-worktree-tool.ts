/**
 * ExitWorktree: leaves the worktree EnterWorktree entered, keeping it or removing it with its branch (Claude Code
 * 2.1.328's name and schema: `action`, `discard_changes`, sdk-tools.d.ts ExitWorktreeInput). Deferred behind
 * ToolSearch as Claude Code defers it. The work is tools/worktree-session.ts; docs/TOOLS.md "Worktrees".
 */
import * as z from "zod";
import type { Tool, ToolContext, ToolOutput } from "../types.js";

export const exitWorktreeInputSchema = z.strictObject({
  action: z
    .enum(["keep", "remove"])
    .describe(
      '"keep" leaves the worktree and branch on disk; "remove" deletes the worktree and, unless git refuses, its branch.',
    ),
  discard_changes: z
    .boolean()
    .optional()
    .describe(
      'Required true when action is "remove" and the worktree has uncommitted files or unmerged commits. The tool will refuse and list them otherwise. Set it only after the user has confirmed.',
    ),
});
export type ExitWorktreeInput = z.infer<typeof exitWorktreeInputSchema>;

const DESCRIPTION = `Leaves the worktree this session entered with EnterWorktree and returns to the directory the session started in.
- action "keep": the worktree and its branch stay on disk.
- action "remove": the worktree and its branch are deleted. If it has uncommitted files or commits, the tool refuses and lists them; call again with discard_changes: true only after the user confirmed.
- Only a worktree entered in this session can be left; without one nothing changes.`;

export const exitWorktreeTool: Tool<ExitWorktreeInput> = {
  name: "ExitWorktree",
  description: DESCRIPTION,
  inputSchema: exitWorktreeInputSchema,
  // Claude Code asks no one about leaving a worktree; discarding work in it is asked about in threadline (the
  // description's "only after the user has confirmed", made a permission check: docs/TOOLS.md).
  isReadOnly: (input) => input.discard_changes !== true,
  compactable: false,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: ExitWorktreeInput, context: ToolContext): Promise<ToolOutput> {
    const worktrees = context.runtime?.worktree;
    if (worktrees === undefined)
      return { content: "No active worktree session (ExitWorktree needs a session); nothing changed.", isError: true };
    const outcome = await worktrees.exit(input.action, input.discard_changes === true);
    return {
      content: outcome.message,
      ...(outcome.isError === true ? { isError: true } : {}),
      ...(outcome.worktree !== undefined
        ? {
            display: {
              kind: "worktree-exit",
              action: input.action,
              originalCwd: worktrees.originalCwd,
              worktreePath: outcome.worktree.path,
              worktreeBranch: outcome.worktree.branch,
            },
          }
        : {}),
    };
  },
};
