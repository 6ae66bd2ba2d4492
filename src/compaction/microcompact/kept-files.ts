/**
 * What a clear must not hide (issue 52, "Forget less"): re-reads are what forgetting costs, and the results the
 * next steps most likely need again are the newest look at the files the work is about: the files the person's
 * prompts name (the task's own files) and the files the model edited or wrote (their next Edit needs an
 * `old_string` from what it last saw). The newest compactable result naming each such file stays verbatim
 * through the public-path batch clear and the idle clear; older reads of the same file are clearable (the newer
 * one holds what they held, or more). The most recent results are kept by count already (`keepRecent`).
 *
 * Bounded: at most DEFAULT_KEPT_FILES files, the most recently touched first, so a long session that edited
 * many files does not pin them all. Clearing to make room (clear-for-room.ts, the overflow chain) ignores the
 * rule: there the window decides, not the price.
 *
 * Measured on bench/exploration-session.ts (40 steps, the prompt names two files, the model edits both): the
 * defaults re-read 3 files before the rule and none after (bench/README.md, section exploration-session).
 */
import type { MessageEntry, UserEntry } from "../../messages/index.js";
import type { ToolResultRef } from "../results/compactable-results.js";

/** Most files whose newest result a clear keeps verbatim: 4. */
export const DEFAULT_KEPT_FILES = 4;

/**
 * What the person asked in the view, every prompt joined: the task's files are named where it started, and a
 * "continue" after a pause names none.
 */
export function promptsText(view: readonly MessageEntry[]): string {
  const texts: string[] = [];
  for (const entry of view) {
    if (entry.type !== "user" || entry.isMeta === true || entry.isCompactSummary === true) continue;
    const text = promptText(entry);
    if (text !== undefined) texts.push(text);
  }
  return texts.join("\n");
}

function promptText(entry: UserEntry): string | undefined {
  const content = entry.message.content;
  if (typeof content === "string") return content;
  if (content.some((block) => block.type === "tool_result")) return undefined;
  const texts = content.flatMap((block) => (block.type === "text" ? [block.text] : []));
  return texts.length === 0 ? undefined : texts.join("\n");
}

const PATH_CHARACTER = /[\w./-]/;

/**
 * Whether `text` names `path`: the whole path, or a tail of it from a `/` on (the basename at least), standing
 * alone (not inside a longer path or word), so "src/config.ts" and "config.ts" both name "/ws/src/config.ts"
 * while "lib/config.ts" does not.
 */
export function namesPath(text: string, path: string): boolean {
  const normalized = path.replace(/^\.\//, "");
  const tails = [normalized];
  for (let slash = normalized.indexOf("/"); slash >= 0; slash = normalized.indexOf("/", slash + 1))
    tails.push(normalized.slice(slash + 1));
  for (const tail of tails) {
    if (tail.length < 3) continue;
    for (let at = text.indexOf(tail); at >= 0; at = text.indexOf(tail, at + 1)) {
      const before = at === 0 ? "" : text[at - 1]!;
      const after = text.slice(at + tail.length, at + tail.length + 2);
      const boundedBefore = before === "" || !PATH_CHARACTER.test(before);
      const boundedAfter = after === "" || !/^[\w/-]|^\.\w/.test(after);
      if (boundedBefore && boundedAfter) return true;
    }
  }
  return false;
}

/**
 * Tool ids of the results a clear keeps verbatim: for each file a prompt in the view names or a file-changing
 * tool call touched, the newest result of a non-changing call naming it (a Read, mostly); at most
 * DEFAULT_KEPT_FILES files, the most recently touched first. `results` are the view's compactable results;
 * `fileChangingTools` maps each tool whose calls change one file to the input field naming it (the tools'
 * own `traits.changesFiles`, CompactionInput.fileChangingTools).
 */
export function keptFileResults(
  view: readonly MessageEntry[],
  results: readonly ToolResultRef[],
  fileChangingTools: ReadonlyMap<string, string>,
  maxFiles = DEFAULT_KEPT_FILES,
): Set<string> {
  const prompt = promptsText(view);
  /** Each needed file with the view index where it was last touched. */
  const touched = new Map<string, number>();
  for (let index = 0; index < view.length; index++) {
    const entry = view[index]!;
    if (entry.type !== "assistant") continue;
    for (const block of entry.message.content)
      if (block.type === "tool_use") {
        const field = fileChangingTools.get(block.name);
        const path = field === undefined ? undefined : (block.input as Record<string, unknown> | null)?.[field];
        if (typeof path === "string" && path !== "") touched.set(path, index);
      }
  }
  /** The newest readable result of each file. */
  const newest = new Map<string, ToolResultRef>();
  for (const result of results) {
    const path = result.filePath;
    if (path === undefined || result.toolName === undefined || fileChangingTools.has(result.toolName)) continue;
    newest.set(path, result);
  }
  for (const [path, result] of newest)
    if (!touched.has(path) && prompt !== "" && namesPath(prompt, path)) touched.set(path, result.viewIndex);
  const files = [...touched].sort((a, b) => b[1] - a[1]).slice(0, maxFiles);
  const kept = new Set<string>();
  for (const [path] of files) {
    const result = newest.get(path);
    if (result !== undefined) kept.add(result.toolUseId);
  }
  return kept;
}
