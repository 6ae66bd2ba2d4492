/**
 * Whether a file a person named (`--resume <path>`, `/resume <path>`) is a transcript threadline wrote, judged by
 * its first line before anything opens it for appending: a threadline header, or (a file written before headers
 * existed) a record with a string `type` and a `uuid`, `sessionId`, `leafUuid` or `messageId` (Claude Code's first lines too). Anything else — a scratch file,
 * a source file, an empty file, a FIFO — is refused in one line and left byte for byte as it was.
 */
import { stat } from "node:fs/promises";
import { TRANSCRIPT_GENERATOR } from "./header.js";
import { forEachJsonlLine } from "./jsonl-lines.js";
import { parseJsonLine } from "./load-transcript.js";

/** Undefined when `path` looks like a threadline transcript; otherwise why it is not one (one line). */
export async function notATranscriptReason(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return `No transcript at ${path}.`;
  const refuse = (why: string) => `${path} is not a threadline transcript (${why}); it was not opened or changed.`;
  if (!info.isFile()) return refuse("not a regular file");
  let first: string | undefined;
  await forEachJsonlLine(path, (line) => {
    if (line.trim() === "") return true;
    first = line;
    return false;
  });
  if (first === undefined) return refuse("it is empty");
  const value = parseJsonLine(first);
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Error)
    return refuse("its first line is not a JSON object");
  const record = value as Record<string, unknown>;
  if (record.type === "header") {
    return record.generator === TRANSCRIPT_GENERATOR
      ? undefined
      : refuse(`its header names the generator ${JSON.stringify(record.generator)}`);
  }
  const looksLikeEntry =
    typeof record.type === "string" &&
    ["uuid", "sessionId", "leafUuid", "messageId"].some((key) => typeof record[key] === "string");
  return looksLikeEntry ? undefined : refuse("its first line is neither a header nor a timeline record");
}
