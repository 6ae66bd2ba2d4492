/**
 * Byte stability of memory files (issue #29): over random sessions of Reads across folders with and without
 * nested CLAUDE.md files, the same session run with memory files on and off sends the same requests except
 * for the memory text itself, and with memory on every request is the previous one plus what the turn added
 * (a nested file is appended once, after the result of the first Read that touched its folder; nothing
 * earlier is rewritten or re-ordered). Oracle: the logged request bodies of both runs.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorRequest, ScenarioStep } from "@threadline/emulator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { startHarness, turnEnd } from "../../support/engine-harness.js";

const FOLDERS = ["", "src/x", "src/y", "src/x/deep", "lib"] as const;
/** Folders holding a nested CLAUDE.md (besides the root's, read at start). */
const NESTED: Record<string, string> = {
  "src/x": "Nested X rule: pure functions only.",
  "src/x/deep": "Deep rule: no recursion here.",
  lib: "Lib rule: keep the public API small.",
};

type Json = unknown;

/** Removes cache_control (its place follows the last block, which memory text may be) from every block. */
function withoutMarkers(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutMarkers);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, Json> = {};
  for (const [key, inner] of Object.entries(value)) if (key !== "cache_control") out[key] = withoutMarkers(inner);
  return out;
}

function isMemoryText(block: Json): boolean {
  if (typeof block !== "object" || block === null) return false;
  const record = block as { type?: string; text?: string };
  return record.type === "text" && typeof record.text === "string" && record.text.includes("Contents of ");
}

/** Blocks without memory text; the text after one loses the "\n" that merging adjacent users put at the seam. */
function dropSeams(content: Json[]): Json[] {
  const kept: Json[] = [];
  let afterMemory = false;
  for (const block of content) {
    if (isMemoryText(block)) {
      afterMemory = true;
      continue;
    }
    const text = block as { type?: string; text?: string };
    if (afterMemory && text.type === "text" && text.text?.startsWith("\n"))
      kept.push({ ...text, text: text.text.slice(1) });
    else kept.push(block);
    afterMemory = false;
  }
  return kept;
}

/** A request's messages without the memory reminder blocks (top level and folded into tool results). */
function withoutMemory(messages: Json[]): Json[] {
  return messages.map((message) => {
    const { role, content } = message as { role: string; content: Json };
    if (!Array.isArray(content)) return { role, content };
    const kept = dropSeams(content).map((block) => {
      const result = block as { type?: string; content?: Json };
      if (result.type !== "tool_result" || !Array.isArray(result.content)) return block;
      const inner = result.content.filter((part) => !isMemoryText(part));
      // A result that only carried memory text beside its own text is the plain string it was.
      const single = inner.length === 1 ? (inner[0] as { type?: string; text?: string }) : undefined;
      return { ...result, content: single?.type === "text" ? single.text : inner };
    });
    const only = kept.length === 1 ? (kept[0] as { type?: string; text?: string }) : undefined;
    return { role, content: only?.type === "text" && role === "user" ? only.text : kept };
  });
}

function normalizedUser(messages: Json[]): Json[] {
  return messages.map((message) => {
    const { role, content } = message as { role: string; content: Json };
    if (role !== "user" || !Array.isArray(content) || content.length !== 1) return { role, content };
    const only = content[0] as { type?: string; text?: string };
    return { role, content: only.type === "text" ? only.text : content };
  });
}

async function runSession(reads: readonly string[][], memoryFiles: boolean): Promise<EmulatorRequest[]> {
  const scenario: ScenarioStep[] = [];
  for (const [turn, files] of reads.entries()) {
    for (const file of files)
      scenario.push({ content: [{ type: "tool_use", name: "Read", input: { file_path: file } }] });
    scenario.push(`Turn ${turn} done.`);
  }
  const userHome = await mkdtemp(join(tmpdir(), "threadline-user-"));
  await mkdir(join(userHome, ".claude"), { recursive: true });
  await writeFile(join(userHome, ".claude", "CLAUDE.md"), "User rule: be brief.\n");
  const harness = await startHarness(
    { scenario, seed: 29 },
    { memoryFiles, sessionMemory: false, env: { PATH: process.env.PATH ?? "", HOME: userHome } },
  );
  try {
    const workspace = harness.workspace;
    await mkdir(join(workspace, ".git"), { recursive: true });
    await writeFile(join(workspace, "CLAUDE.md"), "Root rule: run the tests.\n");
    for (const folder of FOLDERS) {
      await mkdir(join(workspace, folder), { recursive: true });
      await writeFile(join(workspace, folder, "file.txt"), `contents of ${folder || "root"}\n`);
      if (NESTED[folder] !== undefined) await writeFile(join(workspace, folder, "CLAUDE.md"), `${NESTED[folder]}\n`);
    }
    for (let turn = 0; turn < reads.length; turn++)
      expect(turnEnd(await collect(harness.engine.submitMessage(`Turn ${turn}: read some files.`))).reason).toBe(
        "completed",
      );
    return (
      harness.emulator.requests
        .filter((record) => record.path === "/v1/messages" && record.source === "scenario")
        // The two runs have their own temp workspace: its path is the one difference they may have.
        .map((record) => JSON.parse(JSON.stringify(record.body).split(workspace).join("<ws>")) as EmulatorRequest)
    );
  } finally {
    await harness.close();
  }
}

const readsArbitrary = fc.array(
  fc.array(
    fc.constantFrom(...FOLDERS).map((folder) => (folder === "" ? "file.txt" : `${folder}/file.txt`)),
    { minLength: 1, maxLength: 5 },
  ),
  { minLength: 1, maxLength: 3 },
);

describe("memory files and byte stability", () => {
  it("change no request except by their own text, and only ever append", async () => {
    await fc.assert(
      fc.asyncProperty(readsArbitrary, async (reads) => {
        const on = await runSession(reads, true);
        const off = await runSession(reads, false);
        expect(on.length).toBe(off.length);
        for (let index = 0; index < on.length; index++) {
          const { messages: onMessages, ...onRest } = on[index]!;
          const { messages: offMessages, ...offRest } = off[index]!;
          // System prompt, tools, model, parameters: untouched by memory files.
          // Mutation caught: memory placed in the system prompt instead of an attachment.
          expect(onRest).toEqual(offRest);
          // Mutation caught: memory text rewriting anything else (another wrapper, a re-ordered message).
          expect(normalizedUser(withoutMemory(withoutMarkers(onMessages) as Json[]))).toEqual(
            normalizedUser(withoutMarkers(offMessages) as Json[]),
          );
        }
        for (let index = 1; index < on.length; index++) {
          const before = withoutMarkers(on[index - 1]!.messages) as Json[];
          const after = withoutMarkers(on[index]!.messages) as Json[];
          // Turn N's messages are a prefix of turn N+1's: a nested file found later is appended, never
          // inserted earlier. Mutation caught: nested files re-sent in the session-start block.
          expect(after.slice(0, before.length)).toEqual(before);
        }
        const last = JSON.stringify(on.at(-1)!.messages);
        const touched = new Set(reads.flat().map((file) => file.split("/").slice(0, -1).join("/")));
        for (const [folder, rule] of Object.entries(NESTED)) {
          // A nested file is sent once its folder was read, exactly once; never when it was not.
          // Mutation caught: nested files loaded up front, or attached on every touch.
          // A Read below the folder touches it too (src/x/deep/file.txt brings in src/x/CLAUDE.md).
          const expected = [...touched].some((dir) => dir === folder || dir.startsWith(`${folder}/`)) ? 1 : 0;
          expect({ folder, count: last.split(rule).length - 1 }).toEqual({ folder, count: expected });
        }
      }),
      { numRuns: 8 },
    );
  });
});
