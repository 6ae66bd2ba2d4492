/**
 * Pauses priced (docs/PROMPT-CACHE.md, "Pauses"): the same 5-prompt session (each prompt reads a ~24K-character
 * file and answers) with a pause of 0, 3, 7, 20 or 70 minutes before every prompt after the first. The emulator's
 * clock and the engine's timers move; no real time passes. Each policy forced — expire (5-minute TTL, no
 * keep-warm), one-hour (1-hour TTL), keep-warm (refresh up to the 60-minute limit) — and the automatic one,
 * with a person at the terminal (interactive) and without (print mode, where keep-warm never runs). Cost is what
 * a bill measures, from the emulator's log: every request, keep-warm refreshes included, input at cache prices
 * plus output at 5×. The ratio is to the cheapest forced policy for that pause, in hindsight.
 *
 * "print, after a session": the same print-mode session run once before at the same pace, its gaps carried in
 * the habits file the CLI keeps (src/cli/pause-habits.ts, a real file here), the person back after the same
 * pause. Only the automatic policy reads the file; the forced ones cost what they cost in the print rows.
 *
 *   node --import tsx bench/pause-policy.ts [--pauses 0,3,7,20,70] [--no-readme]
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type ScenarioStep, startEmulator } from "@threadline/emulator";
import { earlierGaps, loadPauseHabits, savePauseHabits } from "../src/cli/pause-habits.js";
import type { PauseOptions } from "../src/engine/engine-options.js";
import { QueryEngine } from "../src/engine/query-engine.js";
import { collect } from "../support/collect.js";
import { fastProvider } from "../support/engine-harness.js";
import { makeTempDir } from "../support/temp-dir.js";
import { VirtualClock } from "../support/virtual-clock.js";
import { requestCost } from "./lib/cost.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";

const MODEL = "claude-sonnet-4-20250514";
const PROMPTS = 5;
const MINUTE = 60_000;

type Policy = "expire" | "one-hour" | "keep-warm" | "auto";
type Variant = "interactive" | "print" | "print, after a session";

const FORCED: Record<Exclude<Policy, "auto">, Pick<PauseOptions, "cacheTtl" | "keepWarm">> = {
  expire: { cacheTtl: "5m", keepWarm: "off" },
  "one-hour": { cacheTtl: "1h", keepWarm: "off" },
  "keep-warm": { cacheTtl: "5m", keepWarm: "on" },
};

function steps(workspace: string): ScenarioStep[] {
  const out: ScenarioStep[] = [];
  for (let prompt = 0; prompt < PROMPTS; prompt++) {
    out.push({
      content: [
        { type: "text", text: `Reading notes-${prompt}.md.` },
        { type: "tool_use", name: "Read", input: { file_path: join(workspace, `notes-${prompt}.md`) } },
      ],
    });
    out.push(`Notes ${prompt} say the release is on track; nothing else needs doing.`);
  }
  return out;
}

/** One session's cost (input-token equivalents), its keep-warm requests and its habits file afterwards. */
async function run(
  variant: Variant,
  pauseMinutes: number,
  policy: Policy,
  earlierGapsMs: readonly number[] = [],
): Promise<{ cost: number; refreshes: number; habitsPath: string }> {
  const workspace = await makeTempDir("bench-pause");
  for (let prompt = 0; prompt < PROMPTS; prompt++) {
    const lines = Array.from(
      { length: 400 },
      (_, line) => `Note ${prompt}.${line}: the release checklist item ${line} is done.`,
    );
    await writeFile(join(workspace, `notes-${prompt}.md`), `${lines.join("\n")}\n`);
  }
  const clock = new VirtualClock();
  const emulator = await startEmulator({ scenario: steps(workspace), now: clock.now, seed: 1 });
  const engine = new QueryEngine({
    cwd: workspace,
    home: await makeTempDir("bench-pause-home"),
    transcript: false,
    model: MODEL,
    provider: fastProvider(emulator.url, { profile: "anthropic" }),
    permission: { mode: "bypassPermissions" },
    now: clock.date,
    pause: {
      clock,
      personPresent: () => variant === "interactive",
      earlierGapsMs,
      ...(policy === "auto" ? {} : FORCED[policy]),
    },
  });
  const habitsPath = join(workspace, "pause-habits.json");
  try {
    for (let prompt = 0; prompt < PROMPTS; prompt++) {
      if (prompt > 0) await clock.advance(pauseMinutes * MINUTE, () => engine.idle());
      await collect(engine.submitMessage(`What do notes-${prompt}.md say?`));
    }
    const answered = emulator.requests.filter((request) => request.path === "/v1/messages" && request.status === 200);
    const refreshes = answered.filter((request) => (request.body as { max_tokens?: number }).max_tokens === 1).length;
    await savePauseHabits(habitsPath, { gapsMs: [] }, earlierGapsMs, 0, engine.timeline.entries);
    return { cost: answered.reduce((sum, request) => sum + requestCost(request), 0), refreshes, habitsPath };
  } finally {
    await engine.close();
    await emulator.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { pauses: { type: "string", default: "0,3,7,20,70" }, "no-readme": { type: "boolean", default: false } },
  });
  const pauses = values.pauses.split(",").map(Number);
  const rows: string[] = [];
  const worst: Record<Variant, number> = { interactive: 0, print: 0, "print, after a session": 0 };
  for (const variant of ["interactive", "print", "print, after a session"] as const) {
    const policies: Policy[] =
      variant === "interactive" ? ["expire", "one-hour", "keep-warm", "auto"] : ["expire", "one-hour", "auto"];
    for (const pause of pauses) {
      const costs = new Map<Policy, { cost: number; refreshes: number }>();
      for (const policy of policies) {
        if (variant !== "print, after a session" || policy !== "auto") {
          costs.set(policy, await run(variant === "interactive" ? variant : "print", pause, policy));
          continue;
        }
        // The earlier session, then the habits file it left, read back as the CLI reads it at the next start.
        const earlier = await run("print", pause, "auto");
        const habits = await loadPauseHabits(earlier.habitsPath);
        const back = (habits.lastResponseAt ?? 0) + pause * MINUTE;
        costs.set(policy, await run("print", pause, "auto", earlierGaps(habits, back, false)));
      }
      const forced = policies.filter((policy) => policy !== "auto");
      const cheapest = forced.reduce((best, policy) =>
        costs.get(policy)!.cost < costs.get(best)!.cost ? policy : best,
      );
      const auto = costs.get("auto")!;
      const ratio = auto.cost / costs.get(cheapest)!.cost;
      worst[variant] = Math.max(worst[variant], ratio);
      const cell = (policy: Policy) => {
        const figure = costs.get(policy);
        return figure === undefined ? "—" : Math.round(figure.cost).toLocaleString("en-US");
      };
      rows.push(
        `| ${variant} | ${pause} | ${cell("expire")} | ${cell("one-hour")} | ${cell("keep-warm")} | ${cell("auto")} (${auto.refreshes} refreshes) | ${cheapest} | ${ratio.toFixed(3)}× |`,
      );
      console.log(rows.at(-1));
    }
  }
  const table = [
    `5 prompts, each reading a ~24K-character file (model ${MODEL}); a pause before every prompt after the first.`,
    "Cost in input-token equivalents over every request (keep-warm refreshes included), from the emulator's log.",
    "",
    "| mode | pause (min) | expire | one-hour | keep-warm | automatic | cheapest in hindsight | automatic ÷ cheapest |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `Worst automatic ÷ cheapest: interactive ${worst.interactive.toFixed(3)}×, print mode ${worst.print.toFixed(3)}× (first session ever), ${worst["print, after a session"].toFixed(3)}× after a session at the same pace.`,
  ].join("\n");
  // Marked slow until a run shows it reproduces its table (bench/check-fresh.ts would then re-run it in CI).
  if (!values["no-readme"])
    await writeReadmeSection("pause-policy", table, provenanceOf(import.meta.url, process.argv.slice(2), "slow"));
  console.log(table);
}

await main();
