/**
 * The one-line text of a cache-break system notice, and its inverse: `threadline inspect` reads recorded
 * notices back from threadline transcripts, so writer and reader live side by side.
 */
import type { CacheBreak, CacheBreakKind } from "./cache-break.js";

/** Every cache-break notice starts with this, so a reader can pick them out of other system notices. */
export const CACHE_BREAK_NOTICE_PREFIX = "Prompt cache break";

const SEPARATOR = " — ";
const CAUSE_SEPARATOR = "; ";

/** One line for the system notice: scope, numbers, kind, causes and the diff path. */
export function describeCacheBreak(cacheBreak: CacheBreak): string {
  const parts = [
    `${CACHE_BREAK_NOTICE_PREFIX} [${cacheBreak.scope}]: cache read ${cacheBreak.previousCacheRead} → ${cacheBreak.cacheRead} tokens after ${Math.round(cacheBreak.gapMs / 1000)}s`,
    `${cacheBreak.kind}: ${cacheBreak.causes.join(CAUSE_SEPARATOR)}`,
  ];
  if (cacheBreak.diffPath !== undefined) parts.push(`diff: ${cacheBreak.diffPath}`);
  return parts.join(SEPARATOR);
}

const HEAD_PATTERN = new RegExp(
  `^${CACHE_BREAK_NOTICE_PREFIX} \\[(.+)\\]: cache read (\\d+) → (\\d+) tokens after (\\d+)s$`,
);
const KINDS: readonly CacheBreakKind[] = ["client_change", "ttl_expiry", "server_side"];

/** The break a notice line describes, or null when the text is not a cache-break notice. */
export function parseCacheBreakNotice(text: string): CacheBreak | null {
  if (!text.startsWith(CACHE_BREAK_NOTICE_PREFIX)) return null;
  const [head, body, diff] = text.split(SEPARATOR);
  const match = head === undefined ? null : HEAD_PATTERN.exec(head);
  if (match === null || body === undefined) return null;
  const colon = body.indexOf(": ");
  const kind = KINDS.find((candidate) => candidate === body.slice(0, colon));
  if (colon < 0 || kind === undefined) return null;
  const previousCacheRead = Number(match[2]);
  const cacheRead = Number(match[3]);
  const cacheBreak: CacheBreak = {
    scope: match[1] ?? "main",
    previousCacheRead,
    cacheRead,
    drop: previousCacheRead - cacheRead,
    kind,
    causes: body.slice(colon + 2).split(CAUSE_SEPARATOR),
    gapMs: Number(match[4]) * 1000,
  };
  if (diff?.startsWith("diff: ")) cacheBreak.diffPath = diff.slice("diff: ".length);
  return cacheBreak;
}
