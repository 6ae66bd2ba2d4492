/**
 * The scripted model: answers main-loop requests with the scenario's turns in order; side requests consume
 * no step: a request that plainly asks for a summary gets one built from what the (effective) request holds,
 * any other request without tools (a title, a generic client's "hi") a chat-like echo. A turn with `needs`
 * is served only once its facts are visible in the effective request; until then the model re-reads their
 * files (DEFAULT_MAX_REREADS times at most, then the facts count as lost and the turn is served anyway so
 * the session finishes). Without a scenario, or once it is used up, it echoes the last user text.
 */
import type { AssistantContentBlock, StopReason } from "../content.js";
import type { EmulatorRequest } from "../request-types.js";
import { TokenRuler } from "../ruler.js";
import { visibleText } from "./effective-request.js";
import { DEFAULT_MAX_REREADS, filesOf, missingNeeds, type Need } from "./needs.js";
import type { IdGenerator } from "./random.js";
import { normalizeTurn, type ScenarioStep, type TurnObject } from "./scenario.js";
import { signThinking } from "./signature.js";
import { defaultSummary, lastUserText } from "./summary-text.js";
import { declaredWebSearch, declaresClientTools, type WebSearchDocument, webSearchBlocks } from "./web-search.js";

/**
 * A request whose last user message asks for a summary of the conversation (any client's wording, none in
 * particular): an imperative ("summarize …", "write/create/give … a summary of …"), as a model reads it. A
 * message that only *holds* a summary ("The conversation is summarized below", "the summary below covers …",
 * the first request after a compaction mid-turn) asks for nothing of the kind, and a model goes on with the task.
 */
const SUMMARY_INSTRUCTION =
  /(?:\bsummari[sz]e\b|\b(?:write|create|produce|provide|give|generate|prepare|make)\b[^\n]{0,40}\bsummary\b)[^\n]{0,80}\bconversation\b|\bconversation\b[^\n]{0,60}\bsummari[sz]e\b/i;

/** Why a request got the answer it got. */
export type ReplySource = "scenario" | "reread" | "echo" | "summary" | "side" | "search";

export interface ModelReply {
  content: AssistantContentBlock[];
  stopReason: StopReason;
  outputTokens: number;
  source: ReplySource;
  /** 0-based scenario step consumed ("scenario") or waited for ("reread"). */
  step?: number;
  /** "reread": the files read again because a need was not visible. */
  rereadFiles?: string[];
  /** "scenario": needs still invisible after DEFAULT_MAX_REREADS re-reads (served anyway). */
  lostFacts?: Need[];
  /** Server web searches the reply ran (its usage's `server_tool_use.web_search_requests`). */
  webSearchRequests?: number;
}

export interface ScriptedModelOptions {
  signatureSecret: string;
  ids: IdGenerator;
  /** Treat requests without tools as side requests (no step consumed). Default true. */
  sideRequestsWithoutTools?: boolean;
  /** The ruler output tokens are counted with. Default the tokenizer ×1. */
  ruler?: TokenRuler;
  /** Pages the server web search finds (model/web-search.ts). Default none: a search answers `unavailable`. */
  webSearchCorpus?: readonly WebSearchDocument[];
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
  /** The current step's turn, resolved once (a function step is called with the first request that reaches it). */
  private resolved: { index: number; turn: TurnObject } | undefined;
  /** Re-read turns spent on the current step. */
  private rereadTurns = 0;
  /** `Read` calls made because a need was not visible, over the whole session. */
  rereads = 0;
  /** Needs still invisible after the re-reads, over the whole session. */
  factsLost = 0;

  constructor(
    private readonly steps: readonly ScenarioStep[],
    private readonly options: ScriptedModelOptions,
  ) {}

  /** Steps not yet consumed. */
  remaining(): number {
    return Math.max(0, this.steps.length - this.nextStep);
  }

  /**
   * The answer to `request`; consumes a scenario step only for main-loop turns whose needs are met (or lost).
   * `effective` is what the model sees (context management applied); default `request` itself.
   */
  async respond(request: EmulatorRequest, effective: EmulatorRequest = request): Promise<ModelReply> {
    const kind = classifyRequest(request, this.options.sideRequestsWithoutTools ?? true);
    if (kind === "summary")
      return this.build({ content: [{ type: "text", text: defaultSummary(effective.messages) }] }, "summary");
    // A request without tools that does not ask for a summary is answered like a chat reply ("hi" → "Echo: hi").
    if (kind === "side") return { ...this.echo(request), source: "side" };
    // A request whose only tool is the server's web search is a search: the model searches for what was asked.
    const search = declaredWebSearch(request);
    if (search !== undefined && !declaresClientTools(request)) {
      const query = lastUserText(request.messages).trim();
      return this.build({ content: [{ type: "web_search", query }] }, "search", request);
    }
    const step = this.steps[this.nextStep];
    if (step === undefined) return this.echo(request);
    const index = this.nextStep;
    if (this.resolved?.index !== index) {
      const turn = typeof step === "function" ? await step(request) : step;
      this.resolved = { index, turn: normalizeTurn(turn) };
      this.rereadTurns = 0;
    }
    const turn = this.resolved.turn;
    const missing = turn.needs === undefined ? [] : missingNeeds(turn.needs, visibleText(effective));
    if (missing.length > 0 && this.rereadTurns < DEFAULT_MAX_REREADS) {
      this.rereadTurns++;
      const files = filesOf(missing);
      this.rereads += files.length;
      const reply = this.build(
        {
          content: [
            { type: "text", text: `I need to look at ${files.join(", ")} again.` },
            ...files.map((file) => ({ type: "tool_use" as const, name: "Read", input: { file_path: file } })),
          ],
        },
        "reread",
      );
      reply.step = index;
      reply.rereadFiles = files;
      return reply;
    }
    this.nextStep++;
    const reply = this.build(turn, "scenario", request);
    reply.step = index;
    if (missing.length > 0) {
      this.factsLost += missing.length;
      reply.lostFacts = missing;
    }
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

  private build(turn: TurnObject, source: ReplySource, request?: EmulatorRequest): ModelReply {
    const content: AssistantContentBlock[] = turn.content.flatMap((block): AssistantContentBlock[] => {
      switch (block.type) {
        case "web_search": {
          const spec = request === undefined ? undefined : declaredWebSearch(request);
          // A model cannot call a server tool the request did not declare: it says so instead.
          if (spec === undefined || request === undefined)
            return [{ type: "text", text: "Web search is not available in this request." }];
          const { webSearchCorpus, ids, signatureSecret } = this.options;
          return webSearchBlocks(block.query, spec, request, webSearchCorpus, ids, signatureSecret);
        }
        case "text":
          return [{ type: "text", text: block.text }];
        case "thinking":
          return [
            {
              type: "thinking",
              thinking: block.thinking,
              signature: block.signature ?? signThinking(block.thinking, this.options.signatureSecret),
            },
          ];
        case "tool_use":
          return [
            {
              type: "tool_use",
              id: block.id ?? this.options.ids.next("toolu"),
              name: block.name,
              input: block.input,
            },
          ];
        default:
          throw new Error(`unknown turn block ${JSON.stringify(block)}`);
      }
    });
    const callsTool = content.some((block) => block.type === "tool_use");
    let outputTokens = 0;
    for (const block of content) outputTokens += (this.options.ruler ?? TokenRuler.unscaled).block(block);
    // A search counts when it ran: an error result (max_uses_exceeded, unavailable) is not billed.
    const searches = content.filter(
      (block) => block.type === "web_search_tool_result" && Array.isArray(block.content),
    ).length;
    return {
      content,
      stopReason: turn.stop_reason ?? (callsTool ? "tool_use" : "end_turn"),
      outputTokens: Math.max(1, outputTokens),
      source,
      ...(searches > 0 ? { webSearchRequests: searches } : {}),
    };
  }
}
