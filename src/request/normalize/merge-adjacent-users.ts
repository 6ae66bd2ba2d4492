/**
 * Step 4 (and again after the clean-ups): merge adjacent user messages. Attachments and reminders often
 * follow a user message directly; some providers (Bedrock) reject consecutive user turns, and the API
 * requires tool_result blocks first in a user message, so results are hoisted in front.
 * Where two text blocks meet at a seam, the later one gets a leading newline so the texts do not run
 * together; the earlier block is never changed, which keeps the bytes of an already-sent prefix stable.
 * Each run is merged in one go, so a long run of attachments costs O(run), not O(run²).
 */
import type { ContentBlock, TextBlock } from "../../messages/index.js";
import { memoizeByObject } from "../../timeline/index.js";
import type { SnipTarget, WorkingMessage } from "./working-message.js";

/** The later block at a seam, with its leading newline: the same object every turn. */
const seamBlock = memoizeByObject((block: TextBlock): TextBlock => ({ type: "text", text: `\n${block.text}` }));

function mergeRun(run: readonly WorkingMessage[]): WorkingMessage {
  const results: ContentBlock[] = [];
  const others: ContentBlock[] = [];
  const snipTargets: SnipTarget[] = [];
  const seamed = new Map<TextBlock, TextBlock>();
  let isMeta = true;
  for (const message of run) {
    isMeta &&= message.isMeta;
    let atSeam = others.length > 0 && others[others.length - 1]!.type === "text";
    for (const block of message.content) {
      if (block.type === "tool_result") {
        results.push(block);
        continue;
      }
      if (atSeam && block.type === "text") {
        const joined = seamBlock(block);
        seamed.set(block, joined);
        others.push(joined);
      } else others.push(block);
      atSeam = false;
    }
    for (const target of message.snipTargets) {
      const moved = seamed.get(target.block);
      snipTargets.push(moved ? { uuid: target.uuid, block: moved } : target);
    }
  }
  return { role: "user", content: results.concat(others), messageId: undefined, isMeta, snipTargets };
}

/** Messages with every run of adjacent user messages merged into one. */
export function mergeAdjacentUsers(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const result: WorkingMessage[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index]!;
    let end = index + 1;
    if (message.role === "user") while (end < messages.length && messages[end]!.role === "user") end++;
    result.push(end - index === 1 ? message : mergeRun(messages.slice(index, end)));
    index = end;
  }
  return result;
}
