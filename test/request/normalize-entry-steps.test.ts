import { describe, expect, it } from "vitest";
import type { MessageEntry } from "../../src/messages/index.js";
import {
  API_ERROR_TEXT,
  createApiErrorEntry,
  createProgressEntry,
  createSystemEntry,
  createUserEntry,
  imageBlock,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "../../src/messages/index.js";
import { dropUnsendable } from "../../src/request/normalize/drop-unsendable.js";
import { reorderAttachments } from "../../src/request/normalize/reorder-attachments.js";
import { stripOversizeMedia } from "../../src/request/normalize/strip-oversize-media.js";
import { toWorkingMessages } from "../../src/request/normalize/to-working-messages.js";
import { TINY_PNG } from "../../support/messy-timeline.js";
import { assistant, attachment, context, snapshotOf, user } from "./helpers.js";

describe("step 0: drop unsendable", () => {
  it("prevents \"Input tag 'progress' found using 'type' does not match\": progress, virtual and notices never reach the wire", () => {
    const entries: MessageEntry[] = [
      user("hi"),
      createUserEntry(context(), "virtual", { isVirtual: true }),
      createProgressEntry(context(), "t", "x"),
      createSystemEntry(context(), "informational", "note"),
      createSystemEntry(context(), "local_command", "stdout"),
    ];
    const kept = dropUnsendable(entries);
    expect(kept.map((entry) => entry.type)).toEqual(["user", "system"]);
  });
  it("keeps synthetic error messages for step 2", () => {
    const error = createApiErrorEntry(context(), API_ERROR_TEXT.imageTooLarge);
    expect(dropUnsendable([user("a"), error])).toHaveLength(2);
  });
});

describe("step 1: reorder attachments", () => {
  it("moves an attachment above the person's text to just after the assistant message", () => {
    const a = assistant(textBlock("answer"), "msg_1");
    const typed = user("next question");
    const note = attachment("memory");
    expect(reorderAttachments([user("q"), a, typed, note])).toEqual([expect.anything(), a, note, typed]);
  });
  it("stops at a tool-result message", () => {
    const results = user([toolResultBlock("t1", "ok")]);
    const note = attachment("file changed");
    expect(reorderAttachments([results, note])).toEqual([results, note]);
  });
});

describe("step 2: strip oversize media", () => {
  it(`prevents a repeated "${API_ERROR_TEXT.imageTooLarge}" 400: strips images from the meta message before the error`, () => {
    const meta = user([textBlock("see image"), imageBlock("image/png", TINY_PNG)], true);
    const before = snapshotOf(meta);
    const result = stripOversizeMedia([meta, createApiErrorEntry(context(), API_ERROR_TEXT.imageTooLarge)]);
    expect(result).toHaveLength(1);
    expect(JSON.stringify(result[0])).not.toContain("image/png");
    expect(snapshotOf(meta)).toBe(before);
  });
  it("request too large strips both media; a message left empty is dropped", () => {
    const meta = user(
      [
        imageBlock("image/png", TINY_PNG),
        { type: "document", source: { type: "text", media_type: "text/plain", data: "d" } },
      ],
      true,
    );
    expect(
      stripOversizeMedia([user("q"), meta, createApiErrorEntry(context(), API_ERROR_TEXT.requestTooLarge)]),
    ).toHaveLength(1);
  });
  it("never touches the person's own message (search stops at a non-meta message)", () => {
    const typed = user([textBlock("mine"), imageBlock("image/png", TINY_PNG)]);
    const result = stripOversizeMedia([typed, createApiErrorEntry(context(), API_ERROR_TEXT.imageTooLarge)]);
    expect(result).toEqual([typed]);
  });
  it("PDF errors strip documents only", () => {
    const meta = user(
      [
        imageBlock("image/png", TINY_PNG),
        { type: "document", source: { type: "text", media_type: "text/plain", data: "d" } },
      ],
      true,
    );
    const [stripped] = stripOversizeMedia([meta, createApiErrorEntry(context(), API_ERROR_TEXT.pdfTooLarge)]);
    expect(JSON.stringify(stripped)).toContain("image/png");
    expect(JSON.stringify(stripped)).not.toContain("document");
  });
});

describe("conversion", () => {
  it('prevents "text content blocks must contain non-whitespace text" for blank user text, and renders attachments as reminders', () => {
    const messages = toWorkingMessages([
      user("   "),
      user([textBlock(""), textBlock("real")]),
      attachment("remember this"),
    ]);
    expect(messages.map((message) => message.content)).toEqual([
      [{ type: "text", text: "real" }],
      [{ type: "text", text: "<system-reminder>\nremember this\n</system-reminder>" }],
    ]);
  });
  it('prevents "Extra inputs are not permitted": stored extra fields and cache markers are not sent', () => {
    const stored = user([{ type: "text", text: "x", cache_control: { type: "ephemeral" }, citations: null } as never]);
    const [message] = toWorkingMessages([stored]);
    expect(message!.content).toEqual([{ type: "text", text: "x" }]);
  });
  it("rebuilds tool_use in canonical key order", () => {
    const [message] = toWorkingMessages([
      assistant({ name: "Read", input: {}, id: "t", type: "tool_use" } as never, "m"),
    ]);
    expect(JSON.stringify(message!.content[0])).toBe(JSON.stringify(toolUseBlock("t", "Read", {})));
  });
});
