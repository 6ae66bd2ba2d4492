/**
 * What deferring tools behind ToolSearch saves (issue 41): the tools block of a CLI session's first request with
 * Claude Code's deferred built-ins behind ToolSearch (the CLI's default) against the same tools all loaded, as
 * characters and as the server counts them (the emulator's count_tokens: a real tokenizer, not the estimate), and
 * what the block costs over a session at cache prices — one write (1.25×) and a read (0.1×) per later request.
 *
 *   node --import tsx bench/tools-block.ts [--requests 40] [--no-readme]
 */
import { parseArgs } from "node:util";
import { startEmulator } from "@threadline/emulator";
import { sessionTools } from "../src/engine/session-tools.js";
import { toolDefinitions } from "../src/request/tool-definitions.js";
import { type AnyTool, deferredBuiltinTools } from "../src/tools/index.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";
import { renderMarkdownTable } from "./lib/table.js";

/** The model the recorded table counted with (the emulator counts every model with one tokenizer). */
const COUNTING_MODEL = "claude-sonnet-4-6";

/** The server's count of a request with these tools and a one-word message, less the same request without tools. */
async function toolTokens(url: string, tools: unknown[]): Promise<number> {
  const count = async (body: Record<string, unknown>) => {
    const response = await fetch(`${url}/v1/messages/count_tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "bench", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: COUNTING_MODEL, messages: [{ role: "user", content: "x" }], ...body }),
    });
    return ((await response.json()) as { input_tokens: number }).input_tokens;
  };
  return (await count({ tools })) - (await count({}));
}

function format(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { requests: { type: "string", default: "40" }, "no-readme": { type: "boolean" } },
  });
  const requests = Number(values.requests);
  // The CLI's tools (session-flags.ts: deferredTools on); WebSearch joins only where the server runs web search.
  const all: AnyTool[] = sessionTools({ deferredTools: true }, false, () => all, true);
  const deferredSent = all.filter((tool) => tool.deferLoading !== true);
  const allLoaded = [
    ...all.filter((tool) => tool.deferLoading !== true && tool.name !== "ToolSearch"),
    ...deferredBuiltinTools({ webSearch: true }).map((tool) => ({ ...tool, deferLoading: false })),
  ];
  const emulator = await startEmulator({ scenario: [] });
  const rows: string[][] = [];
  let baseline: number | undefined;
  try {
    for (const [label, tools] of [
      ["deferred behind ToolSearch (the CLI's default)", deferredSent],
      ["all loaded", allLoaded],
    ] as const) {
      const definitions = toolDefinitions(tools);
      const tokens = await toolTokens(emulator.url, definitions);
      const session = tokens * 1.25 + tokens * 0.1 * (requests - 1);
      baseline ??= session;
      reportResult({
        bench: "tools-block",
        metric: `tools block, ${label}`,
        value: tokens,
        unit: "tokens",
        note: `${definitions.length} tools, ${format(session)} over a ${requests}-request session`,
      });
      rows.push([
        label,
        String(definitions.length),
        format(JSON.stringify(definitions).length),
        format(tokens),
        format(session),
        `${(session / baseline).toFixed(2)}×`,
      ]);
    }
  } finally {
    await emulator.close();
  }
  const deferredNames = deferredBuiltinTools({ webSearch: true })
    .map((tool) => tool.name)
    .join(", ");
  const table = [
    `The built-in part of a CLI session's first tools block: ${deferredSent.map((tool) => tool.name).join(", ")} sent, and deferred: ${deferredNames}. ToolSearch loads a deferred tool on request; a session that never asks for one never pays for it. Agent, Skill and REPL (added beside these by the session) and MCP or plugin tools are the same both ways and left out.`,
    `Tokens are the server's count (the emulator's count_tokens, a real tokenizer): the request with the tools less the same request without. Per session: one cache write (1.25×) and ${requests - 1} cache reads (0.1×) of the block, in input-token equivalents.`,
    "",
    renderMarkdownTable(
      ["tools block", "tools", "characters", "tokens", `${requests}-request session`, "÷ deferred"],
      rows,
    ),
  ].join("\n");
  if (!values["no-readme"])
    await writeReadmeSection("tools-block", table, provenanceOf(import.meta.url, process.argv.slice(2), "quick"));
  console.log(table);
}

await main();
