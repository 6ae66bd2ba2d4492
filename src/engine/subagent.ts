/**
 * Subagents: the runner behind the Agent tool. Each run gets its own timeline, a sidechain transcript beside
 * the parent's, a subset of the parent's tools (never Agent or Snip), its type's system prompt, and the
 * parent's provider, permission policy and workspace. It runs the ordinary query loop and hands back the final
 * text; the parent's conversation receives only that text as the Agent tool's result.
 */
import { type HookRunner, hookContextEntries } from "../hooks/index.js";
import { type LoopConfig, query } from "../loop/query.js";
import { TurnRecorder } from "../loop/turn-recorder.js";
import { MODEL_ALIASES } from "../memory/index.js";
import { addUsage, createUserEntry, emptyUsage, type TurnUsage } from "../messages/index.js";
import type { Provider } from "../provider/index.js";
import { emptyLatches, toolDefinitions } from "../request/index.js";
import { openSidechainTranscript } from "../sessions/index.js";
import { Timeline } from "../timeline/index.js";
import type {
  AgentRunner,
  AgentRunRequest,
  AgentRunResult,
  AgentRunStatus,
  AnyTool,
  PermissionPolicy,
  ToolRuntime,
} from "../tools/index.js";
import { defaultToolRuntime, newAgentId, summarizeToolCall } from "../tools/index.js";
import { decideEffort, type EffortDecision } from "./effort-support.js";
import { type AgentWorktree, createAgentWorktree, finishAgentWorktree } from "./subagent-isolation.js";
import { DEFAULT_SUBAGENT_MAX_TURNS, type SubagentType } from "./subagent-types.js";
import { buildSystemPrompt } from "./system-prompt.js";

export * from "./subagent-types.js";
export * from "./subagent-usage.js";

/** What a subagent inherits from its parent session. */
export interface SubagentEnvironment {
  sessionId: string;
  cwd: string;
  additionalDirectories: readonly string[];
  provider: Provider;
  /** The parent's tools, read at each run (Agent and Snip are always removed). */
  tools: () => readonly AnyTool[];
  /** The parent's permission policy: every subagent tool call is checked against it. */
  policy: PermissionPolicy;
  /** The parent's tool runtime (secret-free environment, sandbox). Default: `defaultToolRuntime()`. */
  toolRuntime?: ToolRuntime;
  /** The parent's loop settings; the subagent replaces the system prompt, turn limit and snip switch. */
  config: LoopConfig;
  /** The parent's model right now (it may have switched to the fallback). */
  model: () => string;
  /** The parent's transcript file; undefined keeps sidechains in memory. */
  parentTranscriptPath: string | undefined;
  /** Offered types; the first is the default. */
  types: readonly SubagentType[];
  now: () => Date;
  /** The parent's command hooks: tool hooks run for the subagent's calls too, and SubagentStop at its end. Default none. */
  hooks?: HookRunner;
}

/** The subagent type a request names (the first type when it names none); throws for unknown names. */
export function resolveSubagentType(types: readonly SubagentType[], name: string | undefined): SubagentType {
  const wanted = name ?? types[0]?.name;
  const type = types.find((candidate) => candidate.name === wanted);
  if (!type) {
    throw new Error(
      `Unknown subagent_type ${JSON.stringify(name)}. Available: ${types.map((t) => t.name).join(", ")}.`,
    );
  }
  return type;
}

/** The tools a subagent of `type` gets from `parentTools`, in the parent's order. */
export function subagentTools(parentTools: readonly AnyTool[], type: SubagentType): AnyTool[] {
  const allowed = type.tools ? new Set(type.tools) : undefined;
  return parentTools.filter(
    (tool) => tool.traits?.forSubagents !== false && (allowed === undefined || allowed.has(tool.name)),
  );
}

/** The model id an Agent call's `model` alias names; throws for one threadline's table has no model for. */
export function resolveAgentModel(alias: string): string {
  const model = MODEL_ALIASES[alias];
  if (model === undefined)
    throw new Error(`Unknown model "${alias}". Available: ${Object.keys(MODEL_ALIASES).join(", ")}.`);
  return model;
}

/**
 * A finished run's conversation, kept for the session so SendMessage can resume it (docs/TOOLS.md,
 * "SendMessage"): the timeline itself (the transcript holds the same entries), and what the run was set up with.
 */
export interface KeptSubagent {
  type: SubagentType;
  model: string | undefined;
  tools: AnyTool[];
  timeline: Timeline;
  effort: EffortDecision["effort"];
}

/**
 * Runs one subagent to the end of its turn. Throws only for a bad request (an unknown type or model, a worktree
 * that cannot be made, a resume of a conversation not kept), before anything is created; failures after the start
 * come back as a status. A run not in a worktree of its own is kept in `kept` when it ends, for a resume.
 */
export async function runSubagent(
  environment: SubagentEnvironment,
  request: AgentRunRequest,
  kept: Map<string, KeptSubagent> = new Map(),
): Promise<AgentRunResult> {
  if (request.resume === true) {
    const agentId = request.agentId ?? "";
    const conversation = kept.get(agentId);
    if (conversation === undefined)
      throw new Error(
        `Agent ${agentId}'s conversation is not kept (it ran in a worktree of its own, or in an earlier process); start a new Agent.`,
      );
    // One resume at a time: taken out while it runs, put back when it ends.
    kept.delete(agentId);
    try {
      return await runIn(environment, request, { ...conversation, agentId, worktree: undefined, resumed: true });
    } finally {
      kept.set(agentId, conversation);
    }
  }
  const type = resolveSubagentType(environment.types, request.subagentType);
  const model = request.model !== undefined ? resolveAgentModel(request.model) : type.model;
  const agentId = request.agentId ?? newAgentId();
  const tools = subagentTools(environment.tools(), type);
  const runtime = environment.toolRuntime ?? defaultToolRuntime();
  const env = runtime.secrets.toolEnv;
  const { effort, notice } = await decideEffort(
    environment.provider,
    model ?? environment.model(),
    request.effort,
    request.signal,
  );
  // The parent's working directory now (an entered worktree's), which an isolated run's worktree is made from.
  const parentCwd = runtime.worktree?.cwd() ?? environment.cwd;
  const worktree = request.isolation === "worktree" ? await createAgentWorktree(parentCwd, agentId, env) : undefined;
  const timeline = new Timeline();
  const setup: RunSetup = { type, model, agentId, tools, worktree, timeline, effort, resumed: false };
  try {
    const result = await runIn(environment, request, setup, notice !== undefined ? [notice] : []);
    const keptTree = worktree !== undefined ? await finishAgentWorktree(worktree, env) : undefined;
    if (worktree === undefined) kept.set(agentId, { type, model, tools, timeline, effort });
    return { ...result, ...(keptTree !== undefined ? { worktree: keptTree } : {}) };
  } catch (error) {
    if (worktree !== undefined) await finishAgentWorktree(worktree, env);
    throw error;
  }
}

interface RunSetup {
  type: SubagentType;
  model: string | undefined;
  agentId: string;
  tools: AnyTool[];
  /** The run's own worktree (`isolation: "worktree"`): its working directory and workspace. */
  worktree: AgentWorktree | undefined;
  /** A fresh timeline, or a resumed run's kept one. */
  timeline: Timeline;
  effort: EffortDecision["effort"];
  /** Going on with a finished run: no SubagentStart, the prompt is its next user message. */
  resumed: boolean;
}

async function runIn(
  environment: SubagentEnvironment,
  request: AgentRunRequest,
  { type, model, agentId, tools, worktree, timeline, effort, resumed }: RunSetup,
  notices: readonly string[] = [],
): Promise<AgentRunResult> {
  // In its own worktree the subagent's tools work there, not where the parent session is (the parent's entered
  // worktree, which the executor would otherwise read per call, is not passed on).
  const cwd = worktree?.path ?? environment.cwd;
  const toolRuntime = isolatedRuntime(environment.toolRuntime, worktree !== undefined);
  const transcript = await openSidechainTranscript(
    { sessionId: environment.sessionId, cwd: environment.cwd, path: environment.parentTranscriptPath },
    agentId,
  );
  const path = transcript.path;
  const usage: TurnUsage = emptyUsage();
  let status: AgentRunStatus = "error";
  let text = "";
  let error: string | undefined;
  let toolUseCount = 0;
  let hooks: HookRunner | undefined;
  const inbox = request.inbox;
  const lastMessages = (): string[] =>
    status === "completed" && !request.signal.aborted && inbox !== undefined ? inbox.closeIfEmpty() : [];
  try {
    const recorder = new TurnRecorder(environment.sessionId, timeline, transcript, environment.now);
    recorder.append(createUserEntry(recorder.context(), request.prompt));
    // The subagent's hooks know which agent they run for (Claude Code's agent_id, agent_type); SubagentStart's
    // context joins the subagent's own conversation, after its prompt.
    hooks = environment.hooks?.withFields({
      all: { agent_id: agentId, agent_type: type.name },
      byEvent: { SubagentStop: { agent_transcript_path: path } },
    });
    if (!resumed && hooks?.has("SubagentStart") === true) {
      const started = await hooks.run("SubagentStart", {}, type.name, request.signal);
      recorder.appendAll(hookContextEntries(recorder.context(), "SubagentStart", started.context));
      for (const notice of started.notices) request.onProgress(notice);
    }
    await recorder.flush();
    request.onReady?.(notices);
    const config: LoopConfig = {
      ...environment.config,
      model: model ?? environment.model(),
      systemPrompt: buildSystemPrompt({
        cwd,
        systemPrompt: type.systemPrompt,
        date: environment.now(),
      }),
      maxTurns: type.maxTurns ?? DEFAULT_SUBAGENT_MAX_TURNS,
      ...structuredOutput(environment.provider, request.outputSchema),
      // Snip tags and nudges talk about a tool the subagent does not have.
      compaction: { ...environment.config.compaction, snip: false },
      // Its own effort (checked for its model); else the session's, which applies only on the model it was checked
      // for (LoopConfig.effort.model).
      ...(effort !== undefined ? { effort } : {}),
    };
    const runTurn = async (): Promise<void> => {
      const turn = query({
        sessionId: environment.sessionId,
        timeline,
        transcript,
        provider: environment.provider,
        tools: new Map(tools.map((tool) => [tool.name, tool])),
        // Deferred MCP tools stay out of a subagent's tools block too (it finds them with ToolSearch).
        toolDefinitions: toolDefinitions(tools.filter((tool) => tool.deferLoading !== true)),
        policy: request.background === true ? withoutQuestions(environment.policy) : environment.policy,
        ...(toolRuntime ? { toolRuntime } : {}),
        cwd,
        additionalDirectories: environment.additionalDirectories,
        config,
        state: { latches: emptyLatches(), model: config.model },
        now: environment.now,
        signal: request.signal,
        ...(hooks ? { hooks, stopHookEvent: "SubagentStop" as const } : {}),
        ...(inbox !== undefined ? { inbox: () => inbox.take() } : {}),
      });
      for await (const event of turn) {
        if (event.type === "tool_start") {
          toolUseCount++;
          request.onProgress(summarizeToolCall(event.block.name, event.block.input));
        } else if (event.type === "turn_end") {
          status = event.reason;
          text = event.lastText;
          error = event.error;
          addUsage(usage, event.usage);
        }
      }
    };
    await runTurn();
    // Messages that arrived after the turn's last request: the run goes on with them as its next turn; once none
    // waits the inbox closes, so a later SendMessage is told the agent has finished (tools/agents/agent-inbox.ts).
    for (let waiting = lastMessages(); waiting.length > 0; waiting = lastMessages()) {
      for (const message of waiting) recorder.append(createUserEntry(recorder.context(), message));
      await recorder.flush();
      await runTurn();
    }
  } catch (thrown) {
    status = request.signal.aborted ? "aborted" : "error";
    error = thrown instanceof Error ? thrown.message : String(thrown);
  } finally {
    inbox?.close();
    await transcript.close();
  }
  const { costUsd: _cost, ...tokens } = usage;
  return {
    agentId,
    transcriptPath: path,
    subagentType: type.name,
    status,
    text,
    ...(error !== undefined ? { error } : {}),
    usage: tokens,
    toolUseCount,
  };
}

/**
 * The parent's policy, read live (a mode the person switches to applies), with no one to ask: what would need a
 * question is refused with the permission layer's own "no way to ask" line.
 */
function withoutQuestions(policy: PermissionPolicy): PermissionPolicy {
  return new Proxy(policy, { get: (target, key) => (key === "ask" ? undefined : Reflect.get(target, key)) });
}

/** Structured outputs for a run with a schema, where the server declares them (docs/TOOLS.md "Workflow"). */
function structuredOutput(provider: Provider, schema: Record<string, unknown> | undefined): Partial<LoopConfig> {
  if (schema === undefined || provider.capabilities.structuredOutputs !== true) return {};
  return { outputFormat: { type: "json_schema", schema } };
}

/** The parent's runtime without its entered worktree when the run has a worktree of its own. */
function isolatedRuntime(runtime: ToolRuntime | undefined, isolated: boolean): ToolRuntime | undefined {
  if (runtime === undefined || !isolated) return runtime;
  const { worktree: _parentWorktree, ...rest } = runtime;
  return rest;
}

/** The Agent tool's runner for a session: finished runs are kept for the session, so SendMessage can resume them. */
export function createSubagentRunner(environment: SubagentEnvironment): AgentRunner {
  const kept = new Map<string, KeptSubagent>();
  return (request) => runSubagent(environment, request, kept);
}
