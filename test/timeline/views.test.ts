import { describe, expect, it } from "vitest";
import type { TimelineEntry } from "../../src/messages/index.js";
import {
  createApiErrorEntry,
  createAssistantEntry,
  createAttachmentEntry,
  createProgressEntry,
  createSystemEntry,
  createUserEntry,
  textBlock,
} from "../../src/messages/index.js";
import { apiView, apiViewWithErrors, persistView, removedUuids, Timeline, uiView } from "../../src/timeline/index.js";

const context = (uuid: string, extra: { isSidechain?: boolean } = {}) => ({
  sessionId: "s",
  parentUuid: null,
  uuid,
  now: new Date(0),
  ...extra,
});
const uuids = (entries: readonly { uuid: string }[]) => entries.map((entry) => entry.uuid);

function sample(): TimelineEntry[] {
  return [
    createUserEntry(context("user"), "hi"),
    createAssistantEntry(context("assistant"), textBlock("hello"), { messageId: "m1", model: "x" }),
    createProgressEntry(context("progress"), "toolu_1", "working"),
    createSystemEntry(context("info"), "informational", "note"),
    createSystemEntry(context("local"), "local_command", "<local-command-stdout>ok</local-command-stdout>"),
    createAttachmentEntry(context("attachment"), "file", "contents"),
    createUserEntry(context("virtual"), "repl", { isVirtual: true }),
    createApiErrorEntry(context("error"), "Image was too large. Try resizing the image or removing it."),
    createUserEntry(context("sidechain", { isSidechain: true }), "subagent"),
    { type: "latches", betas: ["b"], timestamp: "t", sessionId: "s" },
  ];
}

describe("timeline views", () => {
  it("uiView shows every message, persistView keeps records too", () => {
    const entries = sample();
    expect(uuids(uiView(entries))).toHaveLength(9);
    expect(persistView(entries)).toEqual(entries);
    expect(persistView(entries)).not.toBe(entries);
  });

  it("apiView drops progress, non-local_command system, virtual, synthetic errors and sidechains", () => {
    expect(uuids(apiView(sample()))).toEqual(["user", "assistant", "local", "attachment"]);
    expect(uuids(apiViewWithErrors(sample()))).toEqual(["user", "assistant", "local", "attachment", "error"]);
  });

  it("starts after the last main-chain compact boundary", () => {
    const boundary = (uuid: string, sidechain = false) =>
      createSystemEntry(context(uuid, sidechain ? { isSidechain: true } : {}), "compact_boundary", "c", {
        compactMetadata: { trigger: "auto", preTokens: 1, postTokens: 1 },
      });
    const entries = [
      createUserEntry(context("before"), "old"),
      boundary("b1"),
      createUserEntry(context("middle"), "mid"),
      boundary("b2"),
      createUserEntry(context("summary"), "summary", { isCompactSummary: true }),
      boundary("b3", true),
      createUserEntry(context("after"), "new"),
    ];
    expect(uuids(apiView(entries))).toEqual(["summary", "after"]);
  });

  it("removes snipped and superseded entries, wherever the record sits", () => {
    const entries = [
      createUserEntry(context("a"), "a"),
      createAssistantEntry(context("partial"), textBlock("par"), { messageId: "dead", model: "x" }),
      createSystemEntry(context("sup"), "stream_superseded", "retry", { supersededUuids: ["partial"] }),
      createAssistantEntry(context("full"), textBlock("full"), { messageId: "live", model: "x" }),
      createUserEntry(context("b"), "b"),
      createSystemEntry(context("snip"), "snip_boundary", "snip", { snipMetadata: { removedUuids: ["a", "b"] } }),
      createUserEntry(context("c"), "c"),
    ];
    expect([...removedUuids(entries)].sort()).toEqual(["a", "b", "partial"]);
    expect(uuids(apiView(entries))).toEqual(["full", "c"]);
  });

  it("Timeline tracks the last main-chain message and tells subscribers", () => {
    const timeline = new Timeline(sample());
    expect(timeline.lastMessage?.uuid).toBe("error");
    const seen: number[] = [];
    const unsubscribe = timeline.subscribe((_, index) => seen.push(index));
    timeline.append(createUserEntry(context("next"), "next"));
    unsubscribe();
    timeline.append(createUserEntry(context("later", { isSidechain: true }), "later"));
    expect(seen).toEqual([10]);
    expect(timeline.lastMessage?.uuid).toBe("next");
    expect(timeline.length).toBe(12);
  });
});
