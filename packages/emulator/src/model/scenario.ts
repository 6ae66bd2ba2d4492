/**
 * The scripted model's scenario: the turns it answers main-loop requests with, in order, plus optional
 * faults. A scenario file is JSON validated by `ScenarioFileSchema` (its JSON Schema: `scenarioJsonSchema()`).
 *
 * ```json
 * { "turns": [
 *     "A plain text answer",
 *     { "content": [ { "type": "thinking", "thinking": "Let me look." },
 *                    { "type": "tool_use", "name": "Read", "input": { "file_path": "a.ts" } } ] },
 *     { "content": [ { "type": "text", "text": "Cut short" } ], "stop_reason": "max_tokens" } ],
 *   "faults": [ { "onRequest": 2, "kind": "overloaded" } ] }
 * ```
 * A turn may list `needs` (`[{ "text": "…", "file": "a.ts" }]`): facts it must see first (see needs.ts).
 * Thinking blocks without a `signature` are signed by the emulator; tool_use ids are generated (`toolu_01…`).
 * In-process, a step may also be a function of the request (`(request) => Turn`), so tests can react to it.
 */
import { readFile } from "node:fs/promises";
import * as z from "zod";
import { STOP_REASONS, type StopReason } from "../content.js";
import type { EmulatorRequest } from "../request-types.js";
import type { Need } from "./needs.js";

export interface TurnTextBlock {
  type: "text";
  text: string;
}
export interface TurnThinkingBlock {
  type: "thinking";
  thinking: string;
  /** Defaults to the emulator's HMAC signature of `thinking`. */
  signature?: string | undefined;
}
export interface TurnToolUseBlock {
  type: "tool_use";
  name: string;
  input: Record<string, unknown>;
  /** Defaults to a generated `toolu_01…` id. */
  id?: string | undefined;
}
/**
 * A server web search (the request must declare `web_search`): the emulator answers it from its corpus with a
 * `server_tool_use`, a `web_search_tool_result` and a text citing the first hit (model/web-search.ts).
 */
export interface TurnWebSearchBlock {
  type: "web_search";
  query: string;
}
export type TurnBlock = TurnTextBlock | TurnThinkingBlock | TurnToolUseBlock | TurnWebSearchBlock;

/** One model turn: its blocks and an optional stop_reason (default tool_use when it calls a tool, else end_turn). */
export interface TurnObject {
  content: TurnBlock[];
  stop_reason?: StopReason | undefined;
  /**
   * Facts the model must see in the effective request before taking this turn; for each one it cannot see it
   * first re-reads the file (a `Read` call, no step consumed), at most DEFAULT_MAX_REREADS times. Default none.
   */
  needs?: Need[] | undefined;
}
/** A turn; a bare string is one text block. */
export type Turn = string | TurnObject;

/** A fault kind: what the emulator does instead of (or in the middle of) a normal answer. */
/**
 * `body_cut`: the server does the work (a scripted step, a web search) and answers 200, then the connection drops
 * part-way through the body: a non-streaming POST that succeeded although its client never read the answer (what
 * SDK 1.17 re-sends by itself). On a stream it is `connection_cut`.
 */
export type FaultKind =
  | "rate_limit"
  | "overloaded"
  | "server_error"
  | "connection_cut"
  | "stream_error"
  | "stall"
  | "body_cut";

export const FAULT_KINDS: readonly FaultKind[] = [
  "rate_limit",
  "overloaded",
  "server_error",
  "connection_cut",
  "stream_error",
  "stall",
  "body_cut",
];

/** A fault on the Nth `POST /v1/messages` (1-based), or at a seeded rate over all of them. */
export type FaultSpec =
  | { onRequest: number; kind: FaultKind }
  | { rate: number; kinds: FaultKind[]; seed?: number | undefined };

/** A scenario step: a fixed turn, or (in-process only) a function of the request. */
export type ScenarioStep = Turn | ((request: EmulatorRequest) => Turn | Promise<Turn>);

/** What a scenario file holds. */
export interface ScenarioFile {
  turns: Turn[];
  faults?: FaultSpec[] | undefined;
}

const StopReasonSchema: z.ZodType<StopReason> = z.enum(STOP_REASONS);

const TurnBlockSchema: z.ZodType<TurnBlock> = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string().min(1) }).strict(),
  z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string().min(1).optional() }).strict(),
  z
    .object({
      type: z.literal("tool_use"),
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
      input: z.record(z.string(), z.unknown()),
      id: z.string().min(1).optional(),
    })
    .strict(),
  z.object({ type: z.literal("web_search"), query: z.string().min(1) }).strict(),
]);

const NeedSchema: z.ZodType<Need> = z.object({ text: z.string().min(1), file: z.string().min(1) }).strict();

export const TurnSchema: z.ZodType<Turn> = z.union([
  z.string().min(1),
  z
    .object({
      content: z.array(TurnBlockSchema).min(1),
      stop_reason: StopReasonSchema.optional(),
      needs: z.array(NeedSchema).optional(),
    })
    .strict(),
]);

const FaultKindSchema: z.ZodType<FaultKind> = z.enum(FAULT_KINDS as [FaultKind, ...FaultKind[]]);

export const FaultSpecSchema: z.ZodType<FaultSpec> = z.union([
  z.object({ onRequest: z.number().int().min(1), kind: FaultKindSchema }).strict(),
  z
    .object({
      rate: z.number().min(0).max(1),
      kinds: z.array(FaultKindSchema).min(1),
      seed: z.number().int().optional(),
    })
    .strict(),
]);

export const ScenarioFileSchema: z.ZodType<ScenarioFile> = z
  .object({ turns: z.array(TurnSchema), faults: z.array(FaultSpecSchema).optional() })
  .strict();

/** The scenario file format as JSON Schema (for editors and docs). */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ScenarioFileSchema) as Record<string, unknown>;
}

/** Parses scenario JSON text; throws an Error naming the file and the first bad path. */
export function parseScenario(text: string, source = "scenario"): ScenarioFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not valid JSON (${(error as Error).message})`);
  }
  const result = ScenarioFileSchema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? issue.path.join(".") || "(root)" : "(root)";
    throw new Error(`${source}: ${where}: ${issue?.message ?? "invalid scenario"}`);
  }
  return result.data;
}

/** Reads and parses a scenario file. */
export async function loadScenarioFile(path: string): Promise<ScenarioFile> {
  return parseScenario(await readFile(path, "utf8"), path);
}

/** A turn in object form. */
export function normalizeTurn(turn: Turn): TurnObject {
  return typeof turn === "string" ? { content: [{ type: "text", text: turn }] } : turn;
}
