/**
 * Read time against line length (docs/EXACTLY-ONCE.md, "Linear reads"): Read with offset 1, limit 1 on a file
 * that is one line of 1 MB … 200 MB, and the ratio to the 1 MB time measured in the same process. Linear means
 * the ratio follows the size (a quadratic read took 53 s on 20 MB). Prints numbers; never fails on time.
 *
 *   node --import tsx bench/read-long-line.ts [--sizes 1,5,20,50,200] [--no-readme]
 */
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readTool } from "../src/tools/files/read-tool.js";
import { runTool } from "../src/tools/run-tool.js";
import type { ToolContext } from "../src/tools/types.js";
import { makeTempDir } from "../support/temp-dir.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { renderMarkdownTable } from "./lib/table.js";

const MB = 1024 * 1024;

async function writeLine(path: string, megabytes: number): Promise<void> {
  const handle = await open(path, "w");
  const chunk = Buffer.alloc(MB, "a");
  for (let index = 0; index < megabytes; index++) await handle.write(chunk);
  await handle.write("\n");
  await handle.close();
}

async function timeRead(workspace: string, path: string): Promise<number> {
  const context = { cwd: workspace, additionalDirectories: [], signal: new AbortController().signal, toolUseId: "b" };
  const start = performance.now();
  await runTool(readTool, { file_path: path, offset: 1, limit: 1 }, context as unknown as ToolContext, {
    mode: "bypassPermissions",
    allow: [],
    deny: [],
  });
  return performance.now() - start;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sizes: { type: "string" }, "no-readme": { type: "boolean" } } });
  const sizes = (values.sizes ?? "1,5,20,50,200").split(",").map(Number);
  const workspace = await makeTempDir("read-long-line");
  const rows: string[][] = [];
  let baseline: number | undefined;
  for (const size of sizes) {
    const path = join(workspace, `line-${size}.txt`);
    await writeLine(path, size);
    await timeRead(workspace, path); // warm
    const ms = Math.min(await timeRead(workspace, path), await timeRead(workspace, path));
    baseline ??= ms / size;
    rows.push([`${size} MB`, ms.toFixed(0), (ms / size).toFixed(1), (ms / size / baseline).toFixed(2)]);
    await rm(path);
    console.log(rows.at(-1)?.join("  "));
  }
  await rm(workspace, { recursive: true, force: true });
  const table = [
    "Read `offset:1, limit:1` on a file that is one line, best of two after a warm-up. `per MB / first` is the time",
    "per megabyte against the smallest size's, in the same process: about 1 when the read is linear.",
    "",
    renderMarkdownTable(["line", "ms", "ms per MB", "per MB / first"], rows),
  ].join("\n");
  if (!values["no-readme"])
    await writeReadmeSection("read-long-line", table, provenanceOf(import.meta.url, process.argv.slice(2), "slow"));
  console.log(table);
}

await main();
