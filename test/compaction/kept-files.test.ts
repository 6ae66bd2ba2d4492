/**
 * What a clear must not hide (issue 52, "Forget less"): the newest read of each file a prompt names stays verbatim
 * through the idle clear (an Edit's short answer after it is not a newer look at the file); older reads of those
 * files and reads of other files are cleared. Oracles are literals: which of the session's reads come out verbatim.
 *
 * Mutations it catches (scripts/mutation-check.mjs): `kept-files-oldest-read` (the oldest read of a file kept
 * instead of the newest), `kept-files-edit-answer-newest` (an Edit's answer taken as the file's newest look), `kept-files-name-unbounded`
 * (a file named inside a longer path counted as named), `kept-files-cap-oldest` (the cap keeps the files read
 * longest ago).
 */
import { describe, expect, it } from "vitest";
import { type CompactionInput, runCompactionTiers } from "../../src/compaction/index.js";
import type { AssistantEntry, MessageEntry } from "../../src/messages/index.js";
import { TimelineBuilder, toolUseId } from "../../support/timeline-builder.js";
import { compactionInput } from "./compaction-input.js";

const HOUR = 3_600_000;

function read(builder: TimelineBuilder, path: string, text: string): AssistantEntry {
  const messageId = builder.nextMessageId();
  builder.assistantText(`Reading ${path}.`, messageId);
  const use = builder.toolUse("Read", { file_path: path }, messageId);
  builder.toolResults([use], [text.repeat(60)]);
  return use;
}

function edit(builder: TimelineBuilder, path: string): AssistantEntry {
  const messageId = builder.nextMessageId();
  const use = builder.toolUse("Edit", { file_path: path, old_string: "a", new_string: "b" }, messageId);
  builder.toolResults([use], [`The file ${path} has been updated.`]);
  return use;
}

function resultText(view: readonly MessageEntry[], use: AssistantEntry): string {
  const id = toolUseId(use);
  for (const entry of view) {
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content)
      if (block.type === "tool_result" && block.tool_use_id === id)
        return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
  }
  throw new Error(`no result for ${id}`);
}

/** The idle clear (cold cache) of `builder`'s session, with Edit declared as changing its `file_path`. */
async function idleClear(builder: TimelineBuilder) {
  builder.assistantText("Done for now.");
  builder.advance(HOUR);
  builder.user("Continue please.");
  const input: CompactionInput = {
    ...compactionInput(builder.entries, builder.clock),
    fileChangingTools: new Map([["Edit", "file_path"]]),
  };
  return (await runCompactionTiers(input)).messages;
}

const cleared = /^\[Old tool result content cleared: Read /;

describe("microcompact keeps the files the work is about", () => {
  it("keeps the newest read of a named file, edited or not; clears older reads and other files", async () => {
    const builder = new TimelineBuilder();
    builder.user("Fix the parser in src/app.ts the way lib/util.ts does it.");
    const appFirst = read(builder, "/ws/src/app.ts", "app version one ");
    const otherApp = read(builder, "/ws/lib/app.ts", "another app ");
    const util = read(builder, "/ws/lib/util.ts", "util helpers ");
    const config = read(builder, "/ws/src/config.ts", "config values ");
    const unrelated = read(builder, "/ws/src/unrelated.ts", "unrelated code ");
    const appSecond = read(builder, "/ws/src/app.ts", "app version two ");
    edit(builder, "/ws/src/app.ts");
    edit(builder, "/ws/src/config.ts");
    for (let index = 0; index < 5; index++) read(builder, `/ws/src/recent-${index}.ts`, `recent ${index} `);
    const view = await idleClear(builder);

    expect(resultText(view, appSecond)).toMatch(/^app version two/);
    expect(resultText(view, util)).toMatch(/^util helpers/);
    expect(resultText(view, appFirst)).toMatch(cleared);
    // Changed but named by no prompt: not kept for that alone (kept-files.ts says why).
    expect(resultText(view, config)).toMatch(cleared);
    // "lib/app.ts" is not named: "app.ts" in the prompt is the tail of "src/app.ts".
    expect(resultText(view, otherApp)).toMatch(cleared);
    expect(resultText(view, unrelated)).toMatch(cleared);
  });

  it("keeps at most 4 such files, the most recently read", async () => {
    const builder = new TimelineBuilder();
    builder.user("Look at a.ts, b.ts, c.ts, d.ts and e.ts.");
    const reads = ["a", "b", "c", "d", "e"].map((name) => read(builder, `/ws/${name}.ts`, `${name} body `));
    for (let index = 0; index < 5; index++) read(builder, `/ws/recent-${index}.ts`, `recent ${index} `);
    const view = await idleClear(builder);

    expect(resultText(view, reads[0]!)).toMatch(cleared);
    for (const use of reads.slice(1)) expect(resultText(view, use)).not.toMatch(cleared);
  });
});
