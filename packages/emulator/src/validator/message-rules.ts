/**
 * Conversation-level rules over `messages`: roles and alternation, non-empty content, prefill whitespace,
 * thinking placement and signatures, and tool_use / tool_result pairing and order.
 */
import { verifyThinking } from "../model/signature.js";
import { verifyBoundThinking } from "../model/thinking-binding.js";
import { checkMessageBlock } from "./block-rules.js";
import type { ValidationContext } from "./context.js";
import {
  SYSTEM_MESSAGE_BETA_FIELDS,
  SYSTEM_MESSAGE_BLOCKS,
  SYSTEM_MESSAGE_KEYS,
  SYSTEM_MESSAGE_OUTPUT_CONFIG_KEYS,
  unlocks,
} from "./known-fields.js";
import { checkServerToolPairs } from "./server-tool-rules.js";
import { checkExtraKeys, invalid, isRecord } from "./violation.js";

const MESSAGE_KEYS: ReadonlySet<string> = new Set(["role", "content"]);

/** Facts about the conversation that request-level rules (thinking config, tool_choice) need afterwards. */
export interface ConversationFacts {
  /** Tool names used by tool_use blocks. */
  toolUseNames: Set<string>;
}

export function checkMessages(messages: unknown, context: ValidationContext): ConversationFacts {
  const out = context.out;
  const facts: ConversationFacts = { toolUseNames: new Set() };
  if (messages === undefined) {
    out.push(invalid("messages", "Field required"));
    return facts;
  }
  if (!Array.isArray(messages)) {
    out.push(invalid("messages", "Input should be a valid list"));
    return facts;
  }
  if (messages.length === 0) {
    out.push(invalid("messages", "at least one message is required"));
    return facts;
  }
  const lastIndex = messages.length - 1;
  let lastAssistantIndex = -1;
  for (let index = lastIndex; index >= 0; index--) {
    const candidate: unknown = messages[index];
    if (isRecord(candidate) && candidate.role === "assistant") {
      lastAssistantIndex = index;
      break;
    }
  }
  // tool_use ids of the previous assistant message, still waiting for their results.
  let pendingToolUses: Map<string, true> | undefined;
  let previousRole: unknown;
  const seenToolUseIds = new Set<string>();
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    const path = `messages.${index}`;
    if (!isRecord(message)) {
      out.push(invalid(path, "Input should be a valid dictionary"));
      pendingToolUses = undefined;
      continue;
    }
    const role = message.role;
    if (role === "system") {
      // Mid-conversation system messages (SDK `BetaSystemMessageParam`): instructions between turns. They take no
      // part in alternation or tool pairing; the conversation still starts with a user message.
      if (index === 0) out.push(invalid(path, 'first message must use the "user" role'));
      checkSystemMessage(message, path, context);
      continue;
    }
    checkExtraKeys(message, MESSAGE_KEYS, path, out);
    if (role !== "user" && role !== "assistant") {
      out.push(invalid(`${path}.role`, "Input should be 'user', 'assistant' or 'system'"));
      pendingToolUses = undefined;
      continue;
    }
    if (index === 0 && role !== "user") out.push(invalid(path, 'first message must use the "user" role'));
    if (index > 0 && role === previousRole) {
      out.push(
        invalid(
          path,
          'roles must alternate between "user" and "assistant", but found multiple "' + role + '" roles in a row',
        ),
      );
    }
    previousRole = role;
    const isFinalAssistant = role === "assistant" && index === lastIndex;
    const content = message.content;
    const answered = new Set<string>();
    if (typeof content === "string") {
      if (content.length === 0 && !isFinalAssistant) {
        out.push(
          invalid(path, "all messages must have non-empty content except for the optional final assistant message"),
        );
      } else if (content.length > 0 && content.trim().length === 0) {
        out.push(invalid(path, "text content blocks must contain non-whitespace text"));
      } else if (isFinalAssistant && content.length > 0 && /\s$/.test(content)) {
        out.push(invalid(path, "final assistant content cannot end with trailing whitespace"));
      }
    } else if (Array.isArray(content)) {
      if (content.length === 0 && !isFinalAssistant) {
        out.push(
          invalid(path, "all messages must have non-empty content except for the optional final assistant message"),
        );
      }
      if (role === "assistant") {
        checkAssistantContent(
          content,
          path,
          index === lastAssistantIndex,
          isFinalAssistant,
          context,
          facts,
          seenToolUseIds,
        );
      } else {
        checkUserContent(content, path, pendingToolUses, answered, context);
      }
    } else {
      out.push(invalid(`${path}.content`, "Input should be a valid string or list"));
    }
    if (pendingToolUses && pendingToolUses.size > 0) {
      // `pendingToolUses` belongs to messages[index-1]: this message had to answer all of them.
      const missing = [...pendingToolUses.keys()].filter((id) => !answered.has(id));
      if (missing.length > 0) {
        out.push(
          invalid(
            `messages.${index - 1}`,
            `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. ` +
              "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
          ),
        );
      }
    }
    pendingToolUses = role === "assistant" && Array.isArray(content) ? toolUseIds(content) : undefined;
  }
  return facts;
}

function toolUseIds(content: readonly unknown[]): Map<string, true> {
  const ids = new Map<string, true>();
  for (const block of content) {
    if (isRecord(block) && block.type === "tool_use" && typeof block.id === "string") ids.set(block.id, true);
  }
  return ids;
}

function checkAssistantContent(
  content: readonly unknown[],
  path: string,
  isLatestAssistant: boolean,
  isFinalAssistant: boolean,
  context: ValidationContext,
  facts: ConversationFacts,
  seenToolUseIds: Set<string>,
): void {
  const out = context.out;
  let seenNonThinking = false;
  let lastType: string | undefined;
  for (let blockIndex = 0; blockIndex < content.length; blockIndex++) {
    const block: unknown = content[blockIndex];
    const blockPath = `${path}.content.${blockIndex}`;
    const type = checkMessageBlock(block, blockPath, "assistant", context);
    lastType = type;
    if (type === undefined || !isRecord(block)) continue;
    const isThinking = type === "thinking" || type === "redacted_thinking";
    if (isThinking && seenNonThinking) {
      out.push(invalid(blockPath, "`thinking` and `redacted_thinking` blocks must come first in an assistant message"));
    }
    // A server compaction block opens the response that carries it, thinking after it (SDK `BetaCompactionBlock`):
    // sent back verbatim, that order is the API's own.
    if (!isThinking && type !== "compaction") seenNonThinking = true;
    if (
      type === "thinking" &&
      isLatestAssistant &&
      context.options.signatureSecret !== undefined &&
      typeof block.thinking === "string" &&
      typeof block.signature === "string" &&
      block.signature.length > 0 &&
      !verifyThinking(block.thinking, block.signature, context.options.signatureSecret) &&
      !verifyBoundThinking(block.thinking, block.signature, context.options.signatureSecret)
    ) {
      out.push(
        invalid(
          blockPath,
          "`thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. " +
            "These blocks must remain as they were in the original response.",
        ),
      );
    }
    if (type === "tool_use") {
      if (typeof block.name === "string") facts.toolUseNames.add(block.name);
      if (typeof block.id === "string") {
        if (seenToolUseIds.has(block.id))
          out.push(invalid(`${blockPath}.id`, `\`tool_use\` ids must be unique: ${block.id}`));
        seenToolUseIds.add(block.id);
      }
    }
    if (isFinalAssistant && blockIndex === content.length - 1 && type === "text" && typeof block.text === "string") {
      if (block.text.trim().length > 0 && /\s$/.test(block.text)) {
        out.push(invalid(blockPath, "final assistant content cannot end with trailing whitespace"));
      }
    }
  }
  checkServerToolPairs(content, path, context);
  if (lastType === "thinking" || lastType === "redacted_thinking") {
    out.push(
      invalid(`${path}.content.${content.length - 1}`, "The final block in an assistant message cannot be `thinking`."),
    );
  }
}

function checkUserContent(
  content: readonly unknown[],
  path: string,
  pendingToolUses: Map<string, true> | undefined,
  answered: Set<string>,
  context: ValidationContext,
): void {
  const out = context.out;
  let seenOther = false;
  for (let blockIndex = 0; blockIndex < content.length; blockIndex++) {
    const block: unknown = content[blockIndex];
    const blockPath = `${path}.content.${blockIndex}`;
    const type = checkMessageBlock(block, blockPath, "user", context);
    if (type === undefined || !isRecord(block)) {
      seenOther = true;
      continue;
    }
    if (type === "cache_edits") continue;
    if (type !== "tool_result") {
      seenOther = true;
      continue;
    }
    if (seenOther) {
      out.push(invalid(blockPath, "`tool_result` blocks must come first in a user message, before any other content"));
    }
    const id = block.tool_use_id;
    if (typeof id !== "string") continue;
    if (answered.has(id)) {
      out.push(invalid(blockPath, `each \`tool_use\` may have only one \`tool_result\`; found a second for ${id}`));
      continue;
    }
    answered.add(id);
    if (!pendingToolUses?.has(id)) {
      out.push(
        invalid(
          blockPath,
          `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
            "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
        ),
      );
    }
  }
}

const CLEAR_AT_VALUES: ReadonlySet<string> = new Set(["next_user_message", "never"]);
const EFFORTS: ReadonlySet<string> = new Set(["low", "medium", "high", "xhigh", "max"]);

/**
 * A system message: `role` and `content` need no beta; `output_config` (per-turn effort) and `clear_at` need
 * theirs. Content is a non-empty string or text / tool_addition / tool_removal blocks; it may be empty only
 * when `output_config` carries the message (an effort-only change).
 */
function checkSystemMessage(message: Record<string, unknown>, path: string, context: ValidationContext): void {
  const out = context.out;
  const betas = context.options.betas;
  for (const key in message) {
    if (SYSTEM_MESSAGE_KEYS.has(key)) continue;
    const unlocking = SYSTEM_MESSAGE_BETA_FIELDS.get(key);
    if (unlocking !== undefined && (betas === undefined || unlocks(betas, unlocking))) continue;
    out.push(invalid(`${path}.${key}`, "Extra inputs are not permitted"));
  }
  const config = message.output_config;
  const hasConfig = isRecord(config);
  if (config !== undefined && config !== null) {
    if (!isRecord(config)) out.push(invalid(`${path}.output_config`, "Input should be a valid dictionary"));
    else {
      checkExtraKeys(config, SYSTEM_MESSAGE_OUTPUT_CONFIG_KEYS, `${path}.output_config`, out);
      const effort = config.effort;
      if (effort !== undefined && effort !== null && (typeof effort !== "string" || !EFFORTS.has(effort)))
        out.push(invalid(`${path}.output_config.effort`, "Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"));
    }
  }
  const clearAt = message.clear_at;
  if (clearAt !== undefined && clearAt !== null && (typeof clearAt !== "string" || !CLEAR_AT_VALUES.has(clearAt)))
    out.push(invalid(`${path}.clear_at`, "Input should be 'next_user_message' or 'never'"));
  const content = message.content;
  const empty =
    content === undefined ||
    (typeof content === "string" && content.length === 0) ||
    (Array.isArray(content) && content.length === 0);
  if (empty) {
    if (!hasConfig) out.push(invalid(path, "system messages must carry content or output_config"));
    return;
  }
  if (typeof content === "string") {
    if (content.trim().length === 0) out.push(invalid(path, "system messages must contain non-whitespace text"));
    return;
  }
  if (!Array.isArray(content)) {
    out.push(invalid(`${path}.content`, "Input should be a valid string or list"));
    return;
  }
  for (let index = 0; index < content.length; index++) {
    const block: unknown = content[index];
    const blockPath = `${path}.content.${index}`;
    if (!isRecord(block) || typeof block.type !== "string" || !SYSTEM_MESSAGE_BLOCKS.has(block.type)) {
      out.push(
        invalid(
          `${blockPath}.type`,
          "system messages may only contain `text`, `tool_addition` and `tool_removal` blocks",
        ),
      );
      continue;
    }
    checkMessageBlock(block, blockPath, "system", context);
  }
}
