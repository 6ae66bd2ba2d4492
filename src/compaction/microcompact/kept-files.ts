/**
 * What a clear must not hide (issue 52, "Forget less"): re-reads are what forgetting costs, and the results the
 * next steps most likely need again include the newest look at the files the person's prompts name (the task's
 * own files). The newest result naming each such file (a Read, not the short answer of an Edit or Write) stays
 * verbatim through the public-path batch clear and the idle clear; older reads of the same file are clearable
 * (the newer one holds what they held). The most recent results are kept by count already (`keepRecent`).
 *
 * Files the model changed are not kept for that alone: measured on the pressure grid (bench/compaction-pressure.ts
 * --ruler, where each task edits a module it never needs again), keeping them, even only within the task that
 * changed them, left holes that later batches had to rewrite from or that pushed the context into a compaction
 * (120K ×10: 591,347 → 705,244 with a compaction; 120K ×1: 314,656 → 327,729). Kept by name only, the grid is
 * unchanged (no prompt there names a module).
 *
 * Bounded: at most DEFAULT_KEPT_FILES files, the most recently read first, holding at most
 * DEFAULT_KEPT_FILES_WINDOW_SHARE of the window. Clearing to make room (clear-for-room.ts, the overflow chain)
 * ignores the rule: there the window decides, not the price.
 */
import type { MessageEntry, UserEntry } from "../../messages/index.js";
import type { ToolResultRef } from "../results/compactable-results.js";

/** Most files whose newest result a clear keeps verbatim: 4. */
export const DEFAULT_KEPT_FILES = 4;

/**
 * Most the kept results may hold together, as a share of the context window: 10 %. Kept results sit inside the
 * region every batch rewrites and pay a read on every request, so a few very large named files are not all kept.
 */
export const DEFAULT_KEPT_FILES_WINDOW_SHARE = 0.1;

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
 * Tool ids of the results a clear keeps verbatim: for each file a prompt in the view names, the newest result of
 * a call naming it that does not change it (a Read, mostly); at most `maxFiles`, the most recently read first,
 * together at most `maxTokens`. `results` are the view's compactable results; `fileChangingTools` names the tools
 * whose calls change one file (the tools' own `traits.changesFiles`, CompactionInput.fileChangingTools): their
 * short answers are not a look at the file.
 */
export function keptFileResults(
  view: readonly MessageEntry[],
  results: readonly ToolResultRef[],
  fileChangingTools: ReadonlyMap<string, string>,
  maxTokens: number,
  maxFiles = DEFAULT_KEPT_FILES,
): Set<string> {
  const prompt = promptsText(view);
  /** The newest readable result of each file. */
  const newest = new Map<string, ToolResultRef>();
  for (const result of results) {
    const path = result.filePath;
    if (path === undefined || result.toolName === undefined || fileChangingTools.has(result.toolName)) continue;
    newest.set(path, result);
  }
  const named = prompt === "" ? [] : [...newest].filter(([path]) => namesPath(prompt, path));
  const files = named.sort((a, b) => b[1].viewIndex - a[1].viewIndex).slice(0, maxFiles);
  const kept = new Set<string>();
  let tokens = 0;
  for (const [, result] of files) {
    if (tokens + result.tokens > maxTokens) continue;
    tokens += result.tokens;
    kept.add(result.toolUseId);
  }
  return kept;
}
