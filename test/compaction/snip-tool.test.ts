import { describe, expect, it } from "vitest";
import { createSnipTool } from "../../src/compaction/index.js";
import type { SystemEntry } from "../../src/messages/index.js";
import { shortId } from "../../src/messages/index.js";
import { apiView } from "../../src/timeline/index.js";
import { TimelineBuilder, toolContext, toolUseId } from "../../support/timeline-builder.js";
import { assembleAndValidate } from "./assemble-and-validate.js";

/** A conversation: prompt, two tool rounds, a reply, a second prompt, then the model calling Snip. */
function conversation() {
  const builder = new TimelineBuilder();
  const prompt = builder.user("Please look at the repo.");
  const first = builder.round("Read", "file contents ".repeat(200));
  const second = builder.round("Bash", "ls output");
  builder.assistantText("Done looking.");
  const followUp = builder.user("Now fix the bug.");
  const snipCall = builder.toolUse("Snip", { ids: [] });
  return { builder, prompt, first, second, followUp, snipCall };
}

function uuids(entries: readonly { uuid: string }[]): string[] {
  return entries.map((entry) => entry.uuid);
}

describe("Snip tool", () => {
  it("removes a tool result together with the response whose tool_use it answers", async () => {
    const { builder, first, snipCall } = conversation();
    const tool = createSnipTool({ now: () => new Date("2025-01-01T01:00:00.000Z") });
    const before = apiView(builder.entries);
    const output = await tool.call(
      { ids: [`[id:${shortId(first.result.uuid)}]`] },
      toolContext(builder.timeline, toolUseId(snipCall)),
    );
    expect(output.isError).toBeUndefined();

    const boundary = builder.entries.at(-1) as SystemEntry;
    expect(boundary.type).toBe("system");
    expect(boundary.subtype).toBe("snip_boundary");
    expect(boundary.timestamp).toBe("2025-01-01T01:00:00.000Z");
    expect(boundary.parentUuid).toBe(snipCall.uuid);
    // The whole first response (text + tool_use) goes with its result.
    const firstResponse = before.filter(
      (entry) => entry.type === "assistant" && entry.message.id === first.use.message.id,
    );
    expect(boundary.snipMetadata?.removedUuids).toEqual([...uuids(firstResponse), first.result.uuid]);

    const after = apiView(builder.entries);
    expect(uuids(after)).toEqual(uuids(before).filter((uuid) => !boundary.snipMetadata?.removedUuids.includes(uuid)));
    expect(output.content).toMatch(/Snipped 1 message and 2 paired/);
  });

  it("names unknown ids in an is_error result and removes nothing", async () => {
    const { builder, first, snipCall } = conversation();
    const length = builder.entries.length;
    const output = await createSnipTool().call(
      { ids: [shortId(first.result.uuid), "zzzzzz"] },
      toolContext(builder.timeline, toolUseId(snipCall)),
    );
    expect(output.isError).toBe(true);
    expect(output.content).toContain("[id:zzzzzz]");
    expect(output.content).not.toContain(shortId(first.result.uuid));
    expect(builder.entries.length).toBe(length);
  });

  it("treats meta user messages and already snipped messages as unknown", async () => {
    const { builder, first, snipCall } = conversation();
    const meta = builder.user("<system-reminder>note</system-reminder>", true);
    const context = toolContext(builder.timeline, toolUseId(snipCall));
    const metaOutput = await createSnipTool().call({ ids: [shortId(meta.uuid)] }, context);
    expect(metaOutput.isError).toBe(true);
    await createSnipTool().call({ ids: [shortId(first.result.uuid)] }, context);
    const again = await createSnipTool().call({ ids: [shortId(first.result.uuid)] }, context);
    expect(again.isError).toBe(true);
    expect(again.content).toContain("unknown id");
  });

  it("never removes a Snip call or its result", async () => {
    const { builder, snipCall } = conversation();
    const snipResult = builder.toolResults([snipCall], ["Snipped 1 message."]);
    builder.assistantText("Continuing.");
    const nextCall = builder.toolUse("Snip", { ids: [] });
    const length = builder.entries.length;
    const output = await createSnipTool().call(
      { ids: [shortId(snipResult.uuid)] },
      toolContext(builder.timeline, toolUseId(nextCall)),
    );
    expect(output.isError).toBe(true);
    expect(output.content).toContain(`[id:${shortId(snipResult.uuid)}]`);
    expect(output.content).toMatch(/Snip call/);
    expect(builder.entries.length).toBe(length);
  });

  it("snips a prompt between two replies; assembly still sends alternating roles", async () => {
    const { builder, followUp, snipCall } = conversation();
    const output = await createSnipTool().call(
      { ids: [shortId(followUp.uuid)] },
      toolContext(builder.timeline, toolUseId(snipCall)),
    );
    expect(output.isError).toBeUndefined();
    builder.toolResults([snipCall], [String(output.content)]);
    const view = apiView(builder.entries);
    expect(view.some((entry) => entry.uuid === followUp.uuid)).toBe(false);
    const { violations } = assembleAndValidate({
      messages: view,
      newCacheEdits: [],
      cacheEditing: false,
      snipTags: true,
    });
    expect(violations).toEqual([]);
  });

  it("keeps pairs whole when one user entry answers several tool_uses", async () => {
    const builder = new TimelineBuilder();
    builder.user("Go.");
    const messageId = builder.nextMessageId();
    const readUse = builder.toolUse("Read", { file_path: "/a" }, messageId);
    const grepUse = builder.toolUse("Grep", { pattern: "b" }, messageId);
    const results = builder.toolResults([readUse, grepUse], ["a", "b"]);
    builder.assistantText("Found it.");
    builder.user("Thanks.");
    const snipCall = builder.toolUse("Snip", { ids: [] });
    const output = await createSnipTool().call(
      { ids: [shortId(results.uuid)] },
      toolContext(builder.timeline, toolUseId(snipCall)),
    );
    expect(output.isError).toBeUndefined();
    const view = apiView(builder.entries);
    expect(
      view.some((entry) => entry.uuid === readUse.uuid || entry.uuid === grepUse.uuid || entry.uuid === results.uuid),
    ).toBe(false);
  });

  it("is an error without session access", async () => {
    const { builder, first, snipCall } = conversation();
    const { session: _session, ...context } = toolContext(builder.timeline, toolUseId(snipCall));
    const output = await createSnipTool().call({ ids: [shortId(first.result.uuid)] }, context);
    expect(output.isError).toBe(true);
  });
});
