/**
 * Turns two request snapshots into human words: one phrase per dimension that changed between them,
 * naming the tool, beta or field involved.
 */
import { checkNever } from "../messages/index.js";
import type { Fingerprint, RequestSnapshot } from "./fingerprint.js";
import { stableJson } from "./stable-json.js";

/** Names of the fingerprint dimensions that differ (perTool folded into "tools"). */
export function changedDimensions(before: Fingerprint, after: Fingerprint): Array<keyof Fingerprint> {
  const changed: Array<keyof Fingerprint> = [];
  const keys: Array<keyof Fingerprint> = [
    "system",
    "cacheLayout",
    "tools",
    "model",
    "betas",
    "thinking",
    "mode",
    "extraBody",
  ];
  for (const key of keys) if (before[key] !== after[key]) changed.push(key);
  if (!changed.includes("tools") && stableJson(before.perTool) !== stableJson(after.perTool)) changed.push("tools");
  return changed;
}

/**
 * Dimensions no compaction, clear or cache edit ever changes: a change to one of them is a break even when
 * a drop was expected.
 */
export const PREFIX_DIMENSIONS: ReadonlySet<keyof Fingerprint> = new Set(["system", "tools", "model"]);

/**
 * One human phrase per change, e.g. "system prompt changed", "tool Read changed (description)"; only the
 * dimensions in `only` when given (default: all).
 */
export function explainChanges(
  before: RequestSnapshot,
  after: RequestSnapshot,
  only?: ReadonlySet<keyof Fingerprint>,
): string[] {
  const causes: string[] = [];
  for (const dimension of changedDimensions(before.fingerprint, after.fingerprint)) {
    if (only !== undefined && !only.has(dimension)) continue;
    switch (dimension) {
      case "system":
        causes.push("system prompt changed");
        break;
      case "cacheLayout":
        causes.push("cache_control layout changed");
        break;
      case "tools":
        causes.push(...explainTools(before, after));
        break;
      case "model":
        causes.push(`model changed: ${before.fingerprint.model} → ${after.fingerprint.model}`);
        break;
      case "betas":
        causes.push(`betas changed: ${setDifference(before.betas, after.betas)}`);
        break;
      case "thinking":
        causes.push(`thinking/effort changed: ${before.fingerprint.thinking} → ${after.fingerprint.thinking}`);
        break;
      case "mode":
        causes.push(`mode changed: ${before.fingerprint.mode} → ${after.fingerprint.mode}`);
        break;
      case "extraBody":
        causes.push(`extra body fields changed (${changedKeys(before.extraBody, after.extraBody).join(", ")})`);
        break;
      case "perTool":
        break;
      default:
        checkNever(dimension);
    }
  }
  return causes;
}

function explainTools(before: RequestSnapshot, after: RequestSnapshot): string[] {
  const causes: string[] = [];
  const beforeByName = new Map(before.tools.map((tool) => [tool.name, tool.definition]));
  const afterByName = new Map(after.tools.map((tool) => [tool.name, tool.definition]));
  for (const tool of after.tools) {
    const previous = beforeByName.get(tool.name);
    if (previous === undefined) causes.push(`tool ${tool.name} added`);
    else {
      const fields = changedKeys(stringifyValues(previous), stringifyValues(tool.definition));
      if (fields.length > 0) causes.push(`tool ${tool.name} changed (${fields.join(", ")})`);
    }
  }
  for (const tool of before.tools) if (!afterByName.has(tool.name)) causes.push(`tool ${tool.name} removed`);
  if (causes.length === 0) causes.push("tools reordered");
  return causes;
}

function stringifyValues(record: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) result[key] = stableJson(value);
  return result;
}

function changedKeys(before: Record<string, string>, after: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => before[key] !== after[key]).sort();
}

function setDifference(before: readonly string[], after: readonly string[]): string {
  const added = after.filter((beta) => !before.includes(beta)).map((beta) => `+${beta}`);
  const removed = before.filter((beta) => !after.includes(beta)).map((beta) => `-${beta}`);
  return [...added, ...removed].join(" ");
}
