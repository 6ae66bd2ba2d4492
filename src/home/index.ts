export {
  CLAUDE_CONFIG_DIR_ENV,
  CLAUDE_JSON_FILE,
  type ClaudeJson,
  type ClaudeJsonRead,
  type ClaudeJsonWrite,
  claudeCodeServers,
  claudeJsonPath,
  DEFAULT_CLAUDE_JSON_LOCK_WAIT_MS,
  isTrustedByClaudeCode,
  projectEntry,
  projectKeys,
  readClaudeJson,
  recordClaudeCodeTrust,
  updateClaudeJson,
} from "./claude-json.js";
export { DEFAULT_THREADLINE_DIR, THREADLINE_HOME_ENV, threadlineHome, userHome } from "./threadline-home.js";
