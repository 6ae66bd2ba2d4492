/**
 * Cache breaks of a transcript, from its usage sequence: per scope, a drop in cache reads that the shared
 * rule calls a break, explained (best first) by the server's own cache diagnostics, a recorded notice of the
 * live detector, a compaction or clear just before it (then it is expected, not a break), or the idle gap.
 */
import {
  type CacheBreak,
  clientAgreesWithServer,
  describeServerCacheMiss,
  formatDuration,
  isCacheBreak,
  SERVER_PREFIX_CHANGES,
  TTL_5M_MS,
} from "../../cache/index.js";
import type { InspectBreak, InspectRequest, ServerCacheMiss } from "./types.js";

/** Cause given to breaks found in the usage sequence when no notice recorded why. */
export const UNKNOWN_BREAK_CAUSE = "unknown (no fingerprint in transcript)";

/** Words for a server-reported cache miss. */
function serverWords(miss: ServerCacheMiss): string {
  return describeServerCacheMiss({
    type: miss.reason,
    ...(miss.missedTokens !== null ? { cache_missed_input_tokens: miss.missedTokens } : {}),
  });
}

export interface BreakRequest {
  request: InspectRequest;
  /** The compaction or clear recorded just before the request, when one was. */
  afterBoundary: string | null;
}

/** Breaks of `requests` (turn requests only, in order), matched with the live detector's recorded `notices`. */
export function findBreaks(requests: readonly BreakRequest[], notices: readonly CacheBreak[]): InspectBreak[] {
  const breaks: InspectBreak[] = [];
  const unmatched = [...notices];
  const previousByScope = new Map<string, InspectRequest>();
  for (const { request, afterBoundary } of requests) {
    const previous = previousByScope.get(request.scope);
    previousByScope.set(request.scope, request);
    if (previous === undefined || !isCacheBreak(previous.cacheReadTokens, request.cacheReadTokens)) continue;
    const gapMs = gapBetween(previous.timestamp, request.timestamp);
    const found: InspectBreak = {
      scope: request.scope,
      requestIndex: request.index,
      previousCacheRead: previous.cacheReadTokens,
      cacheRead: request.cacheReadTokens,
      drop: previous.cacheReadTokens - request.cacheReadTokens,
      kind: "unknown",
      causes: [UNKNOWN_BREAK_CAUSE],
      source: "usage",
      gapMs,
    };
    const noticeIndex = unmatched.findIndex(
      (notice) =>
        notice.scope === request.scope &&
        notice.previousCacheRead === found.previousCacheRead &&
        notice.cacheRead === found.cacheRead,
    );
    const notice = unmatched[noticeIndex];
    if (notice !== undefined) unmatched.splice(noticeIndex, 1);
    const server = request.serverCacheMiss;
    const serverNamesPrefix = server !== null && SERVER_PREFIX_CHANGES[server.reason] !== undefined;
    if (server !== null && (serverNamesPrefix || (afterBoundary === null && server.reason === "messages_changed"))) {
      // The server compared the two requests itself: its answer beats any guess made here.
      found.kind = "client_change";
      found.causes = [serverWords(server)];
      found.source = "server";
      if (notice !== undefined) besideClient(found, server, notice);
    } else if (afterBoundary !== null && notice?.kind !== "client_change") {
      // A compaction or clear shrinks the cached prefix on purpose; only a changed prefix is still news.
      found.kind = "expected";
      found.causes = [`expected drop after ${afterBoundary}`];
    } else if (notice !== undefined) {
      found.kind = notice.kind;
      found.causes = notice.causes;
      found.source = "notice";
      if (notice.diffPath !== undefined) found.diffPath = notice.diffPath;
    } else if (gapMs !== null && gapMs > TTL_5M_MS) {
      found.causes.push(`idle ${formatDuration(gapMs)} before it (over the 5m TTL)`);
    }
    if (server !== null && found.source !== "server") found.causes.push(serverWords(server));
    breaks.push(found);
  }
  for (const notice of unmatched) breaks.push({ ...notice, requestIndex: null, source: "notice", gapMs: notice.gapMs });
  return breaks;
}

/** Causes the live detector found itself (its notice also carries the server's words and fallbacks). */
function clientCauses(notice: CacheBreak): string[] {
  return notice.causes.filter(
    (cause) => !cause.startsWith("server says:") && cause !== "likely server-side" && !cause.startsWith("TTL expiry"),
  );
}

/** The client detector's own verdict beside the server's, and whether they agree (the server is right if not). */
function besideClient(found: InspectBreak, server: ServerCacheMiss, notice: CacheBreak): void {
  const causes = clientCauses(notice);
  const agrees = clientAgreesWithServer(server.reason, causes);
  found.client = { causes, agrees };
  const said = causes.length === 0 ? "found no change" : causes.join(", ");
  found.causes.push(
    agrees ? `client detector agrees: ${said}` : `client detector ${said}: disagrees with the server (a detector bug)`,
  );
  if (notice.diffPath !== undefined) found.diffPath = notice.diffPath;
}

function gapBetween(before: string | null, after: string | null): number | null {
  if (before === null || after === null) return null;
  const gap = Date.parse(after) - Date.parse(before);
  return Number.isFinite(gap) ? gap : null;
}
