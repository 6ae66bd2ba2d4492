/**
 * What configuring MCP servers costs a session that never calls them: the same 40-step tool-heavy session
 * (each step Reads a different module) with 0, 2 and 5 real MCP servers from npm configured (the official
 * filesystem, memory and everything servers; 5 = those plus a second filesystem and memory server under other
 * names), on the public path (no betas beyond the defaults, no cache editing). Deferred (the default): the tools
 * block carries only ToolSearch; and, for comparison, the 5 servers with every definition in the tools block.
 * Cost is input at cache prices plus output, over every request, against 0 servers from this run.
 *
 *   node --import tsx bench/mcp-session.ts [--steps 40]
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import type { Turn } from "@threadline/emulator";
import { McpManager } from "../src/mcp/client.js";
import { type ConfiguredServer, createToolSearchTool, type DeferredToolLoading } from "../src/mcp/index.js";
import type { AnyTool } from "../src/tools/types.js";
import { collect } from "../support/collect.js";
import { startHarness } from "../support/engine-harness.js";
import { stableRun } from "../support/stable-run.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../support/tool-heavy-session.js";
import { dollars, sessionCost } from "./lib/cost.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";

// A quick section CI re-runs: temp paths, uuids and the session date repeat from run to run (support/stable-run.ts).
stableRun();

const MODEL = "claude-sonnet-4-20250514";
const require = createRequire(import.meta.url);

function serverScript(name: "filesystem" | "memory" | "everything"): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/server-${name}/package.json`)), "dist", "index.js");
}

function stdio(name: string, args: string[]): ConfiguredServer {
  return { name, source: "bench", config: { type: "stdio", command: process.execPath, args, env: {} } };
}

function servers(count: 0 | 2 | 5, workspace: string): ConfiguredServer[] {
  const all = [
    stdio("filesystem", [serverScript("filesystem"), workspace]),
    stdio("memory", [serverScript("memory")]),
    stdio("everything", [serverScript("everything"), "stdio"]),
    stdio("files2", [serverScript("filesystem"), workspace]),
    stdio("memory2", [serverScript("memory")]),
  ];
  return all.slice(0, count);
}

interface Config {
  name: string;
  servers: 0 | 2 | 5;
  deferLoading: boolean;
  /** The session finds one MCP tool with ToolSearch in its first part and calls it. Default false. */
  callsMcp?: boolean;
  loading?: DeferredToolLoading;
  /** The server declares mid-conversation tool changes (with betas): a found tool is offered at once. Default false. */
  toolChanges?: boolean;
}

const CONFIGS: Config[] = [
  { name: "0 servers", servers: 0, deferLoading: true },
  { name: "2 servers", servers: 2, deferLoading: true },
  { name: "5 servers", servers: 5, deferLoading: true },
  { name: "5 servers, all in tools block", servers: 5, deferLoading: false },
  // When a found definition joins the tools block: the two moments, on a session that uses one MCP tool.
  { name: "2 servers, 1 tool used, load at next compaction", servers: 2, deferLoading: true, callsMcp: true },
  {
    name: "2 servers, 1 tool used, load immediately",
    servers: 2,
    deferLoading: true,
    callsMcp: true,
    loading: "immediate",
  },
  // Where tool changes are declared: the found tool is offered in a tool-change message, the tools block untouched.
  {
    name: "2 servers, 1 tool used, tool change (declared)",
    servers: 2,
    deferLoading: true,
    callsMcp: true,
    toolChanges: true,
  },
];

/** The session's user turns: the 40 steps come in this many prompts (so a load "at the next turn" can happen). */
const PARTS = 4;

/** `steps` Reads in `PARTS` prompts, each ending in a text answer; optionally one ToolSearch and MCP call early on. */
function scenario(steps: number, callsMcp: boolean): Turn[] {
  const reads = readEachFileScenario(sourceFileNames(steps)).slice(0, steps);
  const turns: Turn[] = [];
  const perPart = Math.ceil(steps / PARTS);
  reads.forEach((turn, index) => {
    if (callsMcp && index === 2) {
      turns.push({
        content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:mcp__memory__read_graph" } }],
      });
      turns.push({ content: [{ type: "tool_use", name: "mcp__memory__read_graph", input: {} }] });
    }
    turns.push(turn);
    if ((index + 1) % perPart === 0 || index === reads.length - 1)
      turns.push(`Done with part ${Math.ceil((index + 1) / perPart)}.`);
  });
  return turns;
}

interface Figures {
  cost: number;
  requests: number;
  tools: number;
  toolsBlockChars: number;
}

async function runSession(steps: number, config: Config): Promise<Figures> {
  let manager: McpManager | undefined;
  let extra: AnyTool[] = [];
  const harness = await startHarness(
    { scenario: scenario(steps, config.callsMcp === true) },
    {
      model: MODEL,
      sessionMemory: false,
      compaction: { cacheEdits: "off" },
      extraTools: () => extra,
      ...(config.loading !== undefined ? { deferredToolLoading: config.loading } : {}),
    },
    config.toolChanges === true ? { capabilities: { toolChanges: true, betas: true } } : {},
  );
  try {
    await writeSourceFiles(harness.workspace, steps);
    if (config.servers > 0) {
      manager = new McpManager(servers(config.servers, harness.workspace), {
        cwd: harness.workspace,
        deferLoading: config.deferLoading,
      });
      await manager.start();
      const mcpTools = manager.tools();
      const search = createToolSearchTool({ catalog: () => manager?.tools() ?? [], atStart: mcpTools });
      extra = config.deferLoading ? [search, ...mcpTools] : mcpTools;
    }
    const toolsBlockChars = JSON.stringify(harness.engine.requestToolDefinitions()).length;
    for (let part = 1; part <= PARTS; part++) {
      await collect(harness.engine.submitMessage(`Read the modules of part ${part}, one at a time.`));
      await harness.engine.idle();
    }
    const requests = harness.emulator.requests.filter((r) => r.path === "/v1/messages" && r.status === 200);
    const cost = sessionCost(requests);
    return { cost: cost.cost, requests: cost.requests, tools: extra.length, toolsBlockChars };
  } finally {
    await harness.close();
    await manager?.close();
  }
}

const { values } = parseArgs({ options: { steps: { type: "string", default: "40" } } });
const steps = Number(values.steps);
console.log(`${steps}-step session in ${PARTS} prompts (${MODEL}), MCP servers configured, public path`);
console.log("cost = input at cache prices (1× / write 1.25× / read 0.1×) + output 5×, every request");
const rows: string[] = [];
const results = new Map<string, Figures>();
for (const config of CONFIGS) {
  const figures = await runSession(steps, config);
  results.set(config.name, figures);
  const base = results.get("0 servers") as Figures;
  const ratio = figures.cost / base.cost;
  const line = `| ${config.name} | ${figures.tools} | ${figures.toolsBlockChars.toLocaleString("en-US")} | ${Math.round(figures.cost).toLocaleString("en-US")} | ${dollars(figures.cost).toFixed(3)} | ${ratio.toFixed(3)} |`;
  rows.push(line);
  console.log(line);
  reportResult({
    bench: "mcp-session",
    metric: `cost, ${steps} steps, ${config.name}`,
    value: Math.round(figures.cost),
    unit: "input-eq tokens",
    note: `${ratio.toFixed(3)}× 0 servers, ${figures.tools} extra tools, tools block ${figures.toolsBlockChars} chars`,
    ...(config.deferLoading && config.servers > 0 && config.callsMcp !== true ? { target: "≤ 1.03× 0 servers" } : {}),
  });
}
await writeReadmeSection(
  "mcp-session",
  [
    `### MCP servers configured (\`bench/mcp-session.ts\`, ${steps} steps in ${PARTS} prompts, public path)`,
    "",
    "Same session with real MCP servers from npm connected, never called unless the row says so; cost in input-equivalent tokens (cache prices, output 5×) against 0 servers in the same run. The last three rows find one tool with ToolSearch and call it, and differ only in when its definition reaches the request: at the next compaction, at the next turn (tools block rewritten), or at once in a tool-change system message (the last row only: a server that declares tool changes, with betas).",
    "",
    "| config | extra tools (MCP + ToolSearch) | tools block chars (first request) | cost | $ | vs 0 servers |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
  ].join("\n"),
  provenanceOf(import.meta.url, process.argv.slice(2), "quick"),
);
