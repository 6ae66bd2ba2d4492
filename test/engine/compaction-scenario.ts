/** Scenarios for the compaction tests: tasks whose tool calls Read big generated files. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmulatorRequest, ScenarioStep } from "@threadline/emulator";
import type { QueryEngine } from "../../src/engine/query-engine.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { collect } from "../../support/collect.js";
import { type Harness, turnEnd } from "../../support/engine-harness.js";

/** Writes `count` files `data-N.txt` of about `tokens` tokens each (as Read shows them). */
export async function writeDataFiles(workspace: string, count: number, tokens: number): Promise<void> {
  const lines = Math.max(1, Math.round((tokens * 4) / 72));
  for (let file = 0; file < count; file++) {
    const body: string[] = [];
    for (let line = 0; line < lines; line++)
      body.push(`file ${file} line ${line}: ${"abcdefghij".repeat(5)} value=${(file * 7919 + line * 31) % 100000}`);
    await writeFile(join(workspace, `data-${file}.txt`), `${body.join("\n")}\n`);
  }
}

/** One task: `reads` Read calls (files taken round-robin from `fileCount`), then a short final answer. */
export function taskSteps(task: number, reads: number, fileCount: number): ScenarioStep[] {
  const steps: ScenarioStep[] = [];
  for (let read = 0; read < reads; read++) {
    const file = (task * reads + read) % fileCount;
    steps.push({
      content: [
        { type: "text", text: `Reading data-${file}.txt for task ${task}.` },
        { type: "tool_use", name: "Read", input: { file_path: `data-${file}.txt` } },
      ],
    });
  }
  steps.push(`Task ${task} is done: the files were read.`);
  return steps;
}

/** Runs one task's turn and returns its events' end. */
export async function runTask(engine: QueryEngine, task: number) {
  const events = await collect(engine.submitMessage(`Task ${task}: inspect the data files and report.`));
  return { events, end: turnEnd(events) };
}

/** The POST /v1/messages log records. */
export function messageRecords(harness: Harness) {
  return harness.emulator.requests.filter((record) => record.path === "/v1/messages");
}

/** Text of the last user message of a request body. */
export function lastUserText(body: MessagesRequest | EmulatorRequest): string {
  const last = [...body.messages].reverse().find((message) => message.role === "user");
  if (last === undefined) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/** Whether a request is AutoCompact's summary request. */
export function isSummaryRequest(body: unknown): boolean {
  return lastUserText(body as MessagesRequest).includes("create a detailed summary of the conversation");
}
