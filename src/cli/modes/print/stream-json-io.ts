/**
 * Claude Code's stream-json on both sides of `-p`: the `system/init` line (the Agent SDK's `SDKSystemMessage`
 * init fields) and `--input-format stream-json` (user messages as JSON lines on stdin, the SDK's
 * `SDKUserMessage`: `{"type":"user","message":{"role":"user","content":…}}`).
 */
import type { QueryEngine } from "../../../engine/query-engine.js";
import type { CliOptions } from "../../args.js";
import { CliError } from "../../session-flags.js";
import { packageVersion } from "../../version.js";
import type { UserSetup } from "../user-setup.js";

/** The init line: every field of Claude Code's, with threadline's values (and its `transcript_path`). */
export function initObject(
  engine: QueryEngine,
  cli: Pick<CliOptions, "permissionMode" | "dontAsk">,
  setup: Pick<UserSetup, "commands" | "plugins" | "engineOptions">,
  mcpServers: readonly { name: string; status: string }[],
): Record<string, unknown> {
  const agents = setup.engineOptions.agents;
  return {
    type: "system",
    subtype: "init",
    cwd: engine.cwd,
    session_id: engine.sessionId,
    tools: engine.tools.map((tool) => tool.name),
    mcp_servers: mcpServers.map((server) => ({ name: server.name, status: server.status })),
    model: engine.model,
    permissionMode: cli.dontAsk === true ? "dontAsk" : cli.permissionMode,
    slash_commands: setup.commands.map((command) => command.name),
    apiKeySource: "ANTHROPIC_API_KEY",
    claude_code_version: packageVersion(),
    output_style: setup.engineOptions.outputStyle?.name ?? "default",
    agents: Array.isArray(agents) ? agents.map((agent) => agent.name) : [],
    skills: setup.commands.filter((command) => command.skillDirectory !== undefined).map((command) => command.name),
    plugins: setup.plugins.plugins.map((plugin) => ({ name: plugin.name, path: plugin.root })),
    uuid: crypto.randomUUID(),
    transcript_path: engine.transcriptPath ?? null,
  };
}

/**
 * The prompt in `--input-format stream-json` input: the text of every user message, in order (a blank line
 * between), and the messages themselves for `--replay-user-messages`. A line that is not a user message is one
 * error naming its number.
 */
export function streamJsonPrompt(bytes: Buffer): { prompt: string; messages: unknown[] } {
  const texts: string[] = [];
  const messages: unknown[] = [];
  const lines = bytes.toString("utf8").split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    let value: { type?: unknown; message?: { role?: unknown; content?: unknown } };
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      throw new CliError(`--input-format stream-json: line ${index + 1} of stdin is not JSON`);
    }
    if (value.type !== "user" || value.message?.role !== "user")
      throw new CliError(
        `--input-format stream-json: line ${index + 1} is not a user message ({"type":"user","message":{"role":"user","content":…}})`,
      );
    messages.push(value);
    const content = value.message.content;
    if (typeof content === "string") texts.push(content);
    else if (Array.isArray(content))
      for (const block of content as { type?: unknown; text?: unknown }[])
        if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
  });
  return { prompt: texts.join("\n\n").trim(), messages };
}
