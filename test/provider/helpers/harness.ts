/**
 * Shared test scaffolding: a request, a chaining entry context, a recording sleep.
 */
import { AssistantEntries } from "../../../src/loop/assistant-entries.js";
import type { AssistantEntry, EntryContext } from "../../../src/messages/index.js";
import type { ProviderEvent } from "../../../src/provider/index.js";
import type { AssembledRequest, MessagesRequest } from "../../../src/request/types.js";
import { testUuid } from "../../../support/timeline-builder.js";

/** The fake key used throughout; it must never show up in an error message. */
export const TEST_API_KEY = "sk-ant-api03-TESTKEY0123456789abcdefghijklmnopqrstuvwxyz";

export function makeRequest(model = "claude-test-1", betas: string[] = []): AssembledRequest {
  const body: MessagesRequest = {
    model,
    max_tokens: 1024,
    system: [{ type: "text", text: "You are terse. ünïcödé" }],
    messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
  };
  return { body, betas, json: JSON.stringify(body) };
}

/** Entry contexts chained like the loop chains them: each parent is the previous entry. */
export function chainedContext(sessionId = "session-1"): { next: () => EntryContext; handed: number } {
  const state = { handed: 0, parent: null as string | null };
  let counter = 0;
  return {
    get handed() {
      return state.handed;
    },
    next() {
      state.handed++;
      counter++;
      const uuid = testUuid(counter);
      const context: EntryContext = { sessionId, parentUuid: state.parent, uuid, now: new Date(0) };
      state.parent = uuid;
      return context;
    },
  };
}

type RetryEvent = Extract<ProviderEvent, { type: "retry" }>;

/**
 * A provider event, or what the loop makes of the stream: the assistant entries (`assistant_entry`, where
 * the loop records them) and, on each retry, the uuids of the entries the failed attempt had recorded.
 */
export type RecordedEvent =
  | Exclude<ProviderEvent, { type: "retry" }>
  | (RetryEvent & { supersededUuids: string[] })
  | { type: "assistant_entry"; entry: AssistantEntry };

/** The provider's events with the assistant entries the loop's stream stage makes of them, in place. */
export async function* recorded(
  events: AsyncIterable<ProviderEvent>,
  context: () => EntryContext,
): AsyncGenerator<RecordedEvent> {
  const entries = new AssistantEntries(context);
  let attempt: string[] = [];
  for await (const event of events) {
    for (const entry of entries.push(event)) {
      attempt.push(entry.uuid);
      yield { type: "assistant_entry", entry };
    }
    if (event.type === "retry") {
      yield { ...event, supersededUuids: attempt };
      attempt = [];
    } else yield event;
  }
}

/** Collects until the stream throws; returns the events and the error. */
export async function collectUntilError(
  events: AsyncIterable<RecordedEvent>,
): Promise<{ events: RecordedEvent[]; error: unknown }> {
  const out: RecordedEvent[] = [];
  try {
    for await (const event of events) out.push(event);
  } catch (error) {
    return { events: out, error };
  }
  throw new Error(`expected the stream to fail; it produced ${out.length} events`);
}

/** A sleep that records each requested delay and returns at once. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}

export function ofType<T extends RecordedEvent["type"]>(
  events: readonly RecordedEvent[],
  type: T,
): Extract<RecordedEvent, { type: T }>[] {
  return events.filter((event): event is Extract<RecordedEvent, { type: T }> => event.type === type);
}
