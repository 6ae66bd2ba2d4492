/**
 * Tool results, recorded in block order, each answering a recorded tool_use: the results the executor
 * produced, the answers for tools cut by max_tokens, and those for an interruption. Not a stage: the
 * decide and recover stages call it (tools start as their blocks stream, through the attempt's executor in
 * turn-state.ts).
 */

import { hookContextEntries } from "../../hooks/index.js";
import { attachmentExtra, MEMORY_ATTACHMENT_TYPE } from "../../memory/index.js";
import {
  createAttachmentEntry,
  createToolResultEntry,
  createUserEntry,
  type ToolUseBlock,
  toolResultBlock,
} from "../../messages/index.js";
import { INTERRUPTED_MESSAGE } from "../../tools/index.js";
import type { EngineEvent } from "../events.js";
import { CUT_TOOL_USE_RESULT } from "../recovery/stop-reasons.js";
import type { AttemptState, TurnState } from "../turn-state.js";

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
      createToolResultEntry(recorder.context(), [toolResultBlock(block.id, INTERRUPTED_MESSAGE, true)], entry.uuid),
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
