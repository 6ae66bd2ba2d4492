/**
 * The tool stage: tools start as their blocks finish streaming (the executor), and their results are
 * recorded in block order, each answering a recorded tool_use. Also what one model request's attempt
 * accumulates, since a retried attempt starts its tools over.
 */

import { hookContextEntries } from "../hooks/index.js";
import { attachmentExtra, MEMORY_ATTACHMENT_TYPE } from "../memory/index.js";
import {
  type AssistantEntry,
  createAttachmentEntry,
  createProgressEntry,
  createToolResultEntry,
  createUserEntry,
  type ToolUseBlock,
  toolResultBlock,
} from "../messages/index.js";
import { Channel } from "./channel.js";
import type { EngineEvent } from "./events.js";
import { CUT_TOOL_USE_RESULT } from "./stop-reasons.js";
import { type ExecutedCall, ToolExecutor } from "./tool-executor.js";
import type { TurnState } from "./turn-state.js";

/** Events that tool callbacks push while the loop is busy elsewhere, plus the executor's results. */
export type LoopItem = EngineEvent | ({ type: "_result"; block: ToolUseBlock } & ExecutedCall);

/** What one model request has produced so far; a retry starts a fresh attempt (same channel). */
export interface AttemptState {
  readonly channel: Channel<LoopItem>;
  executor: ToolExecutor;
  /** The assistant entries this attempt recorded, in order. */
  entries: AssistantEntry[];
  /** The recorded tool_use entries by tool_use id (a result answers its owner). */
  readonly toolOwners: Map<string, AssistantEntry>;
  stopReason: string | null;
  /** Text of this attempt's text blocks. */
  text: string;
  /** tool_use blocks whose input did not parse: they wait for the stop reason. */
  heldTools: ToolUseBlock[];
}

export function newAttempt(turn: TurnState): AttemptState {
  const channel = new Channel<LoopItem>();
  return {
    channel,
    executor: newExecutor(turn, channel),
    entries: [],
    toolOwners: new Map(),
    stopReason: null,
    text: "",
    heldTools: [],
  };
}

/** Forgets a superseded attempt's blocks and cancels its tools; the next attempt starts over. */
export function restartAttempt(turn: TurnState, attempt: AttemptState): void {
  attempt.executor.discard();
  attempt.executor = newExecutor(turn, attempt.channel);
  attempt.entries = [];
  attempt.toolOwners.clear();
  attempt.text = "";
  attempt.heldTools = [];
}

function newExecutor(turn: TurnState, channel: Channel<LoopItem>): ToolExecutor {
  const { context, recorder } = turn;
  return new ToolExecutor({
    tools: context.tools,
    policy: context.policy,
    ...(context.toolRuntime ? { runtime: context.toolRuntime } : {}),
    cwd: context.cwd,
    additionalDirectories: context.additionalDirectories,
    signal: context.signal,
    ...(context.hooks ? { hooks: context.hooks } : {}),
    session: {
      sessionId: context.sessionId,
      entries: () => context.timeline.entries,
      append: (entry) => recorder.append(entry),
    },
    onStart: (block) => channel.push({ type: "tool_start", block }),
    onProgress: (toolUseId, message) => {
      recorder.append(createProgressEntry(recorder.context(), toolUseId, message));
      channel.push({ type: "tool_progress", toolUseId, message });
    },
  });
}

/** Records that `entries` were replaced (a `stream_superseded` entry), when there are any. */
export function supersede(turn: TurnState, entries: readonly AssistantEntry[], why: string): void {
  if (entries.length === 0) return;
  turn.recorder.system("stream_superseded", why, { supersededUuids: entries.map((entry) => entry.uuid) });
}

/** Waits for every added tool and records its result, in block order; progress flows out meanwhile. */
export async function* collectResults(turn: TurnState, attempt: AttemptState): AsyncGenerator<EngineEvent> {
  const { channel, executor, toolOwners } = attempt;
  const { recorder } = turn;
  void (async () => {
    for await (const result of executor.results()) channel.push({ type: "_result", ...result });
    channel.close();
  })();
  for await (const item of channel) {
    if (item.type !== "_result") {
      yield item;
      continue;
    }
    const owner = toolOwners.get(item.block.id);
    if (!owner) continue; // its tool_use was never recorded (stream cut before the entry landed)
    const isError = item.output.isError ?? false;
    const entry = createToolResultEntry(
      recorder.context(),
      [toolResultBlock(item.block.id, item.output.content, isError)],
      owner.uuid,
      item.output.display,
    );
    recorder.append(entry);
    yield { type: "tool_end", block: item.block, entry, isError };
    // Hook context right after the result it is about; the normalizer keeps it there (reorder rule).
    for (const { event, text } of item.hookContext) {
      const [attachment] = hookContextEntries(recorder.context(), event, [text]);
      if (attachment === undefined) continue;
      recorder.append(attachment);
      yield { type: "entry", entry: attachment };
    }
    for (const notice of item.hookNotices) yield recorder.notice("warning", notice);
    if (!isError) yield* attachNestedMemory(turn, item.block);
  }
}

/** Nested memory files the tool's path brings into force, attached once, right after its result. */
async function* attachNestedMemory(turn: TurnState, block: ToolUseBlock): AsyncGenerator<EngineEvent> {
  const { context, recorder } = turn;
  if (context.memory === undefined) return;
  const found = await context.memory.touched(block.name, block.input, context.timeline.entries);
  for (const line of found.notices) yield recorder.notice("warning", line);
  if (found.attachment === undefined) return;
  const attachment = createAttachmentEntry(
    recorder.context(),
    MEMORY_ATTACHMENT_TYPE,
    found.attachment.content,
    attachmentExtra(found.attachment),
  );
  recorder.append(attachment);
  yield { type: "entry", entry: attachment };
}

/** Answers tool_use blocks cut by max_tokens: they never ran, and the model is told why. */
export function* answerCutTools(
  turn: TurnState,
  attempt: AttemptState,
  cutTools: readonly ToolUseBlock[],
): Generator<EngineEvent> {
  const { recorder } = turn;
  for (const block of cutTools) {
    const owner = attempt.toolOwners.get(block.id);
    if (owner === undefined) continue;
    const result = toolResultBlock(block.id, CUT_TOOL_USE_RESULT, true);
    const entry = createToolResultEntry(recorder.context(), [result], owner.uuid);
    recorder.append(entry);
    yield { type: "tool_end", block, entry, isError: true };
  }
}

/** An interruption: running tools are answered, unstarted ones too, then the person's note is recorded. */
export async function* recordInterruption(turn: TurnState, attempt: AttemptState): AsyncGenerator<EngineEvent> {
  const { recorder } = turn;
  if (attempt.toolOwners.size > 0 && attempt.executor.size > 0) yield* collectResults(turn, attempt);
  // tool_use entries recorded but never handed to the executor still need an answer
  for (const entry of attempt.entries) {
    const block = entry.message.content[0];
    if (block.type !== "tool_use" || answered(turn, block.id)) continue;
    recorder.append(
      createToolResultEntry(
        recorder.context(),
        [toolResultBlock(block.id, "Interrupted by user before the tool ran.", true)],
        entry.uuid,
      ),
    );
  }
  const note = createUserEntry(recorder.context(), "[Request interrupted by user]", { isMeta: true });
  recorder.append(note);
  yield { type: "user", entry: note };
  await recorder.flush();
}

function answered(turn: TurnState, toolUseId: string): boolean {
  const entries = turn.context.timeline.entries;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    if (entry.message.content.some((block) => block.type === "tool_result" && block.tool_use_id === toolUseId))
      return true;
  }
  return false;
}
