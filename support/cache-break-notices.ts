/** The cache breaks a session's events announced, parsed back from their notices (as a person reads them). */
import { parseCacheBreakNotice } from "../src/cache/index.js";
import type { EngineEvent } from "../src/loop/events.js";

export function cacheBreakNotices(
  events: readonly EngineEvent[],
): Array<NonNullable<ReturnType<typeof parseCacheBreakNotice>>> {
  return events.flatMap((event) => {
    if (event.type !== "notice") return [];
    const parsed = parseCacheBreakNotice(event.message);
    return parsed ? [parsed] : [];
  });
}
