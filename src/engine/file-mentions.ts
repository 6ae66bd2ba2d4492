/**
 * `@path` in the person's prompt attaches that text file, as Claude Code does: the file is read through the
 * session's own Read tool and permission policy (deny rules hold, a path outside the workspace asks as a Read
 * call would), and recorded as a `file` attachment after the prompt, in the words Claude Code uses for it
 * ("Called the Read tool with the following input: …" then "Result of calling the Read tool:"). The person's
 * words stay as typed. Images and PDFs are blocks of the prompt itself (cli/prompt-media.ts); directories and
 * names that are no file are left as text. A read that is refused or fails is attached as that refusal, so the
 * model knows the file was meant and not read, and nothing of it is sent.
 */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { QueryContext } from "../loop/query.js";
import {
  type AttachmentEntry,
  contentText,
  createAttachmentEntry,
  type EntryContext,
  type UserContentBlock,
} from "../messages/index.js";
import { runTool } from "../tools/index.js";
import type { SubmitOptions } from "./engine-options.js";

/** The attachment type of an `@file` mention. */
export const FILE_MENTION_ATTACHMENT = "file";

/** Most files attached from one prompt: a pasted list of paths is not a request to send a hundred files. */
export const MAX_FILE_MENTIONS = 10;

const MENTION = /(?:^|\s)@("[^"]+"|\S+)/g;
const MEDIA_PATH = /\.(png|jpe?g|gif|webp|pdf)$/i;
const TRAILING_PUNCTUATION = /[,;:!?)\]}'"`.]+$/;

/** The text of a prompt, whatever its form (media blocks carry no mentions of their own). */
function promptText(input: string | readonly UserContentBlock[]): string {
  return typeof input === "string" ? input : contentText(input);
}

/** A mention as a path to a regular file, trailing sentence punctuation dropped when the file is without it. */
function mentionedFile(token: string, cwd: string): string | undefined {
  const unquoted = /^".*"$/.test(token) ? token.slice(1, -1) : token;
  for (const candidate of [unquoted, unquoted.replace(TRAILING_PUNCTUATION, "")]) {
    if (candidate === "" || MEDIA_PATH.test(candidate)) continue;
    const absolute = isAbsolute(candidate) ? candidate : join(cwd, candidate);
    try {
      if (existsSync(absolute) && statSync(absolute).isFile()) return absolute;
    } catch {
      // Unreadable metadata: not a mention of a file this session can attach.
    }
  }
  return undefined;
}

/** The files a prompt mentions, in order, each once, at most `MAX_FILE_MENTIONS`. */
export function fileMentions(input: string | readonly UserContentBlock[], cwd: string): string[] {
  const files: string[] = [];
  for (const match of promptText(input).matchAll(MENTION)) {
    const file = mentionedFile(match[1]!, cwd);
    if (file !== undefined && !files.includes(file)) files.push(file);
    if (files.length === MAX_FILE_MENTIONS) break;
  }
  return files;
}

/** One attachment per mentioned file, read through the session's Read tool under its permission policy. */
export async function mentionAttachments(
  input: string | readonly UserContentBlock[],
  recorder: { context(): EntryContext },
  query: QueryContext,
  options: SubmitOptions = {},
): Promise<AttachmentEntry[]> {
  const read = query.tools.get("Read");
  if (read === undefined || options.fileMentions === false) return [];
  const entries: AttachmentEntry[] = [];
  for (const filePath of fileMentions(input, query.cwd)) {
    const toolInput = { file_path: filePath };
    const output = await runTool(
      read,
      toolInput,
      {
        cwd: query.cwd,
        additionalDirectories: query.additionalDirectories,
        signal: query.signal,
        toolUseId: "file-mention",
        onProgress: () => {},
        ...(query.toolRuntime !== undefined ? { runtime: query.toolRuntime } : {}),
      },
      query.policy,
    );
    const text = typeof output.content === "string" ? output.content : contentText(output.content);
    const called = `Called the Read tool with the following input: ${JSON.stringify(toolInput)}`;
    const content =
      output.isError === true
        ? `${called}\nThe Read tool did not read it: ${text}`
        : `${called}\nResult of calling the Read tool:\n${text}`;
    entries.push(createAttachmentEntry(recorder.context(), FILE_MENTION_ATTACHMENT, content, { filePath }));
  }
  return entries;
}
