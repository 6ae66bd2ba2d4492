/** Worktrees: EnterWorktree and ExitWorktree and the git work behind them. The names used outside src/tools/. */
export { git, repositoryRoot, unsavedWork, WorktreeGitError } from "./worktree-git.js";
export { WORKTREE_BRANCH_PREFIX, WORKTREES_FOLDER, WorktreeSession } from "./worktree-session.js";
