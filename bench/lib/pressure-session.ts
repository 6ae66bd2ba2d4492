/**
 * A read-heavy session for compaction under pressure, written for the closed-loop scripted model: `tasks`
 * prompts, each reading `readsPerTask` modules whose sizes vary between `minTokens` and `maxTokens`
 * (deterministically), then editing one line of the task's first module (the Edit needs its `old_string`),
 * then answering with the first line of a module read `factLag` tasks earlier (the answer needs a fact read
 * long before). Every file is read once, so each read is new context: the session must compact several times
 * once its reads add up to more than the window. Facts that answers need live only in tool results.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TurnObject } from "@threadline/emulator";

export interface PressureShape {
  tasks: number;
  readsPerTask: number;
  /** Smallest and largest module, in tokens (the ruler's 4 characters a token). */
  minTokens: number;
  maxTokens: number;
  /** How many tasks back the module is whose first line a task's answer quotes. */
  factLag: number;
  /**
   * What pads each line to its width: `tilde` (default, counted close to the estimate) or `cjk-json` — Chinese
   * notes in even modules, minified JSON in odd ones, the content a real tokenizer counts well above characters ÷ 4
   * and unevenly (issue 38's "content where the estimate is wrong").
   */
  filler?: "tilde" | "cjk-json";
}

/** Chinese notes of the kind a workspace's comments hold (a real tokenizer counts them ~2–4× characters ÷ 4). */
const CJK_NOTES = [
  "该函数在构建开始前读取每个模块，并缓存找到的每个符号，以便后续检查名称、类型和导入。",
  "注意：修改校验和之前先运行测试，确认结果与上一次发布记录一致。",
  "这里的数值来自配置文件，请勿手动更改；如需调整，请联系负责该模块的同事。",
  "缓存失效时重新计算，结果写入项目目录下以项目名称命名的文件夹。",
];

/** Padding of `width` characters for line `line` of module `file`. */
function padding(shape: PressureShape, file: number, line: number, width: number): string {
  if (shape.filler !== "cjk-json") return "~".repeat(width);
  let text = "";
  for (let part = 0; text.length < width; part++)
    text +=
      file % 2 === 0
        ? CJK_NOTES[(line + part) % CJK_NOTES.length]!
        : JSON.stringify({ id: file * 1000 + line, part, tags: ["build", "cache", "io"], w: [(line % 7) / 8, 0.5] });
  return text.slice(0, width);
}

/** The module name of file `index`. */
export function pressureModule(index: number): string {
  return `mod-${index}.ts`;
}

/** Line `line` of module `file` as written (distinctive: the file, line and version are in it). */
export function pressureLine(file: number, line: number, version = 0): string {
  const checksum = (file * 7919 + line * 104729 + version * 31) % 9973;
  return `export const item_${file}_${line} = checksum("${file}:${line}", ${checksum});`;
}

/** Tokens of module `file`: spread between the shape's bounds by a fixed low-discrepancy sequence. */
export function pressureFileTokens(shape: PressureShape, file: number): number {
  const fraction = (file * 0.618_033_988_75) % 1;
  return Math.round(shape.minTokens + (shape.maxTokens - shape.minTokens) * fraction);
}

function fileCount(shape: PressureShape): number {
  return shape.tasks * shape.readsPerTask;
}

/** Most lines of a module: under the Read tool's 2,000-line page, so one Read returns it whole. */
const MAX_LINES = 1_800;

/** Largest module, in tokens: under the Read tool's 256 KB limit with line numbers added. */
export const MAX_PRESSURE_FILE_TOKENS = 58_000;

/** Writes every module into `workspace`: lines of ~80 characters, padded wider for big modules. */
export async function writePressureFiles(workspace: string, shape: PressureShape): Promise<void> {
  for (let file = 0; file < fileCount(shape); file++) {
    const chars = Math.min(MAX_PRESSURE_FILE_TOKENS, pressureFileTokens(shape, file)) * 4;
    const lines = Math.max(3, Math.min(MAX_LINES, Math.round(chars / 80)));
    const width = Math.floor(chars / lines) - 8; // the Read tool's line-number column
    const body = Array.from({ length: lines }, (_, line) => {
      const text = pressureLine(file, line);
      return text.length + 4 >= width ? text : `${text} // ${padding(shape, file, line, width - text.length - 4)}`;
    });
    await writeFile(join(workspace, pressureModule(file)), `${body.join("\n")}\n`);
  }
}

/** The user prompt of task `task`. */
export function pressurePrompt(task: number): string {
  return `Task ${task}: review the next modules, fix the checksum in the first one, and report.`;
}

/** Total tokens of new tool results the session reads (its modules once each). */
export function pressureNewTokens(shape: PressureShape): number {
  let total = 0;
  for (let file = 0; file < fileCount(shape); file++)
    total += Math.min(MAX_PRESSURE_FILE_TOKENS, pressureFileTokens(shape, file));
  return total;
}

/** The scenario steps, in order: tasks × (reads + 1 edit + 1 answer). */
export function pressureSteps(shape: PressureShape): TurnObject[] {
  const steps: TurnObject[] = [];
  for (let task = 0; task < shape.tasks; task++) {
    const first = task * shape.readsPerTask;
    for (let read = 0; read < shape.readsPerTask; read++) {
      const file = first + read;
      steps.push({
        content: [
          { type: "text", text: `Checking ${pressureModule(file)}.` },
          { type: "tool_use", name: "Read", input: { file_path: pressureModule(file) } },
        ],
      });
    }
    const oldLine = pressureLine(first, 1);
    steps.push({
      content: [
        { type: "text", text: `Fixing the checksum in ${pressureModule(first)}.` },
        {
          type: "tool_use",
          name: "Edit",
          input: { file_path: pressureModule(first), old_string: oldLine, new_string: pressureLine(first, 1, 1) },
        },
      ],
      needs: [{ text: oldLine, file: pressureModule(first) }],
    });
    // The last module of a task `factLag` back (or of the first task): line 0 is never edited.
    const source = Math.max(0, task - shape.factLag) * shape.readsPerTask + shape.readsPerTask - 1;
    const fact = pressureLine(source, 0);
    steps.push({
      content: [
        { type: "text", text: `Task ${task} done. For reference, ${pressureModule(source)} begins with: ${fact}` },
      ],
      needs: [{ text: fact, file: pressureModule(source) }],
    });
  }
  return steps;
}
