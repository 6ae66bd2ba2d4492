/**
 * Step 5: append snip id tags. Each non-meta user entry's last text block ends with `[id:xxxxxx]`, so the
 * model can name messages to the Snip tool. Tags are derived from the entry's uuid alone, so a message's
 * bytes never change from one turn to the next.
 */
import type { ContentBlock, TextBlock } from "../../messages/index.js";
import { shortId } from "../../messages/index.js";
import { DerivedCache } from "../../timeline/index.js";
import type { WorkingMessage } from "./working-message.js";

/** The tag appended to a user message's last text block. */
function snipTag(uuid: string): string {
  return `\n[id:${shortId(uuid)}]`;
}

const taggedBlocks = new DerivedCache<TextBlock, TextBlock>();

/** Messages with snip tags appended to every snip target block (cloned). */
export function appendSnipTags(messages: readonly WorkingMessage[]): WorkingMessage[] {
  return messages.map((message) => {
    if (message.snipTargets.length === 0) return message;
    const tagged = new Map<ContentBlock, TextBlock>();
    for (const target of message.snipTargets) {
      const current = tagged.get(target.block) ?? target.block;
      tagged.set(
        target.block,
        taggedBlocks.get(current, target.uuid, () => ({ type: "text", text: current.text + snipTag(target.uuid) })),
      );
    }
    const content = message.content.map((block) => tagged.get(block) ?? block);
    return { ...message, content, snipTargets: [] };
  });
}
