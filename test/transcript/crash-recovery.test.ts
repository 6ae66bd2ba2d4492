import { readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TimelineEntry } from "../../src/messages/index.js";
import { JsonlTranscriptStore, loadTranscript, resumeConversation } from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";
import { buildTimeline, SESSION_ID } from "./timeline-arbitrary.js";

const tempDir = useTempDirs();

function sampleEntries(): TimelineEntry[] {
  return buildTimeline([
    { kind: "user", text: "read the file \u2028 please é", meta: false },
    { kind: "response", blocks: ["thinking", "text", "tool_use"], text: "ok 😀 \ud800", results: true },
    { kind: "user", text: "thanks — ünïcode at the end ✓", meta: false },
  ]);
}

async function writeTranscript(entries: readonly TimelineEntry[]): Promise<string> {
  const path = join(await tempDir(), "session.jsonl");
  const store = await JsonlTranscriptStore.open({ sessionId: SESSION_ID, cwd: "/work", path });
  for (const entry of entries) store.append(entry);
  await store.close();
  return path;
}

describe("torn tail", () => {
  it("loses at most the last line, and reports it, wherever the write stopped", async () => {
    const entries = sampleEntries();
    const path = await writeTranscript(entries);
    const bytes = await readFile(path);
    const lastLineStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    const lastLineNumber = bytes.subarray(0, lastLineStart).filter((byte) => byte === 0x0a).length + 1;
    const copy = join(await tempDir(), "torn.jsonl");
    // Every cut strictly inside the last line, including between the bytes of one multi-byte character.
    for (let cut = lastLineStart + 1; cut < bytes.length - 1; cut++) {
      await writeFile(copy, bytes.subarray(0, cut));
      const loaded = await loadTranscript(copy);
      expect(loaded.entries).toEqual(entries.slice(0, -1));
      expect(loaded.problems).toHaveLength(1);
      expect(loaded.problems[0]).toMatchObject({ line: lastLineNumber });
      expect(loaded.problems[0]!.reason).toMatch(/torn final line/);
      expect(loaded.problems[0]!.excerpt.length).toBeLessThanOrEqual(120);
    }
    // Cut just before the final LF: the JSON is complete, so nothing is lost and nothing reported.
    await writeFile(copy, bytes.subarray(0, bytes.length - 1));
    const whole = await loadTranscript(copy);
    expect(whole.entries).toEqual(entries);
    expect(whole.problems).toEqual([]);
  });

  it("reopening a torn file starts the next entry on a fresh line", async () => {
    const entries = sampleEntries();
    const path = await writeTranscript(entries);
    const size = (await readFile(path)).length;
    await truncate(path, size - 10);
    const store = await JsonlTranscriptStore.open({ sessionId: SESSION_ID, cwd: "/work", path });
    const next = buildTimeline([{ kind: "user", text: "after the crash", meta: false }])[0]!;
    const appended = { ...next, uuid: "after-crash", parentUuid: null };
    store.append(appended);
    await store.close();
    const loaded = await loadTranscript(path);
    expect(loaded.entries).toEqual([...entries.slice(0, -1), appended]);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]!.reason).toMatch(/malformed JSON/);
    const text = await readFile(path, "utf8");
    expect(text.split("\n").filter((line) => line.includes('"type":"header"'))).toHaveLength(1);
  });
});

describe("garbage in the middle", () => {
  it("loads everything else and names each bad line", async () => {
    const entries = sampleEntries();
    const path = await writeTranscript(entries);
    const lines = (await readFile(path, "utf8")).split("\n");
    // lines[0] is the header; insert bad lines after entries 1 and 3.
    const bad = [
      "not json at all",
      '{"type":"user","uuid":42,"parentUuid":null,"timestamp":"t","sessionId":"s","message":{"role":"user","content":"x"}}',
      "[1,2,3]",
      '{"no":"type"}',
      "\u0000\u0001binary\uFFFD",
      '{"type":"assistant","uuid":"u","parentUuid":null,"timestamp":"t","sessionId":"s","message":{"id":"m","role":"assistant","model":"x","content":[]}}',
      `{"type":"user","message":"${"x".repeat(500)}`,
    ];
    const mixed = [lines[0]!, lines[1]!, ...bad.slice(0, 3), lines[2]!, lines[3]!, ...bad.slice(3), ...lines.slice(4)];
    await writeFile(path, mixed.join("\n"));
    const loaded = await loadTranscript(path);
    expect(loaded.entries).toEqual(entries);
    expect(loaded.problems.map((problem) => problem.line)).toEqual([3, 4, 5, 8, 9, 10, 11]);
    expect(loaded.problems[0]!.reason).toMatch(/malformed JSON/);
    expect(loaded.problems[1]!.reason).toMatch(/invalid user record: uuid/);
    expect(loaded.problems[2]!.reason).toMatch(/not an object/);
    expect(loaded.problems[3]!.reason).toMatch(/no string `type`/);
    expect(loaded.problems[5]!.reason).toMatch(/invalid assistant record: message.content/);
    for (const problem of loaded.problems) expect(problem.excerpt.length).toBeLessThanOrEqual(120);
    // And the conversation still resumes whole.
    expect(resumeConversation(loaded.entries).entries).toEqual(entries);
  });

  it("counts unknown record types without calling them problems", async () => {
    const entries = sampleEntries();
    const path = await writeTranscript(entries);
    const text = await readFile(path, "utf8");
    await writeFile(path, text + '{"type":"future-thing","x":1}\n{"type":"future-thing"}\n{"type":"other"}\n');
    const loaded = await loadTranscript(path);
    expect(loaded.entries).toEqual(entries);
    expect(loaded.problems).toEqual([]);
    expect(loaded.unknownTypes).toEqual({ "future-thing": 2, other: 1 });
  });
});
