/**
 * Forget less (issue 52): on the public path a batch clear still fires in a long exploration, but the reads of
 * the files the prompt names stay verbatim (one of them edited since), so the later Edits that need their lines
 * find them and the closed-loop model re-reads nothing. Oracle: the emulator's request log (re-read
 * requests, the placeholders and file lines in the bodies the server received).
 *
 * Mutation it catches (scripts/mutation-check.mjs): `kept-files-batch-ignored` (the batch clears the kept results).
 */
import type { Turn } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import { sourceFileName, writeSourceFiles } from "../../support/tool-heavy-session.js";

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

function line(index: number, number: number): string {
  return `export function helper${index}_${number}(value: number): number { return value * ${number} + ${index}; }`;
}

function read(index: number): Turn {
  return {
    content: [
      { type: "text", text: `Looking at ${sourceFileName(index)}.` },
      { type: "tool_use", name: "Read", input: { file_path: sourceFileName(index) } },
    ],
  };
}

function edit(index: number, number: number): Turn {
  const old = line(index, number);
  return {
    content: [
      { type: "text", text: `Editing ${sourceFileName(index)}.` },
      {
        type: "tool_use",
        name: "Edit",
        input: { file_path: sourceFileName(index), old_string: old, new_string: `${old} //` },
      },
    ],
    needs: [{ text: old, file: sourceFileName(index) }],
  };
}

describe("public-path batches keep the files the work is about", () => {
  it("clears old reads but not the named files', so nothing is read again", async () => {
    const turns: Turn[] = [read(0)];
    for (let index = 1; index < 6; index++) turns.push(read(index));
    turns.push(edit(5, 2));
    for (let index = 6; index < 26; index++) turns.push(read(index));
    turns.push(edit(0, 3), edit(5, 9), "Done.");
    const harness = await startHarness(
      { scenario: turns },
      { sessionMemory: false, compaction: { cacheEdits: "off", autocompact: false }, transcript: false },
    );
    harnesses.push(harness);
    await writeSourceFiles(harness.workspace, 26);
    await collect(
      harness.engine.submitMessage(`Tidy ${sourceFileName(0)} and ${sourceFileName(5)}; read the other modules first.`),
    );

    const requests = harness.emulator.requests.filter((r) => r.path === "/v1/messages" && r.status === 200);
    expect(requests.filter((r) => r.source === "reread")).toEqual([]);
    const last = JSON.stringify(requests.at(-1)!.body);
    // A batch did clear: reads of modules nobody named or edited are placeholders.
    expect(last).toContain(`Read ${sourceFileName(1)}`);
    expect(last).not.toContain(line(1, 0));
    expect(last).toMatch(/\[Old tool result content cleared: Read /);
    // The named modules are there verbatim (lines no step wrote itself).
    expect(last).toContain(line(0, 20));
    expect(last).toContain(line(5, 20));
  });
});
