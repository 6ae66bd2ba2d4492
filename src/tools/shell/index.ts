/** Shell and background work: Bash and its read-only classifier, background tasks, Monitor, TaskStop, REPL, the sandbox and the secret-free environment. The names used outside src/tools/. */
export type { BackgroundCommand } from "./background-tasks.js";
export { bashTool } from "./bash-tool.js";
export { readOnlyGitEnv } from "./git-read-only.js";
export type { MonitorBatch } from "./monitor-events.js";
export { createReplTool, DEFAULT_REPL_PRIMITIVES, REPL_TOOL_NAME, type ReplToolDisplay } from "./repl-tool.js";
export { SecretEnvironment, type SecretEnvSettings } from "./secret-env.js";
