/**
 * Compaction has one entrance (docs/ARCHITECTURE.md "One entrance for compaction"): /compact runs the loop's
 * compact stage on the loop's input. Judged from the emulator's log, never from the client's budget functions:
 * - the same timeline compacted by the loop's autocompact and by /compact sends byte-identical summary requests;
 * - /compact leaves room for the memory files it re-attaches: the first request after it is at most the target
 *   of a 16,000-token window, 4,704 tokens (40 % of the autocompact threshold 11,760 = 16,000 − 3,200 output
 *   reserve − 1,040 buffer), by the server's count;
 * - /compact works to a window the server's own error named earlier in the session: its summary may write at
 *   most that window's output reserve (20 % of 16,000 = 3,200), not the model table's (20,000 at 200,000).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Emulator, type RequestLogEntry, type ScenarioStep, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine, type QueryEngineOptions } from "../../src/engine/query-engine.js";
import type { TimelineEntry } from "../../src/messages/index.js";
import { collect } from "../../support/collect.js";
import { fastProvider, turnEnd } from "../../support/engine-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";

const WINDOW = 16_000;
/** 40 % of the autocompact threshold at 16,000: 11,760 × 0.4. */
const TARGET = 4_704;
/** The output reserve at 16,000: 20 %. */
const RESERVE_AT_16K = 3_200;

/** Ordinary English words tagged with numbers: the server's tokenizer counts them close to the estimate. */
const VOCABULARY = (
  "the parser reads each module before the build starts and keeps a small cache of every symbol it finds " +
  "so that later passes can check names types and imports without opening the same file again while the " +
  "writer stores results under a folder named after the project"
).split(" ");

/** A distinct request of ~900 characters. */
function request(turn: number): string {
  const words = Array.from(
    { length: 120 },
    (_, word) => `${VOCABULARY[(turn * 7 + word * 3) % VOCABULARY.length]}${(turn * 31 + word * 17) % 97}`,
  );
  return `Task ${turn}: note these tagged words for later, ${words.join(" ")}.`;
}

/** A CLAUDE.md of ~900 estimated tokens: what a compaction must leave room for. */
const RULES = Array.from({ length: 90 }, (_, line) => `Project rule ${line}: keep module ${line} small and pure.`).join(
  "\n",
);

const CLOCK = () => new Date("2026-12-02T09:00:00.000Z");

let emulator: Emulator | undefined;
const engines: QueryEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await emulator?.close();
  emulator = undefined;
});

interface Place {
  workspace: string;
  home: string;
}

async function place(): Promise<Place> {
  const workspace = await makeTempDir("ws");
  const home = await makeTempDir("home");
  await writeFile(join(workspace, "CLAUDE.md"), `${RULES}\n`);
  return { workspace, home };
}

function engineFor(at: Place, url: string, options: Partial<QueryEngineOptions> = {}): QueryEngine {
  const engine = new QueryEngine({
    cwd: at.workspace,
    home: at.home,
    env: { PATH: process.env.PATH ?? "", HOME: at.home },
    now: CLOCK,
    provider: fastProvider(url),
    permission: { mode: "bypassPermissions" },
    compaction: { collapse: false, microcompact: false },
    sessionMemory: false,
    transcript: false,
    ...options,
  });
  engines.push(engine);
  return engine;
}

function summaries(log: readonly RequestLogEntry[]): RequestLogEntry[] {
  return log.filter((record) => record.path === "/v1/messages" && record.source === "summary");
}

function inputTokens(record: RequestLogEntry): number {
  const usage = record.usage!;
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

const steps = (count: number): ScenarioStep[] => Array.from({ length: count }, (_, turn) => `Noted for task ${turn}.`);

describe("compaction's one entrance", () => {
  // Mutation caught: /compact handing compactByHand an input without the memory reservation
  // (scripts/mutation-check.mjs "compact-by-hand-own-input"): its summary's max_tokens differs.
  it("the loop's autocompact and /compact send the same summary request for the same timeline", async () => {
    emulator = await startEmulator({ scenario: steps(80), contextWindow: WINDOW });
    const at = await place();
    const auto = engineFor(at, emulator.url, { contextWindow: WINDOW });
    // Turn by turn until the loop compacts; the timeline the compaction saw is the one at the turn's prompt.
    let seen: TimelineEntry[] | undefined;
    for (let turn = 0; turn < 60 && summaries(emulator.requests).length === 0; turn++) {
      const events = [];
      for await (const event of auto.submitMessage(request(turn))) {
        if (event.type === "user") seen = auto.timeline.entries.slice();
        events.push(event);
      }
      expect(turnEnd(events).reason).toBe("completed");
    }
    const [looped] = summaries(emulator.requests);
    expect(looped).toBeDefined();
    const manual = engineFor(at, emulator.url, {
      contextWindow: WINDOW,
      sessionId: auto.sessionId,
      initialEntries: seen!,
    });
    await manual.compact();
    const byHand = summaries(emulator.requests).at(-1)!;
    expect(byHand).not.toBe(looped);
    // The memory file is in what is summarised, and the summary's room is bounded by the target (not the reserve).
    expect(JSON.stringify(looped!.body)).toContain("Project rule 89");
    expect((looped!.body as { max_tokens: number }).max_tokens).toBeLessThan(RESERVE_AT_16K);
    expect(byHand.bodySha256).toBe(looped!.bodySha256);
  }, 180_000);

  // Mutation caught: compactionInput without the memory reservation ("compaction-input-no-memory-reservation"):
  // the tail fills the room the re-attached CLAUDE.md needs and the next request lands over 4,704.
  it("/compact leaves room for the memory files it re-attaches: the next request is within the target", async () => {
    emulator = await startEmulator({ scenario: steps(40), contextWindow: WINDOW });
    const at = await place();
    // Autocompact off: only /compact compacts here.
    const engine = engineFor(at, emulator.url, {
      contextWindow: WINDOW,
      compaction: { collapse: false, microcompact: false, autocompact: false },
    });
    for (let turn = 0; turn < 11; turn++)
      expect(turnEnd(await collect(engine.submitMessage(request(turn)))).reason).toBe("completed");
    expect(summaries(emulator.requests)).toHaveLength(0);
    await engine.compact();
    expect(summaries(emulator.requests)).toHaveLength(1);
    expect(turnEnd(await collect(engine.submitMessage(request(11)))).reason).toBe("completed");
    const after = emulator.requests.filter((record) => record.source === "scenario").at(-1)!;
    expect(JSON.stringify(after.body)).toContain("Project rule 89");
    expect(inputTokens(after)).toBeLessThanOrEqual(TARGET);
    // Between turns the last prompt is answered: a manual /compact does not carry it on as "being worked on"
    // (docs/CONTEXT-BUDGET.md "The task is never dropped"). Mutation caught: `manual-compact-keeps-old-prompt`.
    expect(JSON.stringify(after.body)).not.toContain("The request being worked on");
  }, 180_000);

  // Mutation caught: the learned window dropped from the one place the window is worked out
  // ("compact-learned-window-ignored"): /compact's summary may write the model table's 20,000-token reserve.
  it("/compact works to the window a server's error named earlier in the session", async () => {
    // The client believes the model table (200,000); the server holds 16,000 and says so when it rejects.
    emulator = await startEmulator({ scenario: steps(80), contextWindow: WINDOW });
    const at = await place();
    const engine = engineFor(at, emulator.url);
    let rejected = false;
    for (let turn = 0; turn < 40 && !rejected; turn++) {
      await collect(engine.submitMessage(`${request(turn)}\n${request(turn + 100)}`));
      rejected = emulator.requests.some((record) => record.status === 400);
    }
    expect(rejected).toBe(true);
    const before = summaries(emulator.requests).length;
    await engine.compact();
    const byHand = summaries(emulator.requests);
    expect(byHand).toHaveLength(before + 1);
    expect((byHand.at(-1)!.body as { max_tokens: number }).max_tokens).toBeLessThanOrEqual(RESERVE_AT_16K);
    expect(turnEnd(await collect(engine.submitMessage("one more thing"))).reason).toBe("completed");
    const after = emulator.requests.filter((record) => record.source === "scenario").at(-1)!;
    expect(inputTokens(after)).toBeLessThanOrEqual(TARGET);
  }, 180_000);
});
