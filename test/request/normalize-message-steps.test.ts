import { signThinking } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import type { ContentBlock } from "../../src/messages/index.js";
import { imageBlock, shortId, textBlock, toolResultBlock, toolUseBlock } from "../../src/messages/index.js";
import { appendSnipTags } from "../../src/request/normalize/append-snip-tags.js";
import { dropOrphanThinking } from "../../src/request/normalize/drop-orphan-thinking.js";
import { dropWhitespaceAssistants } from "../../src/request/normalize/drop-whitespace-assistants.js";
import { ensureAlternation } from "../../src/request/normalize/ensure-alternation.js";
import { fillEmptyAssistants } from "../../src/request/normalize/fill-empty-assistants.js";
import { foldSystemReminders } from "../../src/request/normalize/fold-system-reminders.js";
import { mergeAdjacentUsers } from "../../src/request/normalize/merge-adjacent-users.js";
import { mergeAssistantsById } from "../../src/request/normalize/merge-assistants-by-id.js";
import { MISSING_TOOL_RESULT_TEXT, pairToolResults } from "../../src/request/normalize/pair-tool-results.js";
import { stripTrailingThinking } from "../../src/request/normalize/strip-trailing-thinking.js";
import { DEFAULT_EMPTY_ERROR_TEXT, textOnlyErrorResults } from "../../src/request/normalize/text-only-error-results.js";
import { trimFinalAssistant } from "../../src/request/normalize/trim-final-assistant.js";
import { EXCESS_MEDIA_TEXT, OVERSIZE_IMAGE_TEXT, validateImages } from "../../src/request/normalize/validate-images.js";
import { NO_CONTENT_PLACEHOLDER } from "../../src/request/normalize/working-message.js";
import { TINY_PNG } from "../../support/messy-timeline.js";
import { snapshotOf, working } from "./helpers.js";

const thinking = (text: string): ContentBlock => ({
  type: "thinking",
  thinking: text,
  signature: signThinking(text, "s"),
});
const roles = (messages: { role: string }[]) => messages.map((message) => message.role);

describe("step 3: merge assistant entries sharing message.id", () => {
  it('prevents "roles must alternate ... multiple \\"assistant\\" roles in a row"', () => {
    const merged = mergeAssistantsById([
      working("user", [textBlock("q")]),
      working("assistant", [thinking("t")], "m1"),
      working("assistant", [toolUseBlock("a", "Read", {})], "m1"),
    ]);
    expect(merged).toHaveLength(2);
    expect(merged[1]!.content.map((block) => block.type)).toEqual(["thinking", "tool_use"]);
  });
  it("merges back over tool results but never across a plain user message", () => {
    const input = [
      working("assistant", [toolUseBlock("a", "Read", {})], "m1"),
      working("user", [toolResultBlock("a", "ok")]),
      working("assistant", [textBlock("late block")], "m1"),
      working("user", [textBlock("typed")]),
      working("assistant", [textBlock("after typing")], "m1"),
    ];
    const before = snapshotOf(input);
    expect(roles(mergeAssistantsById(input))).toEqual(["assistant", "user", "user", "assistant"]);
    expect(snapshotOf(input)).toBe(before);
  });
});

describe("step 4: merge adjacent users", () => {
  it('prevents "`tool_result` blocks must come first in a user message": results are hoisted, seams get a newline', () => {
    const merged = mergeAdjacentUsers([
      working("user", [textBlock("note")]),
      working("user", [toolResultBlock("a", "ok"), textBlock("more")]),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.content).toEqual([toolResultBlock("a", "ok"), textBlock("note"), textBlock("\nmore")]);
  });
});

describe("step 5: snip tags", () => {
  it("derives the short id from the uuid's first 10 hex digits in base 36", () => {
    expect(shortId("01234567-89ab-4def-8000-000000000000")).toBe((0x0123456789).toString(36).slice(0, 6));
  });
  it("tags the last text block of each non-meta source, also after a merge", () => {
    const first = { ...working("user", [textBlock("one")]), snipTargets: [] as never[] };
    const block = textBlock("two");
    const second = {
      ...working("user", [block]),
      snipTargets: [{ uuid: "ffffffff-ffff-4fff-8fff-ffffffffffff", block }],
    };
    const [tagged] = appendSnipTags(mergeAdjacentUsers([first, second]));
    expect(tagged!.content[1]).toEqual(textBlock(`\ntwo\n[id:${shortId("ffffffff-ffff")}]`));
  });
});

describe("clean-ups", () => {
  it('orphan thinking: prevents "thinking blocks ... cannot be modified" for a stream cut after thinking', () => {
    const kept = dropOrphanThinking([
      working("user", [textBlock("q")]),
      working("assistant", [thinking("alone")], "m1"),
      working("assistant", [thinking("with sibling")], "m2"),
      working("assistant", [textBlock("sibling")], "m2"),
    ]);
    expect(kept.map((message) => message.messageId)).toEqual([undefined, "m2", "m2"]);
  });
  it('trailing thinking: prevents "The final block in an assistant message cannot be `thinking`"', () => {
    const [message] = stripTrailingThinking([
      working("assistant", [thinking("a"), textBlock("x"), thinking("b")], "m"),
    ]);
    expect(message!.content.map((block) => block.type)).toEqual(["thinking", "text"]);
  });
  it('whitespace-only assistants: prevent "text content blocks must contain non-whitespace text"', () => {
    const result = dropWhitespaceAssistants([
      working("assistant", [textBlock("\n\n")], "m1"),
      working("assistant", [thinking("t"), textBlock("  ")], "m2"),
      working("assistant", [textBlock(" "), toolUseBlock("a", "Read", {})], "m3"),
    ]);
    expect(result.map((message) => message.content.map((block) => block.type))).toEqual([[], ["tool_use"]]);
  });
  it('empty assistants: prevent "all messages must have non-empty content except for the optional final assistant message"', () => {
    const result = fillEmptyAssistants([
      working("assistant", [], "m1"),
      working("user", [textBlock("q")]),
      working("assistant", [], "m2"),
    ]);
    expect(result).toHaveLength(2);
    expect(result[0]!.content).toEqual([textBlock(NO_CONTENT_PLACEHOLDER)]);
  });
  it('system reminders fold into the tool result: prevents "`tool_result` blocks must come first" after re-merging', () => {
    const [message] = foldSystemReminders([
      working("user", [toolResultBlock("a", "ok"), textBlock("\n<system-reminder>\nx\n</system-reminder>")]),
    ]);
    expect(message!.content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "a",
        content: [textBlock("ok"), textBlock("<system-reminder>\nx\n</system-reminder>")],
      },
    ]);
  });
  it('error results: prevent "`is_error` tool results may only contain text content" and "content cannot be empty if `is_error` is true"', () => {
    const [message] = textOnlyErrorResults([
      working("user", [
        toolResultBlock("a", [textBlock("boom"), imageBlock("image/png", TINY_PNG)], true),
        toolResultBlock("b", "", true),
      ]),
    ]);
    expect(message!.content).toEqual([
      { type: "tool_result", tool_use_id: "a", content: [textBlock("boom")], is_error: true },
      { type: "tool_result", tool_use_id: "b", content: DEFAULT_EMPTY_ERROR_TEXT, is_error: true },
    ]);
  });
  it('pairing: prevents "`tool_use` ids were found without `tool_result` blocks immediately after"', () => {
    const result = pairToolResults([
      working("user", [textBlock("q")]),
      working("assistant", [toolUseBlock("a", "Read", {}), toolUseBlock("b", "Read", {})], "m"),
      working("user", [toolResultBlock("b", "ok"), textBlock("also")]),
    ]);
    expect(result[2]!.content).toEqual([
      toolResultBlock("b", "ok"),
      { type: "tool_result", tool_use_id: "a", content: MISSING_TOOL_RESULT_TEXT, is_error: true },
      textBlock("also"),
    ]);
  });
  it('pairing: prevents "unexpected `tool_use_id` found in `tool_result` blocks" by dropping orphans', () => {
    const result = pairToolResults([
      working("user", [toolResultBlock("gone", "ok")]),
      working("assistant", [textBlock("x")], "m"),
    ]);
    expect(result[0]!.content).toEqual([textBlock(NO_CONTENT_PLACEHOLDER)]);
  });
  it("pairing: a final assistant with tool_use gets a results message", () => {
    const result = pairToolResults([
      working("user", [textBlock("q")]),
      working("assistant", [toolUseBlock("a", "Read", {})], "m"),
    ]);
    expect(roles(result)).toEqual(["user", "assistant", "user"]);
  });
  it('alternation: prevents "first message must use the \\"user\\" role" and assistant runs', () => {
    const result = ensureAlternation([
      working("assistant", [textBlock("a")], "m1"),
      working("assistant", [textBlock("b")], "m2"),
    ]);
    expect(roles(result)).toEqual(["user", "assistant", "user", "assistant"]);
  });
  it('final assistant: prevents "final assistant content cannot end with trailing whitespace"', () => {
    const [, last] = trimFinalAssistant([
      working("user", [textBlock("q")]),
      working("assistant", [textBlock("prefill \n")], "m"),
    ]);
    expect(last!.content).toEqual([textBlock("prefill")]);
  });
});

describe("step 7: validate images", () => {
  it('prevents "image exceeds 5 MB maximum"', () => {
    const [message] = validateImages([working("user", [imageBlock("image/png", "A".repeat(11))])], {
      maxImageBase64Bytes: 10,
    });
    expect(message!.content).toEqual([textBlock(OVERSIZE_IMAGE_TEXT)]);
  });
  it('prevents "too many images and documents": the oldest go first, nested ones counted', () => {
    const messages = [
      working("user", [imageBlock("image/png", TINY_PNG), imageBlock("image/png", TINY_PNG)]),
      working("user", [toolResultBlock("a", [imageBlock("image/png", TINY_PNG)])]),
    ];
    const result = validateImages(messages, { maxMediaBlocks: 2 });
    expect(result[0]!.content).toEqual([textBlock(EXCESS_MEDIA_TEXT), imageBlock("image/png", TINY_PNG)]);
    expect(result[1]).toBe(messages[1]);
  });
});
