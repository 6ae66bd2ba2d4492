import type { AssembledRequest, MessagesRequest, SystemBlock, ToolDefinition } from "../../src/request/types.js";

export const READ_TOOL: ToolDefinition = {
  name: "Read",
  description: "Reads a file from the local filesystem.",
  input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
};

export const BASH_TOOL: ToolDefinition = {
  name: "Bash",
  description: "Runs a shell command.",
  input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

export const SYSTEM: SystemBlock[] = [
  { type: "text", text: "You are threadline, a coding agent.\nBe brief.\nUse tools when useful." },
  { type: "text", text: "Environment: linux\nCwd: /work", cache_control: { type: "ephemeral" } },
];

/** A request with the given body overrides and betas; `json` is computed like assembly does. */
export function makeRequest(overrides: Partial<MessagesRequest> = {}, betas: string[] = []): AssembledRequest {
  const body: MessagesRequest = {
    model: "claude-sonnet-4-5",
    max_tokens: 8192,
    system: SYSTEM,
    messages: [{ role: "user", content: "hello" }],
    tools: [READ_TOOL, BASH_TOOL],
    ...overrides,
  };
  return { body, betas, json: JSON.stringify(body) };
}
