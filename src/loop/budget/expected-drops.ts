/** How much a pass's cache edits are expected to take out of the cached read (for break detection). */
import type { TimelineEntry } from "../../messages/index.js";

/**
 * The client measures deleted results with the chars/4 ruler; a server's tokenizer can count more (code and
 * numbers run denser), so the expected drop is widened by this factor before a shortfall is called a break.
 */
export const DEFAULT_CACHE_EDIT_ESTIMATE_SLACK = 1.5;

/** Estimated tokens the cached-path microcompact records of a pass deleted. */
export function cachedDeleteTokens(records: readonly TimelineEntry[]): number {
  let tokens = 0;
  for (const record of records)
    if (
      record.type === "system" &&
      record.subtype === "microcompact_boundary" &&
      record.microcompactMetadata?.trigger === "cached"
    )
      tokens += record.microcompactMetadata.tokensSaved;
  return tokens;
}
