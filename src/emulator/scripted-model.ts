/**
 * The scripted model: answers main-loop requests with the scenario's turns in order; side requests consume
 * no step: a request that plainly asks for a summary gets one, any other request without tools (a title, a
 * generic client's "hi") a chat-like echo. Without a scenario, or once it is used up,
 * it echoes the last user text.
 */
import { type AssistantContentBlock, estimateBlockTokens, type StopReason } from "../messages/index.js";
import type { IdGenerator } from "./random.js";
import type { EmulatorRequest } from "./request-types.js";
import { normalizeTurn, type ScenarioStep, type TurnObject } from "./scenario.js";
import { signThinking } from "./signature.js";
import { defaultSummary, lastUserText } from "./summary-text.js";

/** An instruction to summarise the conversation, as compaction requests phrase it. */
const SUMMARY_INSTRUCTION =
  /summar(?:y|ise|ize)[^\n]{0,60}\bconversation\b|\bconversation\b[^\n]{0,60}summar(?:y|ise|ize)|<analysis>/i;

/** Why a request got the answer it got. */
export type ReplySource = "scenario" | "echo" | "summary" | "side";

export interface ModelReply {
  content: AssistantContentBlock[];
  stopReason: StopReason;
  outputTokens: number;
  source: ReplySource;
  /** 0-based scenario step consumed, when `source` is "scenario". */
  step?: number;
}

export interface ScriptedModelOptions {
  signatureSecret: string;
  ids: IdGenerator;
  /** Treat requests without tools as side requests (no step consumed). Default true. */
  sideRequestsWithoutTools?: boolean;
}

/** Whether a request is a summary, another side request, or a main-loop turn. */
export function classifyRequest(
  request: EmulatorRequest,
  sideRequestsWithoutTools = true,
): "summary" | "side" | "main" {
  if (SUMMARY_INSTRUCTION.test(lastUserText(request.messages))) return "summary";
  if (sideRequestsWithoutTools && (request.tools === undefined || request.tools.length === 0)) return "side";
  return "main";
}

export class ScriptedModel {
  private nextStep = 0;

  constructor(
    private readonly steps: readonly ScenarioStep[],
    private readonly options: ScriptedModelOptions,
  ) {}

  /** Steps not yet consumed. */
  remaining(): number {
    return Math.max(0, this.steps.length - this.nextStep);
  }

  /** The answer to `request`; consumes a scenario step only for main-loop turns. */
  async respond(request: EmulatorRequest): Promise<ModelReply> {
    const kind = classifyRequest(request, this.options.sideRequestsWithoutTools ?? true);
    if (kind === "summary")
      return this.build({ content: [{ type: "text", text: defaultSummary(request.messages) }] }, "summary");
    // A request without tools that does not ask for a summary is answered like a chat reply ("hi" → "Echo: hi").
    if (kind === "side") return { ...this.echo(request), source: "side" };
    const step = this.steps[this.nextStep];
    if (step === undefined) return this.echo(request);
    const index = this.nextStep++;
    const turn = typeof step === "function" ? await step(request) : step;
    const reply = this.build(normalizeTurn(turn), "scenario");
    reply.step = index;
    return reply;
  }

  /** Makes `step` pending again (its answer was cut at max_tokens; the next request gets it whole). */
  rewind(step: number): void {
    if (step < this.nextStep) this.nextStep = step;
  }

  /** The default answer, consuming nothing (also used for faulted streams). */
  echo(request: EmulatorRequest): ModelReply {
    // Clients may tag user messages with snip ids ("[id:ab12cd]"); an echo reads better without them.
    const text = lastUserText(request.messages)
      .replace(/\s*\[id:[0-9a-z]+\]\s*$/, "")
      .trim();
    return this.build({ content: [{ type: "text", text: text.length > 0 ? `Echo: ${text}` : "OK." }] }, "echo");
  }

  private build(turn: TurnObject, source: ReplySource): ModelReply {
    const content: AssistantContentBlock[] = turn.content.map((block): AssistantContentBlock => {
      switch (block.type) {
        case "text":
          return { type: "text", text: block.text };
        case "thinking":
          return {
            type: "thinking",
            thinking: block.thinking,
            signature: block.signature ?? signThinking(block.thinking, this.options.signatureSecret),
          };
        case "tool_use":
          return {
            type: "tool_use",
            id: block.id ?? this.options.ids.next("toolu"),
            name: block.name,
            input: block.input,
          };
        default:
          throw new Error(`unknown turn block ${JSON.stringify(block)}`);
      }
    });
    const callsTool = content.some((block) => block.type === "tool_use");
    let outputTokens = 0;
    for (const block of content) outputTokens += estimateBlockTokens(block);
    return {
      content,
      stopReason: turn.stop_reason ?? (callsTool ? "tool_use" : "end_turn"),
      outputTokens: Math.max(1, outputTokens),
      source,
    };
  }
}
