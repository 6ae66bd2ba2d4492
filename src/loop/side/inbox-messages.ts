/**
 * Messages SendMessage queued for a background agent (tools/agents/agent-inbox.ts) reach that agent's loop at the start
 * of its next iteration, as user messages recorded in its sidechain, so they are sent in that request and kept
 * (docs/TOOLS.md "SendMessage"). Only a background subagent's loop has an inbox (`QueryContext.inbox`).
 */
import { createUserEntry } from "../../messages/index.js";
import type { EngineEvent } from "../events.js";
import type { TurnState } from "../turn-state.js";

/** Records one user message per message waiting in the loop's inbox; yields them. */
export function* deliverInboxMessages(turn: TurnState): Generator<EngineEvent> {
  const { context, recorder } = turn;
  for (const text of context.inbox?.() ?? []) {
    const entry = createUserEntry(recorder.context(), text);
    recorder.append(entry);
    yield { type: "user", entry };
  }
}
