/**
 * Fuzzing the transcript loader: random bytes, torn JSON, valid entries with fields of the wrong type, and
 * huge lines. Whatever is on disk, loading must not throw, must account for every line, and what it keeps
 * must resume and assemble into a request the emulator's validator accepts.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { validateRequest } from "@threadline/emulator";
import fc from "fast-check";
import {
  createAssistantEntry,
  createToolResultEntry,
  createUserEntry,
  type TimelineEntry,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "../../src/messages/index.js";
import { assembleRequest, emptyLatches } from "../../src/request/index.js";
import { apiViewWithErrors } from "../../src/timeline/index.js";
import { createHeader, loadTranscript, resumeConversation } from "../../src/transcript/index.js";
import { makeTempDir } from "../temp-dir.js";

const SESSION = "fuzz-session";
const MODEL = "claude-sonnet-4-5-20250929";

/** A small valid conversation: a question, a tool round, an answer. */
export function baseEntries(): TimelineEntry[] {
  const at = (uuid: string, parentUuid: string | null) => ({ sessionId: SESSION, parentUuid, uuid, now: new Date(0) });
  const user = createUserEntry(at("u1", null), "Read the file please.");
  const text = createAssistantEntry(at("a1", "u1"), textBlock("Reading."), { messageId: "msg_1", model: MODEL });
  const call = createAssistantEntry(at("a2", "a1"), toolUseBlock("toolu_1", "Read", { file_path: "a.ts" }), {
    messageId: "msg_1",
    model: MODEL,
    stopReason: "tool_use",
  });
  const result = createToolResultEntry(at("r1", "a2"), [toolResultBlock("toolu_1", "1\tconst a = 1;")], "a2");
  const answer = createAssistantEntry(at("a3", "r1"), textBlock("It defines a."), {
    messageId: "msg_2",
    model: MODEL,
    stopReason: "end_turn",
  });
  return [user, text, call, result, answer];
}

export function baseLines(): string[] {
  return [JSON.stringify(createHeader(SESSION, "/fuzz", new Date(0))), ...baseEntries().map((e) => JSON.stringify(e))];
}

/** What one fuzzed file did: the checks that failed (empty when all held). */
export async function checkTranscriptBytes(
  path: string,
  bytes: Uint8Array | string,
  checkContract = true,
): Promise<string[]> {
  await writeFile(path, bytes);
  const failures: string[] = [];
  let loaded: Awaited<ReturnType<typeof loadTranscript>>;
  try {
    loaded = await loadTranscript(path);
  } catch (error) {
    return [`loadTranscript threw: ${String(error)}`];
  }
  const text = typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("utf8");
  const lines = text.split("\n").filter((line) => line.trim() !== "").length;
  const unknown = Object.values(loaded.unknownTypes).reduce((sum, count) => sum + count, 0);
  // Every non-blank line is an entry, a problem, an unknown type, or the header: none vanishes silently.
  const header = loaded.sourceVersion > 0 ? 1 : 0;
  if (loaded.entries.length + loaded.problems.length + unknown + header < lines)
    failures.push(
      `lines unaccounted: ${lines} lines, ${loaded.entries.length} entries, ${loaded.problems.length} problems`,
    );
  try {
    const resumed = resumeConversation(loaded.entries);
    const messages = apiViewWithErrors(resumed.entries);
    if (messages.length > 0) {
      const { request } = assembleRequest({
        messages,
        settings: { model: MODEL, systemPrompt: ["You are a fuzz target."], tools: [] },
        latches: emptyLatches(),
        pins: [],
      });
      const violations = checkContract ? validateRequest(request.body) : [];
      if (violations.length > 0) failures.push(`contract: ${violations.map((v) => v.message).join("; ")}`);
    }
  } catch (error) {
    failures.push(`resume/assemble threw: ${error instanceof Error ? error.stack : String(error)}`);
  }
  return failures;
}

/** Sets `value` at a random path inside a JSON object (creating nothing: only existing keys are replaced). */
function replaceAt(target: unknown, choices: number[], value: unknown): unknown {
  if (target === null || typeof target !== "object") return value;
  const keys = Object.keys(target);
  const choice = choices[0];
  if (keys.length === 0 || choice === undefined) return value;
  const key = keys[choice % keys.length] as string;
  const copy: Record<string, unknown> = Array.isArray(target)
    ? ([...target] as unknown as Record<string, unknown>)
    : { ...target };
  copy[key] = replaceAt((target as Record<string, unknown>)[key], choices.slice(1), value);
  return copy;
}

/** Arbitrary transcript files, in four families. */
export function transcriptFileArbitrary(): fc.Arbitrary<Uint8Array | string> {
  const lines = baseLines();
  const randomBytes = fc.uint8Array({ maxLength: 2048 });
  const torn = fc.tuple(fc.nat({ max: lines.length - 1 }), fc.nat(), fc.boolean()).map(([index, cut, middle]) => {
    const copy = [...lines];
    const line = copy[index] ?? "";
    copy[index] = line.slice(0, cut % Math.max(1, line.length));
    // A torn line in the middle (a crash, then a reopen) or at the end (no final newline).
    return middle ? `${copy.join("\n")}\n` : copy.slice(0, index + 1).join("\n");
  });
  const wrongTypes = fc
    .tuple(
      fc.nat({ max: lines.length - 2 }),
      fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
      fc.oneof(fc.anything(), fc.constantFrom("", " ", null, 0, -1, [], {}, "\u2028", "user", "assistant")),
    )
    .map(([index, path, value]) => {
      const copy = [...lines];
      const original = JSON.parse(copy[index + 1] ?? "{}") as unknown;
      copy[index + 1] = JSON.stringify(replaceAt(original, path, value)) ?? "null";
      return `${copy.join("\n")}\n`;
    });
  const spliced = fc
    .tuple(
      fc.nat({ max: lines.length }),
      fc.oneof(fc.string(), fc.json(), fc.constantFrom("{", "[]", "null", '{"type":7}')),
    )
    .map(([index, junk]) => {
      const copy = [...lines];
      copy.splice(index, 0, junk);
      return `${copy.join("\n")}\n`;
    });
  return fc.oneof(randomBytes, torn, wrongTypes, spliced);
}

/**
 * Runs the property `numRuns` times; throws fast-check's report (with the shrunk input) on failure.
 */
export async function fuzzTranscriptLoader(numRuns: number, seed?: number): Promise<void> {
  const directory = await makeTempDir("fuzz-transcript");
  try {
    const path = join(directory, "fuzz.jsonl");
    await fc.assert(
      fc.asyncProperty(transcriptFileArbitrary(), async (bytes) => {
        const failures = await checkTranscriptBytes(path, bytes);
        if (failures.length > 0) throw new Error(failures.join("\n"));
      }),
      { numRuns, ...(seed !== undefined ? { seed } : {}) },
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Huge lines: a valid entry with a many-megabyte text and a many-megabyte garbage line, both on one file. */
export async function checkHugeLines(megabytes: number): Promise<string[]> {
  const directory = await makeTempDir("fuzz-huge");
  try {
    const lines = baseLines();
    const big = createUserEntry(
      { sessionId: SESSION, parentUuid: "a3", uuid: "u-big", now: new Date(0) },
      `big ${"x".repeat(megabytes * 1024 * 1024)}`,
    );
    const garbage = "{".repeat(megabytes * 1024 * 1024);
    const text = `${[...lines, JSON.stringify(big), garbage].join("\n")}\n`;
    // The contract check is skipped: a many-megabyte prompt is rightly "too long", which is not a loader matter.
    return await checkTranscriptBytes(join(directory, "huge.jsonl"), text, false);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
