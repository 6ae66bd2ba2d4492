/**
 * `threadline demo` (`npm run demo`): the whole pipeline offline. A local emulator plays the model from
 * scenarios/demo.json; the session runs on a temporary copy of examples/sample-project (finds and fixes a
 * bug, runs the tests, adds a test, checks the weekly report on one data export and compares it with the
 * previous week's), then a summary: turns, tool calls, tokens, cache hits, what each compaction tier did,
 * where the transcript is. The engine assumes a small context window (DEMO_CONTEXT_WINDOW) so the two
 * exports fill it: microcompact clears old tool results. No network, no key.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ContextBudget } from "../compaction/index.js";
import { QueryEngine } from "../engine/query-engine.js";
import { threadlineHome } from "../home/index.js";
import { AnthropicProvider } from "../provider/index.js";
import { UsageError } from "./args.js";
import { clearingSavings } from "./clearing-savings.js";
import type { CliIo } from "./io.js";
import { loadDiff } from "./modes/render/edit-diff.js";
import { TurnRenderer } from "./modes/render/render.js";
import { formatTierLines, tierActivity } from "./modes/slash/context-report.js";
import { sessionStats } from "./modes/status/session-stats.js";
import { cacheHitRatio, formatCost, formatStatusLine } from "./modes/status/status-line.js";
import { DEFAULT_MARKDOWN_WIDTH, loadMarkdown } from "./terminal/markdown.js";
import { createStyle } from "./terminal/style.js";

/** The prompts the demo types, in order (the scenario answers them). */
export const DEMO_PROMPTS: readonly string[] = [
  "summarize([10, 9, 2]) reports the wrong median. Find the bug, fix it and make sure the tests pass.",
  "Add a test for the median of negative numbers, then run the tests again.",
  "Run the weekly report (src/report.js) on data/readings.csv and double-check its medians independently.",
  "Compare with last week's export, data/readings-previous.csv: check it for gaps first, then tell me which sensor changed most.",
];

/**
 * The context window the demo engine assumes: 21,000 tokens instead of the model's 200,000, so a session
 * that reads two week-long data exports (~4,500 tokens each) makes microcompact clear on the public path
 * (one batch, paid back by the requests after it). Since the thresholds scale with the window (autocompact at
 * 15,435 here, docs/ARCHITECTURE.md), 48,000 left the session far from them: 20 requests, no compaction-notes
 * update; at 21,000: 21 requests, one clear, one compaction-notes update, no compaction needed.
 */
export const DEMO_CONTEXT_WINDOW = 21_000;

/**
 * The model the emulator plays. Any id in the model table works; this one has a 1,024-token cache minimum
 * (so the small demo session is cached), a 200,000-token window and 8,192 output (what the demo's figures
 * were written for) and is not on the SDK's deprecation list (which warns on stderr). Named, not
 * DEFAULT_MODEL: the default became claude-opus-5-5 (4,096-token cache minimum, 128,000 output).
 */
export const DEMO_MODEL = "claude-sonnet-4-6";

/** The API key the demo hands the emulator (any key works there; never a real one). */
const DEMO_API_KEY = "offline-demo";

const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Runs the demo; resolves to the exit code (0 when every turn completed). */
export async function runDemo(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length > 0) throw new UsageError(`demo takes no arguments, got "${argv[0]}"`);
  const style = createStyle(io.stdout.isTTY === true, io.env);
  const { startEmulator } = await import("@threadline/emulator");
  const workdir = await mkdtemp(join(tmpdir(), "threadline-demo-"));
  const project = join(workdir, "sample-project");
  await Promise.all([loadMarkdown(), loadDiff()]);
  // Rendered as the interactive mode renders: markdown, diffs under edits, a command's first lines under
  // Bash, wrapped to the terminal when there is one (a pipe gets unwrapped lines, markdown at 100 columns).
  const stdout = io.stdout as { columns?: number };
  const renderer = new TurnRenderer(io.stdout, {
    style,
    markdown: true,
    ...(stdout.columns !== undefined && stdout.columns > 0
      ? { width: () => stdout.columns || DEFAULT_MARKDOWN_WIDTH }
      : {}),
    details: { cwd: project, changes: new Map() },
  });
  // The public path: the emulator behaves as the public Messages API (no cache editing, which is emulator-only
  // and opt-in), so what the demo clears and saves is what a user of the real API gets.
  const emulator = await startEmulator({
    scenarioFile: join(PACKAGE_ROOT, "scenarios", "demo.json"),
    cacheEditing: false,
  });
  await cp(join(PACKAGE_ROOT, "examples", "sample-project"), project, { recursive: true });
  const engine = new QueryEngine({
    cwd: project,
    provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: DEMO_API_KEY, env: {} }),
    model: DEMO_MODEL,
    contextWindow: DEMO_CONTEXT_WINDOW,
    permission: { mode: "bypassPermissions", allow: [], deny: [] },
    home: threadlineHome(io.env),
    env: io.env,
  });
  const toolCounts = new Map<string, number>();
  let completed = 0;
  try {
    renderer.line(
      style.bold("threadline demo") +
        style.dim(
          " · offline: a local emulator plays the model (scenarios/demo.json) and behaves as the public Messages API (no cache editing)",
        ),
    );
    renderer.line(style.dim(`Working on a copy of examples/sample-project in ${project}`));
    for (const prompt of DEMO_PROMPTS) {
      renderer.line("");
      renderer.line(style.accent(`> ${prompt}`));
      for await (const event of engine.submitMessage(prompt)) {
        renderer.handle(event);
        if (event.type === "tool_start") toolCounts.set(event.block.name, (toolCounts.get(event.block.name) ?? 0) + 1);
        if (event.type === "turn_end" && event.reason === "completed") completed++;
      }
      renderer.line(style.dim(formatStatusLine(sessionStats(engine))));
    }
  } finally {
    await engine.close();
    await emulator.close();
  }
  const testsPass = await sampleTestsPass(project);
  const violations = emulator.requests.reduce((sum, request) => sum + request.violations.length, 0);
  // The same account /cost, the status line and `inspect` read: the recorded entries.
  const stats = sessionStats(engine);
  const totals = stats.totals;
  const tools = [...toolCounts].map(([name, count]) => `${name} ×${count}`).join(", ");
  const cleared = clearingSavings(engine.timeline.entries, engine.model);
  const lines = [
    "",
    style.bold("Demo summary"),
    `  Prompts:          ${stats.turns} (${totals.requests} model requests)`,
    `  Tool calls:       ${stats.toolCalls} (${stats.toolErrors} failed): ${tools}`,
    `  Tokens:           ${totals.inputTokens} uncached input, ${totals.cacheReadInputTokens} cache read, ${totals.cacheCreationInputTokens} cache write, ${totals.outputTokens} output`,
    `  Cache hit ratio:  ${(100 * cacheHitRatio(totals)).toFixed(1)}%`,
    `  Cost at list price: ${formatCost(totals.costUsd)} (nothing was billed)`,
    `  Context window:   ${stats.contextWindow.toLocaleString("en-US")} tokens (demo setting; ${engine.model} has ${new ContextBudget().serverWindow(engine.model).toLocaleString("en-US")})`,
    "  Compaction tiers:",
    ...formatTierLines(tierActivity(engine.timeline.entries), engine.config.compaction).map((line) => `    ${line}`),
    `  Cleared:          ${cleared.toolResults} old tool results in ${cleared.clears} ${cleared.clears === 1 ? "clear" : "clears"} (~${cleared.tokens.toLocaleString("en-US")} tokens); later requests read ~${cleared.readsAvoided.toLocaleString("en-US")} fewer cached tokens (${formatCost(cleared.dollars)}), the ${cleared.clears === 1 ? "clear" : "clears"} rewrote ~${cleared.rewriteTokens.toLocaleString("en-US")}: ${cleared.netDollars >= 0 ? `saved ${formatCost(cleared.netDollars)}` : `cost ${formatCost(-cleared.netDollars)} more than it saved`} at list price`,
    `  Re-reads:         ${emulator.stats().rereads} files the model read again because a cleared result was gone`,
    `  Emulator:         ${emulator.requests.length} HTTP requests, ${violations} contract violations`,
    `  Sample tests:     ${testsPass ? "pass" : "FAIL"} (node test/stats.test.js in the copy)`,
    `  Project copy:     ${project}`,
    `  Transcript:       ${engine.transcriptPath ?? "(in memory)"}`,
    `  Inspect it with:  ${launcher(io.cwd)} inspect ${engine.transcriptPath ?? "<transcript>"}`,
  ];
  for (const line of lines) renderer.line(line);
  return completed === DEMO_PROMPTS.length && testsPass ? 0 : 1;
}

/**
 * How to run this checkout's CLI from `cwd`: `./bin/threadline` in the package root. `threadline` itself is
 * on PATH only after a global install or `npm link`, which `npm ci` does not do.
 */
export function launcher(cwd: string): string {
  const path = relative(cwd, join(PACKAGE_ROOT, "bin", "threadline"));
  return path.startsWith(".") || isAbsolute(path) ? path : `./${path}`;
}

async function sampleTestsPass(project: string): Promise<boolean> {
  try {
    await promisify(execFile)(process.execPath, ["test/stats.test.js"], { cwd: project, timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}
