/**
 * Issue 32's measures, against the emulator over real HTTP on loopback, in one process:
 *
 * - cache diagnostics: the same 6-turn session (the system prompt changes before turn 4) with the capability
 *   declared and not: bytes added per request, and how the break is explained (by the server, or by the
 *   client's own fingerprint only);
 * - threads: the first request after resuming a session whose API view is ~90 MB, sent whole (what threadline
 *   does) and as a thread continuation (only the new message plus `thread`); upload bytes and wall time, median
 *   of the runs, ratio to the whole request.
 *
 *   node --import tsx bench/api-surface.ts [--mb 90] [--runs 3]
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "@threadline/emulator";
import { parseCacheBreakNotice } from "../src/cache/index.js";
import { QueryEngine } from "../src/engine/query-engine.js";
import type { EngineEvent } from "../src/loop/events.js";
import type { ApiMessage } from "../src/messages/index.js";
import { AnthropicProvider } from "../src/provider/index.js";
import { emptyLatches, paramsFromContext, type RequestSettings } from "../src/request/index.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";

const { values } = parseArgs({
  options: { mb: { type: "string", default: "90" }, runs: { type: "string", default: "3" } },
});
const TARGET_MB = Number(values.mb);
const RUNS = Number(values.runs);
const MODEL = "claude-sonnet-4-6";

async function drain(events: AsyncIterable<EngineEvent>): Promise<EngineEvent[]> {
  const all: EngineEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

interface DiagnosticsFigures {
  requests: number;
  bytesPerRequest: number;
  breakCause: string;
}

/** Six text turns; before the fourth the system prompt gains a line (a real cache break). */
async function diagnosticsSession(declared: boolean): Promise<DiagnosticsFigures> {
  const longText = "The build runs with npm test and the linter with npm run lint. ".repeat(200);
  const emulator = await startEmulator({
    scenario: Array.from({ length: 6 }, (_, turn) => `Turn ${turn + 1}: ${longText}`),
  });
  const workspace = await mkdtemp(join(tmpdir(), "bench-api-ws-"));
  const home = await mkdtemp(join(tmpdir(), "bench-api-home-"));
  const provider = new AnthropicProvider({
    baseURL: emulator.url,
    apiKey: "bench-key",
    env: {},
    sleep: async () => {},
    capabilities: { cacheDiagnostics: declared },
  });
  const engine = new QueryEngine({
    cwd: workspace,
    home,
    provider,
    model: MODEL,
    permission: { mode: "bypassPermissions" },
  });
  const causes: string[] = [];
  try {
    for (let turn = 1; turn <= 6; turn++) {
      if (turn === 4) engine.config.systemPrompt = [...engine.config.systemPrompt, "Always answer in French."];
      for (const event of await drain(engine.submitMessage(`Question ${turn}: ${longText}`))) {
        if (event.type !== "notice") continue;
        const parsed = parseCacheBreakNotice(event.message);
        if (parsed) causes.push(parsed.causes[0] ?? "");
      }
    }
    const posts = emulator.requests.filter((entry) => entry.path === "/v1/messages");
    const diagnosticsBytes = posts.reduce((sum, entry) => {
      const diagnostics = (entry.body as Record<string, unknown>).diagnostics;
      return sum + (diagnostics === undefined ? 0 : `,"diagnostics":${JSON.stringify(diagnostics)}`.length);
    }, 0);
    return {
      requests: posts.length,
      bytesPerRequest: Math.round(diagnosticsBytes / Math.max(1, posts.length)),
      breakCause: causes.join("; ") || "(none)",
    };
  } finally {
    await engine.close();
    await emulator.close();
  }
}

/** A conversation whose JSON is about `megabytes` MB: tool calls with 100 KB results. */
function bigConversation(megabytes: number): unknown[] {
  const result = "x".repeat(100_000);
  const messages: unknown[] = [{ role: "user", content: "Read every file." }];
  const pairs = Math.ceil((megabytes * 1_000_000) / (result.length + 200));
  for (let index = 0; index < pairs; index++) {
    const id = `toolu_${String(index).padStart(8, "0")}`;
    messages.push({
      role: "assistant",
      content: [{ type: "tool_use", id, name: "Read", input: { file_path: `f${index}.txt` } }],
    });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result }] });
  }
  messages.push({ role: "assistant", content: "All read." });
  return messages;
}

interface UploadFigures {
  bytes: number;
  medianMs: number;
}

async function upload(url: string, body: string, betas: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/messages`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": "bench-key",
      "anthropic-version": "2023-06-01",
      ...(betas ? { "anthropic-beta": betas } : {}),
    },
    body,
  });
  await response.text();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function threadsMeasure(): Promise<{ whole: UploadFigures; thread: UploadFigures; apiViewMb: number }> {
  // Lenient and without a byte limit: the point is the upload, not the 32 MB rule (which the whole request breaks).
  const emulator = await startEmulator({ lenient: true, maxRequestBytes: 1_000_000_000 });
  try {
    const history = bigConversation(TARGET_MB);
    const next = { role: "user", content: "Now summarise what you read." };
    const whole = JSON.stringify({ model: MODEL, max_tokens: 1024, messages: [...history, next] });
    const thread = JSON.stringify({
      model: MODEL,
      max_tokens: 1024,
      messages: [next],
      thread: { type: "continue", previous_message_id: "msg_01PreviousResponseOfTheSession" },
    });
    const wholeMs: number[] = [];
    const threadMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Alternate, so drift on a loaded machine touches both.
      wholeMs.push(await upload(emulator.url, whole, ""));
      threadMs.push(await upload(emulator.url, thread, "message-threads-2026-08-12"));
    }
    return {
      whole: { bytes: Buffer.byteLength(whole), medianMs: median(wholeMs) },
      thread: { bytes: Buffer.byteLength(thread), medianMs: median(threadMs) },
      apiViewMb: Buffer.byteLength(whole) / 1_000_000,
    };
  } finally {
    await emulator.close();
  }
}

interface LateToolFigures {
  cacheRead: number;
  cacheWrite: number;
  input: number;
}

/**
 * Turn N, then turn N+1 after a tool arrived: the late tool appended to `tools` (what any server gets) or
 * offered in a system message (where tool changes are declared). The emulator's cache ledger bills turn N+1.
 */
async function lateToolTurn(inSystemMessage: boolean): Promise<LateToolFigures> {
  const emulator = await startEmulator({ scenario: ["First answer.", "Second answer."] });
  try {
    const read = { name: "Read", description: "Reads a file.", input_schema: { type: "object", properties: {} } };
    const late = { name: "mcp__docs__search", description: "Searches the docs.", input_schema: { type: "object" } };
    const system = `You are a coding agent. ${"Follow the project's conventions closely. ".repeat(900)}`;
    const settings = (extra: Partial<RequestSettings>): RequestSettings => ({
      model: MODEL,
      systemPrompt: [system],
      tools: [read],
      ...extra,
    });
    const marker = { type: "ephemeral" as const };
    const turnN: ApiMessage[] = [
      { role: "user", content: [{ type: "text", text: "Find the build command.", cache_control: marker }] },
    ];
    const turnN1: ApiMessage[] = [
      { role: "user", content: [{ type: "text", text: "Find the build command." }] },
      { role: "assistant", content: [{ type: "text", text: "First answer." }] },
      { role: "user", content: [{ type: "text", text: "Search the docs too.", cache_control: marker }] },
    ];
    const build = (messages: ApiMessage[], extra: Partial<RequestSettings>) =>
      paramsFromContext({
        settings: settings(extra),
        system: [{ type: "text", text: system, cache_control: marker }],
        messages,
        latches: emptyLatches(),
      }).request;
    const post = async (json: string, betas: readonly string[]) => {
      const response = await fetch(`${emulator.url}/v1/messages`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": "bench-key",
          "anthropic-version": "2023-06-01",
          ...(betas.length > 0 ? { "anthropic-beta": betas.join(",") } : {}),
        },
        body: json,
      });
      const body = (await response.json()) as { usage?: Record<string, number>; error?: { message: string } };
      if (!response.ok) throw new Error(`late-tool bench: ${response.status} ${body.error?.message}`);
      return body.usage ?? {};
    };
    const first = build(turnN, {});
    await post(first.json, first.betas);
    const second = inSystemMessage
      ? build(turnN1, { toolArrivals: [{ beforeMessage: 2, tools: [late] }] })
      : build(turnN1, { tools: [read, late] });
    const usage = await post(second.json, second.betas);
    return {
      cacheRead: usage.cache_read_input_tokens ?? 0,
      cacheWrite: usage.cache_creation_input_tokens ?? 0,
      input: usage.input_tokens ?? 0,
    };
  } finally {
    await emulator.close();
  }
}

const lateInTools = await lateToolTurn(false);
const lateInSystem = await lateToolTurn(true);
console.log("late tool, turn N+1          cache read  cache write  uncached input");
for (const [name, figures] of [
  ["in tools (any server)", lateInTools],
  ["in a system message", lateInSystem],
] as const) {
  console.log(
    `${name.padEnd(28)} ${String(figures.cacheRead).padStart(10)}  ${String(figures.cacheWrite).padStart(11)}  ${String(figures.input).padStart(14)}`,
  );
}

const off = await diagnosticsSession(false);
const on = await diagnosticsSession(true);
console.log("cache diagnostics   requests  bytes/request  first break cause");
console.log(
  `not declared        ${String(off.requests).padStart(8)}  ${String(off.bytesPerRequest).padStart(13)}  ${off.breakCause}`,
);
console.log(
  `declared            ${String(on.requests).padStart(8)}  ${String(on.bytesPerRequest).padStart(13)}  ${on.breakCause}`,
);

const threads = await threadsMeasure();
const ratio = (a: number, b: number) => (b === 0 ? "n/a" : `${Number((a / b).toPrecision(3))}×`);
console.log(`\nresume of a ${threads.apiViewMb.toFixed(1)} MB API view, median of ${RUNS}`);
console.log(`whole request       ${threads.whole.bytes} bytes  ${threads.whole.medianMs.toFixed(1)} ms`);
console.log(
  `thread continuation ${threads.thread.bytes} bytes  ${threads.thread.medianMs.toFixed(1)} ms  (bytes ${ratio(threads.thread.bytes, threads.whole.bytes)}, time ${ratio(threads.thread.medianMs, threads.whole.medianMs)})`,
);

await writeReadmeSection(
  "api-surface",
  [
    "### API surface (issue 32): cache diagnostics, late tools and threads",
    "",
    `\`node --import tsx bench/api-surface.ts --mb ${TARGET_MB} --runs ${RUNS}\`, emulator on loopback, one process.`,
    "",
    "| cache diagnostics | requests | bytes added per request | first break explained as |",
    "| --- | ---: | ---: | --- |",
    `| not declared (every profile's default) | ${off.requests} | ${off.bytesPerRequest} | ${off.breakCause} |`,
    `| declared (\`cacheDiagnostics\`) | ${on.requests} | ${on.bytesPerRequest} | ${on.breakCause} |`,
    "",
    "| a tool arrives between turns N and N+1 (turn N+1 billed by the emulator's ledger) | cache read | cache write | uncached input |",
    "| --- | ---: | ---: | ---: |",
    `| appended to \`tools\` (what any server gets) | ${lateInTools.cacheRead} | ${lateInTools.cacheWrite} | ${lateInTools.input} |`,
    `| in a system message (\`toolArrivals\`, where tool changes are declared) | ${lateInSystem.cacheRead} | ${lateInSystem.cacheWrite} | ${lateInSystem.input} |`,
    "",
    `| first request after resuming a ${threads.apiViewMb.toFixed(1)} MB API view | upload bytes | median ms (${RUNS} runs) | bytes ratio | time ratio |`,
    "| --- | ---: | ---: | ---: | ---: |",
    `| whole request (threadline today) | ${threads.whole.bytes.toLocaleString("en-US")} | ${threads.whole.medianMs.toFixed(1)} | 1× | 1× |`,
    `| thread continuation (\`thread: continue\`) | ${threads.thread.bytes.toLocaleString("en-US")} | ${threads.thread.medianMs.toFixed(1)} | ${ratio(threads.thread.bytes, threads.whole.bytes)} | ${ratio(threads.thread.medianMs, threads.whole.medianMs)} |`,
    "",
    "Threads are not adopted: no server threadline can declare holds thread state (the emulator accepts the field",
    "under its beta but keeps no conversation), and the whole request above is over the API's 32 MB limit anyway,",
    "so a real resume of such a session compacts first. The figures say what a declared thread server would save.",
  ].join("\n"),
  provenanceOf(import.meta.url, process.argv.slice(2), "slow"),
);
