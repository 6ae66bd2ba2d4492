/**
 * What the interactive spinner says while a turn runs: what runs now (thinking, a tool, writing), for how long,
 * and how much the model has written. Time spent answering a permission question does not count.
 */
import type { EngineEvent } from "../../../loop/events.js";
import { estimateCharTokens } from "../../../messages/index.js";
import { summarizeToolCall } from "../../../tools/index.js";
import { formatTokens } from "../status/status-line.js";

export class TurnActivity {
  #state = { label: "Thinking", started: 0, outputChars: 0, outputTokens: 0 };

  /** A turn starts now. */
  start(): void {
    this.#state = { label: "Thinking", started: Date.now(), outputChars: 0, outputTokens: 0 };
  }

  /** `milliseconds` spent waiting on the person: not counted. */
  pause(milliseconds: number): void {
    this.#state.started += milliseconds;
  }

  /** Follows the turn for the spinner: what runs now, and how much the model has written. */
  track(event: EngineEvent): void {
    const activity = this.#state;
    switch (event.type) {
      case "request_start":
        activity.label = "Thinking";
        return;
      case "tool_start":
        activity.label = `Running ${summarizeToolCall(event.block.name, event.block.input)}`;
        return;
      case "tool_progress":
        activity.label = `${activity.label.split(" · ")[0]} · ${event.message.split("\n")[0]?.slice(0, 60) ?? ""}`;
        return;
      case "tool_end":
        activity.label = "Working";
        return;
      case "text_delta":
        activity.label = "Writing";
        activity.outputChars += event.text.length;
        return;
      case "message_end":
        activity.outputTokens += event.usage.output_tokens;
        activity.outputChars = 0;
        return;
      default:
        return;
    }
  }

  /** `Running Bash(npm test)… · 12s · ↓ 1.2k tokens · esc to interrupt` */
  describe(): string {
    const activity = this.#state;
    const seconds = Math.floor((Date.now() - activity.started) / 1000);
    // Tokens of finished responses, plus the estimate (messages/tokens.ts) for the one streaming now.
    const tokens = activity.outputTokens + estimateCharTokens(activity.outputChars);
    const parts = [`${activity.label}…`, `${seconds}s`];
    if (tokens > 0) parts.push(`↓ ${formatTokens(tokens)} tokens`);
    parts.push("esc to interrupt");
    return parts.join(" · ");
  }
}
