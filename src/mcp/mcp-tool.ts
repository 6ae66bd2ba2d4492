/**
 * An MCP server's tool as an ordinary `Tool` to the loop: its schema passed through as JSON Schema, never
 * read-only (so in the default mode a call asks), compactable like Read's results, and every failure an error
 * result the model can act on.
 */
import * as z from "zod";
import type { AnyTool, ToolOutput } from "../tools/index.js";
import type { McpConnection, McpToolInfo } from "./connection.js";
import { DEFAULT_MCP_OUTPUT_TOKENS, mapCallResult } from "./result-content.js";
import { mcpToolName } from "./tool-names.js";

export interface McpToolOptions {
  /** Kept out of the tools block until ToolSearch finds it. Default true. */
  deferLoading?: boolean;
  /** Tokens kept inline; default `DEFAULT_MCP_OUTPUT_TOKENS`. */
  maxOutputTokens?: number;
  /** Where output over the cap is written; default: cut instead. */
  spillDirectory?: string;
}

/** The model's input: any JSON object (the server validates it against its own schema). */
const anyObject = z.record(z.string(), z.unknown());

/** The tool `info` of `connection`'s server. */
export function mcpTool(connection: McpConnection, info: McpToolInfo, options: McpToolOptions = {}): AnyTool {
  const maxTokens = options.maxOutputTokens ?? DEFAULT_MCP_OUTPUT_TOKENS;
  return {
    name: mcpToolName(connection.name, info.name),
    description: info.description,
    inputSchema: anyObject,
    inputJsonSchema: info.inputSchema,
    deferLoading: options.deferLoading ?? true,
    isReadOnly: () => false,
    compactable: true,
    async call(input: Record<string, unknown>, context): Promise<ToolOutput> {
      let result: Awaited<ReturnType<McpConnection["callTool"]>>;
      try {
        result = await connection.callTool(info.name, input, context.signal);
      } catch (error) {
        return { content: error instanceof Error ? error.message : String(error), isError: true };
      }
      const redact = context.runtime?.secrets.redact.bind(context.runtime.secrets) ?? ((text: string) => text);
      return mapCallResult(result, {
        maxTokens,
        ...(options.spillDirectory !== undefined ? { spillDirectory: options.spillDirectory } : {}),
        spillName: `${connection.name}-${context.toolUseId}`.replace(/[^a-zA-Z0-9_-]/g, "_"),
        redact,
      });
    },
  };
}
