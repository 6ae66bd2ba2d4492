/**
 * Executions per step under cut streams (docs/EXACTLY-ONCE.md): a session of N steps, each a Bash call
 * `echo step-K >> log.txt`, through a proxy that cuts the SSE stream of a seeded share of responses (half right
 * after the tool_use block, half after a random early event). The oracle is the log on disk: lines per step.
 *
 *   node --import tsx bench/exactly-once.ts [--steps 30] [--rates 0,10,20] [--no-readme]
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { EmulatorRequest } from "@threadline/emulator";
import { collect } from "../support/collect.js";
import { fastProvider, startHarness } from "../support/engine-harness.js";
import { seededRandom, startSseFaultProxy } from "../support/sse-fault-proxy.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { renderMarkdownTable } from "./lib/table.js";

function stepOf(request: EmulatorRequest): number {
  let results = 0;
  for (const message of request.messages)
    if (message.role === "user" && Array.isArray(message.content))
      results += message.content.filter((block) => block.type === "tool_result").length;
  return results + 1;
}

async function run(steps: number, rate: number): Promise<string[]> {
  const random = seededRandom(1000 + rate);
  const proxy = await startSseFaultProxy(() => {
    if (random() >= rate / 100) return undefined;
    return random() < 0.5 ? { afterToolUseStop: true } : { afterEvent: 1 + Math.floor(random() * 12) };
  });
  const scenario = Array.from({ length: steps * 4 }, () => (request: EmulatorRequest) => {
    const step = stepOf(request);
    if (step > steps) return "All steps done.";
    return {
      content: [
        { type: "text" as const, text: `Step ${step}.` },
        { type: "tool_use" as const, name: "Bash", input: { command: `echo step-${step} >> log.txt` } },
      ],
    };
  });
  const harness = await startHarness({ scenario, seed: 1 }, {}, (emulator) => {
    proxy.target = emulator.url;
    return fastProvider(proxy.url, { maxRetries: 20 });
  });
  try {
    const events = await collect(harness.engine.submitMessage("Run the steps."));
    const end = events.at(-1);
    const lines = (await readFile(join(harness.workspace, "log.txt"), "utf8")).trimEnd().split("\n");
    const distinct = new Set(lines).size;
    const cuts = proxy.log.filter((row) => row.cut).length;
    const reason = end?.type === "turn_end" ? end.reason : "?";
    return [
      `${rate} %`,
      String(steps),
      String(cuts),
      String(lines.length),
      String(distinct),
      (lines.length / steps).toFixed(2),
      reason,
    ];
  } finally {
    await harness.close();
    await proxy.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { steps: { type: "string" }, rates: { type: "string" }, "no-readme": { type: "boolean" } },
  });
  const steps = Number(values.steps ?? 30);
  const rates = (values.rates ?? "0,10,20").split(",").map(Number);
  const rows: string[][] = [];
  for (const rate of rates) {
    rows.push(await run(steps, rate));
    console.log(rows.at(-1)?.join("  "));
  }
  const table = [
    "A session of `echo step-K >> log.txt` Bash calls through a proxy that cuts the SSE stream of that share of",
    "responses (seeded). `executions per step` is lines in the log / steps: 1.00 is exactly once.",
    "",
    renderMarkdownTable(
      ["cuts", "steps", "streams cut", "log lines", "distinct", "executions per step", "turn end"],
      rows,
    ),
  ].join("\n");
  if (!values["no-readme"])
    await writeReadmeSection("exactly-once", table, provenanceOf(import.meta.url, process.argv.slice(2), "slow"));
  console.log(table);
}

await main();
