/**
 * Consecutive reads, searches and listings shown as one line ("Read 3 files, searched 2 patterns"), as Claude
 * Code collapses them; the calls behind the last group are kept so a key (Ctrl-O) can show them one a line.
 * Pure: the renderer decides when a group ends (any other output does).
 */

import { builtinToolTraits } from "../../../tools/index.js";

/** The verb and noun of a group line for a tool whose successful calls are grouped (`Tool.traits.terminal`). */
function groupWords(tool: string): { verb: string; noun: string } | undefined {
  return builtinToolTraits(tool)?.terminal?.group;
}

/** One finished call of a grouped tool: its summary line (`Read(src/a.ts)`) and its outcome (`12 lines`). */
export interface GroupedCall {
  tool: string;
  line: string;
  outcome: string;
}

/** Whether a tool's successful calls join a group. */
export function isGroupedTool(tool: string): boolean {
  return groupWords(tool) !== undefined;
}

/** `Read 3 files, searched 1 pattern`: each tool's count in the order it first appears (first verb capitalised). */
export function groupSummary(calls: readonly GroupedCall[]): string {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.tool, (counts.get(call.tool) ?? 0) + 1);
  const parts = [...counts].map(([tool, count], index) => {
    const words = groupWords(tool) ?? { verb: "Ran", noun: tool };
    const verb = index === 0 ? words.verb : words.verb.toLowerCase();
    return `${verb} ${count} ${words.noun}${count === 1 ? "" : "s"}`;
  });
  return parts.join(", ");
}

/** The expanded form of a group: one `Read(src/a.ts) · 12 lines` a call. */
export function expandGroup(calls: readonly GroupedCall[]): string[] {
  return calls.map((call) => `${call.line} · ${call.outcome}`);
}
