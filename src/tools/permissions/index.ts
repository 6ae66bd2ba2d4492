/** Permissions: modes, rules, path rules, the workspace's confinement, and ExitPlanMode (leaving plan mode). The names used outside src/tools/. */
export { allowRuleMatches, alwaysAllowRule, denyRuleMatches, parsePermissionRule } from "./permission-rules.js";
export {
  checkPermission,
  type PermissionMode,
  type PermissionPolicy,
  type PermissionReply,
  type PermissionRequest,
  summarizeToolCall,
} from "./permissions.js";
