import { describe, expect, it } from "vitest";
import type { MessageEntry, TimelineEntry } from "../../src/messages/index.js";
import { createSystemEntry, createUserEntry, isMessageEntry } from "../../src/messages/index.js";
import { resumeConversation } from "../../src/transcript/index.js";

const user = (uuid: string, parentUuid: string | null, extra: { isSidechain?: boolean } = {}) =>
  createUserEntry({ sessionId: "s", uuid, parentUuid, now: new Date(0), ...extra }, uuid);
const snip = (uuid: string, parentUuid: string, removed: string[]) =>
  createSystemEntry({ sessionId: "s", uuid, parentUuid, now: new Date(0) }, "snip_boundary", "snip", {
    snipMetadata: { removedUuids: removed },
  });
const shape = (entries: readonly TimelineEntry[]) =>
  entries.filter(isMessageEntry).map((entry: MessageEntry) => `${entry.uuid}<${entry.parentUuid ?? "-"}`);

describe("resumeConversation", () => {
  it("re-points across a run of removed entries to the nearest survivor", () => {
    const entries = [user("a", null), user("b", "a"), user("c", "b"), user("d", "c"), snip("s1", "d", ["b", "c"])];
    const result = resumeConversation(entries);
    expect(shape(result.entries)).toEqual(["a<-", "d<a", "s1<d"]);
    expect(result.dropped).toBe(2);
    expect(result.repointed).toBe(1);
    expect(result.leafUuid).toBe("s1");
    expect(entries[3]!.type === "user" && entries[3]!.parentUuid).toBe("c"); // inputs are never mutated
  });

  it("removes the root and makes the next survivor the root", () => {
    const result = resumeConversation([user("a", null), user("b", "a"), snip("s1", "b", ["a"])]);
    expect(shape(result.entries)).toEqual(["b<-", "s1<b"]);
  });

  it("follows the latest leaf and drops the abandoned branch", () => {
    const entries = [user("a", null), user("b", "a"), user("c", "b"), user("b2", "a"), user("c2", "b2")];
    const result = resumeConversation(entries);
    expect(shape(result.entries)).toEqual(["a<-", "b2<a", "c2<b2"]);
    expect(result.dropped).toBe(2);
  });

  it("crosses a detached compact boundary through logicalParentUuid and keeps records and sidechains", () => {
    const boundary = createSystemEntry({ sessionId: "s", uuid: "cb", parentUuid: null }, "compact_boundary", "c", {
      logicalParentUuid: "b",
      compactMetadata: { trigger: "auto", preTokens: 10, postTokens: 1 },
    });
    const title: TimelineEntry = { type: "custom-title", customTitle: "t", sessionId: "s" };
    const entries = [
      user("a", null),
      user("b", "a"),
      user("x", null, { isSidechain: true }),
      title,
      boundary,
      user("c", "cb"),
    ];
    const result = resumeConversation(entries);
    expect(result.entries).toEqual(entries);
    expect(result.dropped).toBe(0);
  });

  it("never removes boundary records even when a snip names them", () => {
    const entries = [user("a", null), snip("s1", "a", ["a"]), snip("s2", "s1", ["s1"]), user("b", "s2")];
    const result = resumeConversation(entries);
    expect(shape(result.entries)).toEqual(["s1<-", "s2<s1", "b<s2"]);
  });

  it("links an entry whose parent is missing from the file to the previous survivor", () => {
    const result = resumeConversation([user("a", null), user("c", "lost-line")]);
    expect(shape(result.entries)).toEqual(["a<-", "c<a"]);
    expect(result.repointed).toBe(1);
  });

  it("keeps the first of repeated uuids and survives parent cycles", () => {
    const repeated = resumeConversation([user("a", null), user("b", "a"), user("b", "a")]);
    expect(shape(repeated.entries)).toEqual(["a<-", "b<a"]);
    expect(repeated.dropped).toBe(1);
    const cycle = resumeConversation([user("a", "b"), user("b", "a")]);
    expect(shape(cycle.entries)).toEqual(["a<b", "b<a"]);
    expect(resumeConversation([]).leafUuid).toBeNull();
  });
});
