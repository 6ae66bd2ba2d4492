/**
 * What the loop and engine tell their caller, and the explicit reasons a loop iteration continues or ends.
 */
import type {
  AssistantEntry,
  MessageEntry,
  SystemEntry,
  TerminalReason,
  ToolUseBlock,
  TurnUsage,
  UserEntry,
} from "../messages/index.js";
import type { ResponseEvent } from "../provider/index.js";
import type { AssembledRequest } from "../request/index.js";

/** Why the loop goes round again. */
export type ContinueReason =
  | "tool_use"
  | "max_tokens_escalation"
  | "max_tokens_continuation"
  | "media_stripped"
  /** The server refused a feature; it is off for the session and the request goes again without it. */
  | "feature_off"
  | "overflow_clear"
  | "collapse_drain"
  | "reactive_compact"
  | "overflow_drop"
  /** Nothing could be summarised or dropped: the biggest tool results were cut to fit (compaction/overflow/overflow-cut.ts). */
  | "overflow_cut"
  /** A refusal showed the tools and system prompt are most of the window: the retry sends them lean. */
  | "lean_tools"
  /** The server compacted and paused (`stop_reason: "compaction"`): the turn goes on from its summary. */
  | "server_compaction";

/** Why the loop stopped (defined with the vocabulary, where the Agent tool reads it too). */
export type { TerminalReason };

export type EngineEvent =
  /**
   * The response as it streams, in the provider's neutral events (text, thinking and tool-input deltas,
   * block and message bounds, warnings). `sse_passthrough` is for print mode's wire-format output only.
   */
  | ResponseEvent
  /** The request about to be sent (for /context and debugging). */
  | { type: "request_start"; request: AssembledRequest; iteration: number }
  /** One assistant block has been recorded. */
  | { type: "assistant"; entry: AssistantEntry }
  | { type: "user"; entry: UserEntry }
  | { type: "tool_start"; block: ToolUseBlock }
  | { type: "tool_progress"; toolUseId: string; message: string }
  /** A tool finished; `entry` holds its recorded tool_result. */
  | { type: "tool_end"; block: ToolUseBlock; entry: UserEntry; isError: boolean }
  /** A notice for the person: retries, fallbacks, cache breaks, compactions. */
  | { type: "notice"; level: "info" | "warning" | "error"; message: string; entry?: SystemEntry }
  | { type: "loop_continue"; reason: ContinueReason }
  /** The turn begins: the first event of every turn, before any request (its pair is `turn_end`). */
  | { type: "turn_start"; model: string }
  | {
      type: "turn_end";
      reason: TerminalReason;
      usage: TurnUsage;
      /** Times round the loop (a recovery goes round without a request). */
      iterations: number;
      /**
       * Main model requests of this turn the server answered: what `--max-turns` counts and what print mode's
       * `num_turns` reports (Claude Code's turns: one per assistant response; side requests and refused ones are
       * not turns).
       */
      answeredRequests: number;
      error?: string;
      lastText: string;
    }
  /** Any other timeline entry appended during the turn (records, attachments, boundaries). */
  | { type: "entry"; entry: MessageEntry };

/** The types of the response events the loop passes on as they stream. */
const RESPONSE_EVENT_TYPES: ReadonlySet<EngineEvent["type"]> = new Set<ResponseEvent["type"]>([
  "message_start",
  "block_start",
  "text_delta",
  "thinking_delta",
  "tool_input_delta",
  "block_end",
  "message_end",
  "stream_warning",
  "sse_passthrough",
]);

/** Whether `event` is part of a streaming response (something arrived from the model). */
export function isResponseEvent(event: EngineEvent): event is ResponseEvent {
  return RESPONSE_EVENT_TYPES.has(event.type);
}
