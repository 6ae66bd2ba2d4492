/**
 * EnterWorktree: creates a git worktree and moves the session into it, or switches into an existing one (Claude Code
 * 2.1.328's name and schema: `name` or `path`, sdk-tools.d.ts EnterWorktreeInput). Deferred behind ToolSearch as
 * Claude Code defers it. The work is tools/worktree-session.ts; docs/TOOLS.md "Worktrees".
 */
import path from "node:path";
import * as z from "zod";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { WORKTREES_FOLDER } from "./worktree-session.js";

export const enterWorktreeInputSchema = z.strictObject({
  name: z
    .string()
    .optional()
    .describe(
      'Optional name for a new worktree. Each "/"-separated segment may contain only letters, digits, dots, underscores, and dashes; max 64 chars total. A random name is generated if not provided. Mutually exclusive with `path`.',
    ),
  path: z
    .string()
    .optional()
    .describe(
      "Path to an existing worktree to switch into instead of creating a new one. Must appear in `git worktree list` for the current repo. Mutually exclusive with `name`.",
    ),
});
export type EnterWorktreeInput = z.infer<typeof enterWorktreeInputSchema>;

const DESCRIPTION = `Creates an isolated git worktree and moves this session into it. Use it only when the user asks to work in a worktree.
- A new worktree is made at .claude/worktrees/<name> in the repository, on a new branch worktree-<name> from HEAD.
- From then on every tool works in the worktree (its folder is the working directory and the workspace).
- With path, switches into an existing worktree of the repository instead.
- Call ExitWorktree to go back ("keep" leaves the worktree, "remove" deletes it and its branch).
- Needs a git repository; at session end a worktree still entered that holds no work is removed, otherwise kept.`;

export const enterWorktreeTool: Tool<EnterWorktreeInput> = {
  name: "EnterWorktree",
  description: DESCRIPTION,
  inputSchema: enterWorktreeInputSchema,
  // Claude Code asks no one about a worktree under .claude/worktrees (it only adds a checkout the session then
  // works in); a path elsewhere moves the session's write access, so that is asked about (docs/TOOLS.md).
  isReadOnly: (input, scope) =>
    input.path === undefined ||
    (scope !== undefined && path.resolve(scope.cwd, input.path).includes(`${path.sep}${WORKTREES_FOLDER}${path.sep}`)),
  compactable: false,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: EnterWorktreeInput, context: ToolContext): Promise<ToolOutput> {
    const worktrees = context.runtime?.worktree;
    if (worktrees === undefined)
      return { content: "EnterWorktree needs a session; nothing was created.", isError: true };
    if (input.name !== undefined && input.path !== undefined)
      return { content: "EnterWorktree takes name or path, not both; nothing was created.", isError: true };
    const outcome =
      input.path !== undefined ? await worktrees.enterExisting(input.path) : await worktrees.enterNew(input.name);
    return {
      content: outcome.message,
      ...(outcome.isError === true ? { isError: true } : {}),
      ...(outcome.worktree !== undefined
        ? {
            display: { kind: "worktree", worktreePath: outcome.worktree.path, worktreeBranch: outcome.worktree.branch },
          }
        : {}),
    };
  },
};
