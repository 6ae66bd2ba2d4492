/**
 * The REPL tool: the model sends a small script of primitive tool calls (Read, Grep, Glob, Bash) as data —
 * `{ calls: [{ tool, input }, ...] }`, never code to evaluate. Each call runs through `runTool` with the same
 * permission policy and workspace confinement as a direct call, and is recorded in the timeline as a virtual
 * tool_use/tool_result pair (shown in the UI, never sent). The model gets one combined report.
 */
import * as z from "zod";
import type { PermissionPolicy } from "../permissions/permissions.js";
import { runTool } from "../run-tool.js";
import type { AnyTool, Tool, ToolContext, ToolOutput } from "../types.js";
import { formatReplReport, type ReplCallOutcome } from "./repl-report.js";
import { lastMainChainUuid, virtualToolResultEntry, virtualToolUseEntry, virtualToolUseId } from "./repl-virtual.js";

/** The tool's name. */
export const REPL_TOOL_NAME = "REPL";

/** Tools a REPL script may call by default. */
export const DEFAULT_REPL_PRIMITIVES: readonly string[] = ["Read", "Grep", "Glob", "Bash"];

/** Most calls one script may make: 20. */
export const DEFAULT_REPL_MAX_CALLS = 20;

export interface ReplToolOptions {
  /** Candidate tools; only those named in `primitiveNames` are callable. */
  tools: readonly AnyTool[];
  /** The policy every primitive call is checked against (the session's own). */
  policy: PermissionPolicy;
  /** Default DEFAULT_REPL_PRIMITIVES. */
  primitiveNames?: readonly string[];
  /** Default DEFAULT_REPL_MAX_CALLS. */
  maxCalls?: number;
  /** Clock for the virtual entries. Default `() => new Date()`. */
  now?: () => Date;
  /** Characters of each call's output kept in the report. Default DEFAULT_REPL_CALL_OUTPUT_CHARS. */
  callOutputChars?: number;
}

export interface ReplCall {
  tool: string;
  input: Record<string, unknown>;
}

export interface ReplInput {
  calls: ReplCall[];
}

/** `toolUseResult` of a REPL result: which virtual calls it made (never sent to the model). */
export interface ReplToolDisplay {
  kind: "repl";
  calls: Array<{ tool: string; toolUseId: string; isError: boolean }>;
}

function description(names: readonly string[], maxCalls: number): string {
  return [
    `Run a short script of up to ${maxCalls} tool calls in one step and get one combined report back.`,
    `Each call is {"tool": one of ${names.join(", ")}, "input": that tool's usual input}.`,
    "Calls run in order; a failing call is reported and the script goes on. Use it to batch several",
    "lookups (reading files, searching, listing) instead of making them one response at a time.",
  ].join("\n");
}

/** Builds the REPL tool over the given primitives and permission policy. */
export function createReplTool(options: ReplToolOptions): Tool<ReplInput> {
  const allowed = new Set(options.primitiveNames ?? DEFAULT_REPL_PRIMITIVES);
  const primitives = new Map(options.tools.filter((tool) => allowed.has(tool.name)).map((tool) => [tool.name, tool]));
  const names = [...primitives.keys()];
  const maxCalls = options.maxCalls ?? DEFAULT_REPL_MAX_CALLS;
  const now = options.now ?? (() => new Date());
  if (names.length === 0) throw new Error("REPL needs at least one primitive tool");
  const toolName = z.enum(names as [string, ...string[]]);
  const inputSchema: z.ZodType<ReplInput> = z.strictObject({
    calls: z
      .array(z.strictObject({ tool: toolName, input: z.record(z.string(), z.unknown()) }))
      .min(1)
      .max(maxCalls)
      .describe("The tool calls to make, in order"),
  });

  return {
    name: REPL_TOOL_NAME,
    description: description(names, maxCalls),
    inputSchema,
    // A script is read-only only if every call is; then it may run beside other read-only tools.
    isReadOnly: (input, scope) =>
      input.calls.every((call) => {
        const tool = primitives.get(call.tool);
        const parsed = tool?.inputSchema.safeParse(call.input);
        if (!tool || !parsed?.success) return false;
        try {
          return tool.isReadOnly(parsed.data, scope);
        } catch {
          return false;
        }
      }),
    compactable: true,
    // Each primitive call goes through `options.policy` (deny, allow, ask) with its own summary.
    checksOwnPermissions: true,
    async call(input, context): Promise<ToolOutput> {
      const outcomes: ReplCallOutcome[] = [];
      const display: ReplToolDisplay = { kind: "repl", calls: [] };
      for (const [index, call] of input.calls.entries()) {
        if (context.signal.aborted) break;
        const tool = primitives.get(call.tool);
        if (!tool) throw new Error(`REPL cannot call ${call.tool}`); // the schema's enum already refused it
        const output = await runPrimitive(tool, call, context, index, input.calls.length);
        outcomes.push({ tool: call.tool, input: call.input, content: output.content, isError: output.isError });
        display.calls.push({ tool: call.tool, toolUseId: output.toolUseId, isError: output.isError });
      }
      return {
        content: formatReplReport(outcomes, input.calls.length, options.callOutputChars),
        display,
      };
    },
  };

  async function runPrimitive(
    tool: AnyTool,
    call: ReplCall,
    context: ToolContext,
    index: number,
    total: number,
  ): Promise<{ content: ToolOutput["content"]; isError: boolean; toolUseId: string }> {
    const id = virtualToolUseId();
    const session = context.session;
    const owner = session
      ? virtualToolUseEntry(
          { sessionId: session.sessionId, parentUuid: lastMainChainUuid(session.entries()), now: now() },
          id,
          call.tool,
          call.input,
        )
      : undefined;
    if (session && owner) session.append(owner);
    context.onProgress(`[${index + 1}/${total}] ${call.tool}`);
    const output = await runTool(
      tool,
      call.input,
      {
        cwd: context.cwd,
        additionalDirectories: context.additionalDirectories,
        signal: context.signal,
        toolUseId: id,
        onProgress: (message) => context.onProgress(`[${index + 1}/${total}] ${call.tool}: ${message}`),
        ...(context.runtime !== undefined ? { runtime: context.runtime } : {}),
      },
      options.policy,
    );
    const isError = output.isError ?? false;
    if (session && owner) {
      session.append(
        virtualToolResultEntry(
          { sessionId: session.sessionId, parentUuid: owner.uuid, now: now() },
          owner,
          id,
          output.content,
          isError,
          output.display,
        ),
      );
    }
    return { content: output.content, isError, toolUseId: id };
  }
}
