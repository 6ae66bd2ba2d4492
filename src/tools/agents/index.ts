/** Agents and workflows: Agent, SendMessage, ListAgents, Workflow, and the runs and inboxes behind them. The names used outside src/tools/. */
export {
  type AgentRunner,
  type AgentRunRequest,
  type AgentRunResult,
  type AgentRunStatus,
  type AgentToolDisplay,
  EMPTY_AGENT_RESULT,
  isAgentToolDisplay,
  newAgentId,
} from "./agent-run.js";
export { createAgentTool } from "./agent-tool.js";
export { listAgentsTool } from "./list-agents-tool.js";
export { createWorkflowTool } from "./workflow-tool.js";
