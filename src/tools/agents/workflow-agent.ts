/**
 * One `agent(prompt, opts)` call of a Workflow script: a subagent run through the session's runner (the Agent
 * tool's: same tools, permission policy and hooks; in the background, so it asks no one). With `opts.schema` the
 * subagent is asked to end with only a JSON value for that schema; its answer is parsed and checked against the
 * schema's top level, and a bad answer gets one more run told the parse error, then a precise failure.
 */
import type { AgentRunner, AgentRunRequest } from "./agent-run.js";

/** The options of agent() threadline reads (others are kept in the cache key and otherwise ignored). */
export interface WorkflowAgentOptions {
  label?: string;
  phase?: string;
  schema?: Record<string, unknown>;
  model?: string;
  subagent_type?: string;
}

/** Reads agent()'s arguments; a wrong type is one line naming it. */
export function readAgentCall(
  prompt: unknown,
  options: unknown,
): { prompt: string; options: WorkflowAgentOptions } | { error: string } {
  if (typeof prompt !== "string" || prompt.trim() === "")
    return { error: "agent(prompt, opts): prompt must be a non-empty string" };
  if (options === undefined || options === null) return { prompt, options: {} };
  if (typeof options !== "object" || Array.isArray(options))
    return { error: "agent(prompt, opts): opts must be an object" };
  const given = JSON.parse(JSON.stringify(options)) as Record<string, unknown>;
  for (const name of ["label", "phase", "model", "subagent_type"] as const)
    if (given[name] !== undefined && typeof given[name] !== "string")
      return { error: `agent(prompt, opts): opts.${name} must be a string` };
  if (given.schema !== undefined && (typeof given.schema !== "object" || given.schema === null))
    return { error: "agent(prompt, opts): opts.schema must be a JSON Schema object" };
  return { prompt, options: given as WorkflowAgentOptions };
}

function schemaInstructions(schema: Record<string, unknown>): string {
  return [
    "",
    "",
    "End with a final message that is ONLY a JSON value matching this JSON Schema: no prose, no code fences.",
    JSON.stringify(schema),
  ].join("\n");
}

/** The JSON value in a final message (a ```json fence around it is forgiven), checked against the schema's top. */
export function parseSchemaAnswer(
  text: string,
  schema: Record<string, unknown>,
): { value: unknown } | { error: string } {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  let value: unknown;
  try {
    value = JSON.parse(fenced?.[1] ?? text);
  } catch (error) {
    return { error: `not JSON (${(error as Error).message})` };
  }
  const type = schema.type;
  const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
  if (type === "object" && !isObject) return { error: "the schema wants an object" };
  if (type === "array" && !Array.isArray(value)) return { error: "the schema wants an array" };
  if (type === "object" && Array.isArray(schema.required)) {
    const missing = schema.required.filter((key) => typeof key === "string" && !(key in (value as object)));
    if (missing.length > 0) return { error: `missing required field ${missing.map((key) => `"${key}"`).join(", ")}` };
  }
  return { value };
}

/** Runs one agent() call to its value; throws one line when the subagent failed or never gave valid JSON. */
export async function runWorkflowAgent(
  run: AgentRunner,
  call: { prompt: string; options: WorkflowAgentOptions; position: number },
  base: Pick<AgentRunRequest, "signal" | "toolUseId">,
): Promise<unknown> {
  const { options } = call;
  const label = options.label ?? `agent #${call.position + 1}`;
  const request = (prompt: string): AgentRunRequest => ({
    description: label,
    prompt,
    subagentType: options.subagent_type,
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.schema !== undefined ? { outputSchema: options.schema } : {}),
    signal: base.signal,
    toolUseId: base.toolUseId,
    onProgress: () => {},
    // No one waits on a workflow's agents: what would need a person's approval is refused, not asked.
    background: true,
  });
  const once = async (prompt: string): Promise<string> => {
    // A call that waited for a free slot while the run was stopped starts nothing.
    if (base.signal.aborted) throw new Error("the workflow was stopped");
    const result = await run(request(prompt));
    if (result.status !== "completed")
      throw new Error(`agent "${label}" did not finish: ${result.error ?? `it stopped (${result.status})`}`);
    return result.text;
  };
  const schema = options.schema;
  if (schema === undefined) return once(call.prompt);
  const asked = call.prompt + schemaInstructions(schema);
  const first = await once(asked);
  const parsed = parseSchemaAnswer(first, schema);
  if ("value" in parsed) return parsed.value;
  // One more run, told what was wrong with the first answer (a subagent keeps no memory between runs).
  const retry = [
    asked,
    "",
    `An earlier attempt answered with something that was not valid for the schema (${parsed.error}):`,
    first.slice(0, 2_000),
    "Answer again with only the JSON value.",
  ].join("\n");
  const second = parseSchemaAnswer(await once(retry), schema);
  if ("value" in second) return second.value;
  throw new Error(`agent "${label}" gave no valid JSON for its schema after one retry: ${second.error}`);
}
