/**
 * Pipeline overhead per turn: the time threadline itself spends before a request leaves — compaction tiers,
 * assembleRequest and the cache fingerprint — on timelines of 100, 1,000 and 10,000 entries (median of N).
 * The context window is raised so no threshold fires: this measures the every-turn path, not a compaction.
 * Each timed turn adds one round (prompt, tool call, result, answer) to the timeline and reuses the session's
 * normalize memo, as a live session does; the first turn of each size (a cold memo, as after a resume) is
 * reported separately.
 *
 *   node --expose-gc --import tsx bench/pipeline-overhead.ts [--runs 21]
 */
import { fingerprintRequest } from "../src/cache/index.js";
import { budgetLimits, compactionSettingsFromEnv, runCompactionTiers } from "../src/compaction/index.js";
import { buildSystemPrompt } from "../src/engine/system-prompt.js";
import {
  createAssistantEntry,
  createToolResultEntry,
  createUserEntry,
  type TimelineEntry,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "../src/messages/index.js";
import { DEFAULT_CAPABILITIES } from "../src/provider/index.js";
import { assembleRequest, emptyLatches, NormalizeMemo, toolDefinitions } from "../src/request/index.js";
import { defaultTools } from "../src/tools/index.js";
import { median, reportResult } from "./lib/result.js";

/** Timeline sizes measured. */
export const TIMELINE_SIZES = [100, 1_000, 10_000];
/** Turns timed per size (the median is reported). */
export const DEFAULT_RUNS = 21;
/** Large enough that no compaction threshold fires at 10,000 entries. */
const BENCH_CONTEXT_WINDOW = 100_000_000;
const SESSION = "bench-pipeline";
const MODEL = "claude-sonnet-4-5-20250929";
const TARGETS: Record<number, string> = { 100: "≤ 1 ms", 1000: "≤ 5 ms", 10000: "≤ 50 ms" };

/** A realistic tool session: user asks, assistant reads a file, result comes back, assistant answers. */
export function buildTimeline(size: number): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let parent: string | null = null;
  let counter = 0;
  const at = () => {
    const uuid = `00000000-0000-4000-8000-${(counter++).toString(16).padStart(12, "0")}`;
    const context = { sessionId: SESSION, parentUuid: parent, uuid, now: new Date(1_700_000_000_000 + counter * 1000) };
    parent = uuid;
    return context;
  };
  while (entries.length < size) {
    const round = counter;
    entries.push(createUserEntry(at(), `Please check module ${round}; the tests fail on the third case.`));
    const call = createAssistantEntry(at(), toolUseBlock(`toolu_${round}`, "Read", { file_path: `src/m${round}.ts` }), {
      messageId: `msg_${round}a`,
      model: MODEL,
      stopReason: "tool_use",
      usage: { input_tokens: 10, output_tokens: 40, cache_read_input_tokens: 5_000, cache_creation_input_tokens: 300 },
    });
    entries.push(call);
    const body = Array.from({ length: 30 }, (_, line) => `${line + 1}\texport const value${line} = ${line};`).join(
      "\n",
    );
    entries.push(createToolResultEntry(at(), [toolResultBlock(`toolu_${round}`, body)], call.uuid));
    entries.push(
      createAssistantEntry(at(), textBlock(`Module ${round} exports thirty constants; the third is fine.`), {
        messageId: `msg_${round}b`,
        model: MODEL,
        stopReason: "end_turn",
        usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 5_300, cache_creation_input_tokens: 0 },
      }),
    );
  }
  return entries.slice(0, size);
}

// A session's tools, their definitions and its system prompt are made once, as the engine does.
const tools = defaultTools();
const settings = compactionSettingsFromEnv({}, {});
const definitions = toolDefinitions(tools);
const systemPrompt = buildSystemPrompt({ cwd: "/bench", date: new Date(0) });

/** Entries one round adds (see `buildTimeline`). */
const ROUND = 4;

/** One turn of the pre-request pipeline: elapsed ms, and the records the tiers asked to append. */
async function timeTurn(
  entries: readonly TimelineEntry[],
  memo: NormalizeMemo,
): Promise<{ ms: number; records: TimelineEntry[] }> {
  const started = performance.now();
  const compaction = await runCompactionTiers({
    entries,
    now: new Date(1_700_000_000_000 + entries.length * 1000 + 5_000),
    settings,
    capabilities: { ...DEFAULT_CAPABILITIES },
    model: MODEL,
    thresholds: budgetLimits(MODEL, { contextWindow: BENCH_CONTEXT_WINDOW }, undefined).thresholds,
    sessionId: SESSION,
    parentUuid: null,
    compactableTools: new Set(tools.filter((tool) => tool.compactable).map((tool) => tool.name)),
    toolNames: tools.map((tool) => tool.name),
  });
  const assembled = assembleRequest({
    messages: compaction.messages,
    settings: {
      model: MODEL,
      systemPrompt,
      tools: definitions,
      cacheTtl: "5m",
      snipTags: compaction.snipTags,
      cacheEditing: compaction.cacheEditing,
      ...(compaction.contextManagement ? { contextManagement: compaction.contextManagement } : {}),
      modelOverrides: { contextWindow: BENCH_CONTEXT_WINDOW },
    },
    latches: emptyLatches(),
    pins: [],
    newCacheEdits: compaction.newCacheEdits,
    memo,
  });
  fingerprintRequest(assembled.request);
  return { ms: performance.now() - started, records: compaction.records };
}

async function main(): Promise<void> {
  const runsIndex = process.argv.indexOf("--runs");
  const runs = runsIndex === -1 ? DEFAULT_RUNS : Number(process.argv[runsIndex + 1]);
  const warmup = 3;
  for (const size of TIMELINE_SIZES) {
    const all = buildTimeline(size + (warmup + runs) * ROUND);
    // JIT warm-up on a throwaway session, so the cold turn below measures a cold memo, not a cold compiler.
    for (let warm = 0; warm < warmup; warm++) await timeTurn(all.slice(0, size), new NormalizeMemo());
    // One growing array, as the engine's timeline is: each turn adds a round and the records of the last pass.
    const live = all.slice(0, size);
    const memo = new NormalizeMemo();
    globalThis.gc?.();
    const first = await timeTurn(live, memo);
    const cold = first.ms;
    live.push(...first.records);
    const samples: number[] = [];
    for (let run = 1; run <= runs; run++) {
      live.push(...all.slice(size + (run - 1) * ROUND, size + run * ROUND));
      globalThis.gc?.();
      const turn = await timeTurn(live, memo);
      samples.push(turn.ms);
      live.push(...turn.records);
    }
    const middle = median(samples);
    const best = Math.min(...samples);
    console.log(
      `${String(size).padStart(6)} entries: median ${middle.toFixed(3)} ms, best ${best.toFixed(3)} ms (${runs} turns); first turn of a session (cold memo) ${cold.toFixed(3)} ms`,
    );
    reportResult({
      bench: "pipeline-overhead",
      metric: `per-turn overhead @ ${size.toLocaleString("en-US")} entries (tiers + assemble + fingerprint)`,
      value: Math.round(middle * 1000) / 1000,
      unit: "ms",
      ...(TARGETS[size] !== undefined ? { target: TARGETS[size] } : {}),
      note: `median of ${runs}; cold memo ${cold.toFixed(1)} ms`,
    });
  }
}

await main();
