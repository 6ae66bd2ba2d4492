/**
 * A long coding session written for the closed-loop scripted model: `tasks` user prompts, each reading
 * `readsPerTask` generated modules, then editing one line of a module it read at the task's start (the Edit
 * needs its `old_string`), then answering with a fact from a module read in the very first task (the answer
 * needs it). Deterministic: the same arguments give the same files and steps. With the defaults, 20 tasks ×
 * (9 reads + 1 edit + 1 answer) = 220 steps, and 40 needs.
 *
 * Every need is a line no earlier step of the model wrote: each answer quotes a different line (one of the
 * last lines of a first-task module, never edited), so a later answer cannot be satisfied by the model's own
 * earlier answer, only by a tool result still in view (or a re-read). Before issue 33 every answer quoted
 * line 0 of `task % readsPerTask`, so from task 9 on each answer's fact was already in an earlier answer:
 * "facts lost 0" rested on the first 9 answers and the 20 Edits.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TurnObject } from "@threadline/emulator";

export interface LongSessionShape {
  tasks: number;
  readsPerTask: number;
  files: number;
  tokensPerFile: number;
}

export const DEFAULT_LONG_SESSION: LongSessionShape = { tasks: 20, readsPerTask: 9, files: 30, tokensPerFile: 6_000 };

/** The module name of file `index`. */
export function moduleName(index: number): string {
  return `module-${index}.ts`;
}

/** Line `line` of module `file` as written (distinctive: the file and line are in it). */
export function moduleLine(file: number, line: number, version = 0): string {
  const checksum = (file * 7919 + line * 104729 + version * 31) % 9973;
  return `export const value_${file}_${line} = computeChecksum("${file}-${line}", ${checksum});`;
}

/** Lines per module: enough for the edited lines (1 … tasks) and the distinct answer lines after them. */
function linesPerFile(shape: LongSessionShape): number {
  const answerLines = Math.ceil(shape.tasks / shape.readsPerTask);
  return Math.max(shape.tasks + 2 + answerLines, Math.round((shape.tokensPerFile * 4) / 80));
}

/** Writes the modules into `workspace`. */
export async function writeLongSessionFiles(workspace: string, shape = DEFAULT_LONG_SESSION): Promise<void> {
  const lines = linesPerFile(shape);
  for (let file = 0; file < shape.files; file++) {
    const body = Array.from({ length: lines }, (_, line) => moduleLine(file, line));
    await writeFile(join(workspace, moduleName(file)), `${body.join("\n")}\n`);
  }
}

/** The user prompt of task `task`. */
export function longSessionPrompt(task: number): string {
  return `Task ${task}: review the next modules, fix the checksum in the first one, and report.`;
}

/** The scenario steps, in order (one user prompt per task; see longSessionPrompt). */
export function longSessionSteps(shape = DEFAULT_LONG_SESSION): TurnObject[] {
  const steps: TurnObject[] = [];
  const lines = linesPerFile(shape);
  for (let task = 0; task < shape.tasks; task++) {
    const first = (task * shape.readsPerTask) % shape.files;
    for (let read = 0; read < shape.readsPerTask; read++) {
      const file = (task * shape.readsPerTask + read) % shape.files;
      steps.push({
        content: [
          { type: "text", text: `Checking ${moduleName(file)}.` },
          { type: "tool_use", name: "Read", input: { file_path: moduleName(file) } },
        ],
      });
    }
    // Line `task + 1` is edited once, by this task only, so no later need refers to a line that changed.
    const oldLine = moduleLine(first, task + 1);
    steps.push({
      content: [
        { type: "text", text: `Fixing the checksum in ${moduleName(first)}.` },
        {
          type: "tool_use",
          name: "Edit",
          input: { file_path: moduleName(first), old_string: oldLine, new_string: moduleLine(first, task + 1, 1) },
        },
      ],
      needs: [{ text: oldLine, file: moduleName(first) }],
    });
    // A first-task module and one of its last lines (never edited: edits touch lines 1 … tasks), a different
    // (module, line) for every task, so no earlier answer already holds this one's fact.
    const early = task % shape.readsPerTask;
    const factLine = lines - 1 - Math.floor(task / shape.readsPerTask);
    const fact = moduleLine(early, factLine);
    steps.push({
      content: [
        {
          type: "text",
          text: `Task ${task} done. For reference, line ${factLine} of ${moduleName(early)} is: ${fact}`,
        },
      ],
      needs: [{ text: fact, file: moduleName(early) }],
    });
  }
  return steps;
}
