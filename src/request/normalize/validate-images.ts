/**
 * Step 7: validate media. "image exceeds 5 MB maximum" and "too many images and documents" would fail the
 * whole request, so an oversize image becomes a short text note, and beyond 100 media blocks the oldest
 * are replaced the same way (the newest are the ones the model is working with).
 */
import type { ContentBlock, TextBlock, ToolResultContentBlock } from "../../messages/index.js";
import { toolResultWithContent } from "./canonical-block.js";
import type { WorkingMessage } from "./working-message.js";
import { withContent } from "./working-message.js";

/** Largest base64 image payload the API accepts (5 MB). */
export const DEFAULT_MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;
/** Most images and documents one request may carry. */
export const DEFAULT_MAX_MEDIA_BLOCKS = 100;

export const OVERSIZE_IMAGE_TEXT = "[image omitted: larger than the 5 MB limit]";
export const EXCESS_MEDIA_TEXT = "[media omitted: the request already carries the maximum number of images]";

export interface ValidateImagesOptions {
  /** Default `DEFAULT_MAX_IMAGE_BASE64_BYTES`. */
  maxImageBase64Bytes?: number;
  /** Default `DEFAULT_MAX_MEDIA_BLOCKS`. */
  maxMediaBlocks?: number;
}

type Media = ContentBlock | ToolResultContentBlock;

function isOversize(block: Media, limit: number): boolean {
  return block.type === "image" && block.source.type === "base64" && block.source.data.length > limit;
}

/** Media count, and whether any image is oversize (so the common clean case allocates nothing). */
function survey(messages: readonly WorkingMessage[], limit: number): { count: number; oversize: boolean } {
  let count = 0;
  let oversize = false;
  const visit = (block: Media): void => {
    if (block.type !== "image" && block.type !== "document") return;
    count++;
    if (isOversize(block, limit)) oversize = true;
  };
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "tool_result" && Array.isArray(block.content)) for (const inner of block.content) visit(inner);
      else visit(block);
    }
  }
  return { count, oversize };
}

/** Messages whose media obey the size and count limits (offending blocks become text notes). */
export function validateImages(
  messages: readonly WorkingMessage[],
  options: ValidateImagesOptions = {},
): WorkingMessage[] {
  const sizeLimit = options.maxImageBase64Bytes ?? DEFAULT_MAX_IMAGE_BASE64_BYTES;
  const countLimit = options.maxMediaBlocks ?? DEFAULT_MAX_MEDIA_BLOCKS;
  const { count, oversize } = survey(messages, sizeLimit);
  let toDrop = Math.max(0, count - countLimit);
  if (toDrop === 0 && !oversize) return messages.slice();
  // Replaces one media block (or returns it unchanged), oldest first while over the count limit.
  const check = <T extends Media>(block: T): T | TextBlock => {
    if (block.type !== "image" && block.type !== "document") return block;
    if (toDrop > 0) {
      toDrop--;
      return { type: "text", text: EXCESS_MEDIA_TEXT };
    }
    return isOversize(block, sizeLimit) ? { type: "text", text: OVERSIZE_IMAGE_TEXT } : block;
  };
  return messages.map((message) => {
    let changed = false;
    const content = message.content.map((block): ContentBlock => {
      if (block.type === "tool_result" && Array.isArray(block.content)) {
        const inner = block.content.map(check);
        if (inner.every((part, index) => part === (block.content as ToolResultContentBlock[])[index])) return block;
        changed = true;
        return toolResultWithContent(block, inner);
      }
      const checked = check(block);
      if (checked !== block) changed = true;
      return checked;
    });
    return changed ? withContent(message, content) : message;
  });
}
