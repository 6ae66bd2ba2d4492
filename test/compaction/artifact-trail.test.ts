/**
 * The artifact trail: files read, edited and written (line ranges, hash at last read) and commands with exit
 * codes, from the timeline's tool_use / tool_result pairs; it rides in the summary instruction and follows
 * the summary verbatim; cleared results' placeholders say how to get them back; recent files are restored.
 */
import { describe, expect, it } from "vitest";
import {
  buildArtifactTrail,
  clearedPlaceholder,
  compactSummaryText,
  renderArtifactTrail,
  restoreRecentFiles,
  summaryInstruction,
} from "../../src/compaction/index.js";
import { createToolResultEntry, toolResultBlock } from "../../src/messages/index.js";
import { apiView } from "../../src/timeline/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";

function session(): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Fix the build.");
  const read = builder.toolUse("Read", { file_path: "src/a.ts" });
  builder.toolResults([read], ["     1\tconst a = 1;\n     2\tconst b = 2;"]);
  const partial = builder.toolUse("Read", { file_path: "src/b.ts", offset: 10, limit: 5 });
  builder.toolResults([partial], ["    10\tx\n    11\ty"]);
  const edit = builder.toolUse("Edit", { file_path: "src/a.ts", old_string: "1", new_string: "2" });
  builder.toolResults([edit], ["The file src/a.ts has been updated."]);
  const failing = builder.toolUse("Bash", { command: "npm test" });
  const context = { sessionId: "session-test", parentUuid: failing.uuid, uuid: "11111111-0000-4000-8000-000000000001" };
  builder.timeline.append(
    createToolResultEntry(
      context,
      [
        toolResultBlock(
          failing.message.content[0]!.type === "tool_use" ? failing.message.content[0]!.id : "",
          "1 failing\n\nExit code 1",
          true,
        ),
      ],
      failing.uuid,
      { kind: "bash", exitCode: 1 },
    ),
  );
  const missing = builder.toolUse("Read", { file_path: "src/gone.ts" });
  builder.toolResults([missing], ["File does not exist: src/gone.ts."]);
  return builder;
}

describe("artifact trail", () => {
  it("lists files with ranges, edits and hashes, and commands with exit codes, deterministically", () => {
    const entries = session().entries;
    const trail = buildArtifactTrail(entries);
    const a = trail.files.find((file) => file.path === "src/a.ts")!;
    expect(a).toMatchObject({ read: true, edited: true, written: false, ranges: [[1, 2]] });
    expect(a.hashAtLastRead).toMatch(/^[0-9a-f]{12}$/);
    expect(trail.files.find((file) => file.path === "src/b.ts")?.ranges).toEqual([[10, 11]]);
    expect(trail.commands).toEqual([{ command: "npm test", exitCode: 1 }]);
    const text = renderArtifactTrail(trail);
    expect(text).toContain("- src/a.ts: read lines 1-2");
    expect(text).toContain('- "npm test" → 1');
    expect(renderArtifactTrail(buildArtifactTrail(entries))).toBe(text);
    expect(renderArtifactTrail(buildArtifactTrail([]))).toBe("");
  });

  // Oracle: characters ÷ 4 rounded up (the estimate's definition, docs/ARCHITECTURE.md), worked here on the text.
  // Mutation caught: `trail-budget-ignored` (renderArtifactTrail lists every file whatever the budget).
  it("with a token budget lists the most recent files that fit and says how many older ones are left out", () => {
    const builder = new TimelineBuilder();
    builder.user("Read them all.");
    for (let file = 0; file < 30; file++) {
      const read = builder.toolUse("Read", { file_path: `src/module-${file}.ts` });
      builder.toolResults([read], [`     1\texport const value${file} = ${file};`]);
    }
    const trail = buildArtifactTrail(builder.entries);
    const whole = renderArtifactTrail(trail);
    expect(whole.split("\n").filter((line) => line.startsWith("- src/module-"))).toHaveLength(30);
    const budget = 150;
    const fitted = renderArtifactTrail(trail, budget);
    expect(Math.ceil(fitted.length / 4)).toBeLessThanOrEqual(budget);
    const listed = fitted.split("\n").filter((line) => line.startsWith("- src/module-"));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(30);
    // The most recent first: module-29, module-28, …
    expect(listed[0]).toMatch(/^- src\/module-29\.ts: read lines 1/);
    expect(listed.at(-1)).toMatch(new RegExp(`^- src/module-${30 - listed.length}\\.ts:`));
    expect(fitted).toContain(`- … and ${30 - listed.length} more`);
    // A budget the frame alone does not fit: nothing rather than a trail over it.
    expect(renderArtifactTrail(trail, 10)).toBe("");
    // A roomy budget changes nothing.
    expect(renderArtifactTrail(trail, 100_000)).toBe(whole);
  });

  it("rides in the summary instruction and follows the summary verbatim", () => {
    const text = renderArtifactTrail(buildArtifactTrail(session().entries));
    expect(summaryInstruction(undefined, text)).toContain(text);
    const after = compactSummaryText("1. Primary Request and Intent: fix the build", text);
    expect(after.endsWith(text)).toBe(true);
    expect(compactSummaryText("s")).not.toContain("artifact-trail");
  });

  it("a cleared result's placeholder says what was there and how to get it back", () => {
    const use = { type: "tool_use" as const, id: "toolu_1", name: "Read", input: { file_path: "src/a.ts" } };
    const result = toolResultBlock("toolu_1", "x".repeat(4_000));
    expect(clearedPlaceholder(use, result, { kind: "text", firstLine: 1, lineCount: 120 })).toBe(
      "[Old tool result content cleared: Read src/a.ts lines 1-120, ~1,001 tokens. Read it again if you need it.]",
    );
    const bash = { type: "tool_use" as const, id: "toolu_2", name: "Bash", input: { command: "npm test" } };
    expect(clearedPlaceholder(bash, toolResultBlock("toolu_2", "boom\n\nExit code 2", true), undefined)).toMatch(
      /^\[Old tool result content cleared: Bash "npm test" \(exit 2\)/,
    );
  });

  it("re-attaches the most recently read files not in the kept tail, within the budget", async () => {
    const builder = session();
    const trail = buildArtifactTrail(builder.entries);
    const contents: Record<string, string> = { "src/a.ts": "const a = 2;", "src/b.ts": "x".repeat(40_000) };
    const read = async (path: string) => contents[path];
    const restored = await restoreRecentFiles(trail, [], read, 50_000);
    expect(restored?.files).toEqual(["src/b.ts", "src/a.ts"]);
    expect(restored?.text).toContain("const a = 2;");
    // src/b.ts is cut to 5,000 tokens; a budget below both files restores nothing.
    expect(restored!.tokens).toBeLessThan(5_200);
    expect(await restoreRecentFiles(trail, [], read, 3)).toBeUndefined();
    expect(await restoreRecentFiles(trail, [], read, 0)).toBeUndefined();
    // A file whose Read is still in the kept tail is not attached twice.
    const tail = apiView(builder.entries).slice(1, 3);
    expect((await restoreRecentFiles(trail, tail, read, 50_000))?.files).toEqual(["src/b.ts"]);
  });
});
