/**
 * The text of a cache-break diff file: unified diffs of the system prompt and of the tool list between the
 * request that set the baseline and the one that broke the cache.
 */
import type { RequestSnapshot } from "./fingerprint.js";
import { stableJson } from "./stable-json.js";
import { unifiedDiff } from "./unified-diff.js";

/** Diff file contents for one break. */
export function writeBreakDiff(
  scope: string,
  before: RequestSnapshot,
  after: RequestSnapshot,
  causes: string[],
): string {
  const sections = [
    `# threadline prompt-cache break [${scope}]`,
    `# causes: ${causes.join("; ")}`,
    "",
    section("system prompt", before.systemText, after.systemText),
    section("tools", toolsText(before), toolsText(after)),
  ];
  return sections.join("\n");
}

function section(title: string, before: string, after: string): string {
  const diff = unifiedDiff(before, after, { before: `${title} (before)`, after: `${title} (after)` });
  return `=== ${title} ===\n${diff === "" ? "(unchanged)\n" : diff}`;
}

function toolsText(snapshot: RequestSnapshot): string {
  return snapshot.tools.map((tool) => stableJson(tool.definition, 2)).join("\n");
}
