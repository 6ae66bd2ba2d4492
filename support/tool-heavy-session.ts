/**
 * A tool-heavy scripted session shared by tests and benchmarks: N steps, each reading a different
 * generated source file of realistic size, then a final answer.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Turn } from "@threadline/emulator";

/** Writes `count` source files of about `bytes` each under `workspace/src`. */
export async function writeSourceFiles(workspace: string, count: number, bytes = 12_000): Promise<string[]> {
  await mkdir(join(workspace, "src"), { recursive: true });
  const names: string[] = [];
  for (let index = 0; index < count; index++) {
    const name = sourceFileName(index);
    const lines: string[] = [];
    let size = 0;
    for (let line = 0; size < bytes; line++) {
      const text = `export function helper${index}_${line}(value: number): number { return value * ${line} + ${index}; }`;
      lines.push(text);
      size += text.length + 1;
    }
    await writeFile(join(workspace, name), `${lines.join("\n")}\n`);
    names.push(name);
  }
  return names;
}

/** One Read per file, then a closing text turn. */
export function readEachFileScenario(files: readonly string[]): Turn[] {
  const turns: Turn[] = files.map((file, index) => ({
    content: [
      { type: "text", text: `Step ${index + 1}: reading ${file}.` },
      { type: "tool_use", name: "Read", input: { file_path: file } },
    ],
  }));
  turns.push("Read everything; the helpers are consistent.");
  return turns;
}

/** The name of the `index`th generated file. */
export function sourceFileName(index: number): string {
  return `src/module-${String(index).padStart(2, "0")}.ts`;
}

/** Names of the first `count` generated files. */
export function sourceFileNames(count: number): string[] {
  return Array.from({ length: count }, (_, index) => sourceFileName(index));
}
