/**
 * The summary request is a cache-safe fork (docs/PROMPT-CACHE.md "Forks", issue 52): it sends the last main request's
 * system, tools, model, settings and messages byte for byte (cache markers aside, which the cache key leaves
 * out) and appends only its instruction, so the server reads from the cache everything that request sent. The
 * oracles are the emulator's logged request bodies and its prompt-cache ledger's usage — never the client's
 * estimate. A 40K window whose server counts ×4 the estimate (calibration ratio 4), default settings, public
 * path: one compaction in the pressure session (bench/lib/pressure-session.ts).
 */
import type { RequestLogEntry } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { runPressure, serverCount } from "../../bench/lib/pressure-run.js";

/** A block's or message's JSON without the cache markers (a client moves them; the cache key ignores them). */
function unmarked(value: unknown): string {
  return JSON.stringify(value, (key, inner) => (key === "cache_control" ? undefined : inner));
}

interface Body {
  model: string;
  system?: unknown;
  tools?: unknown;
  thinking?: unknown;
  tool_choice?: unknown;
  messages: unknown[];
}

const isMain = (record: RequestLogEntry): boolean =>
  record.path === "/v1/messages" &&
  record.status === 200 &&
  (record.source === "scenario" || record.source === "reread");

describe("the summary request as a cache-safe fork", () => {
  // Mutation caught: summary-fork-skipped (the conversation cleared before every summary, as before issue 52).
  it("sends the previous main request's prefix byte for byte and reads all of it from the cache", async () => {
    const window = 40_000;
    const ratio = 4;
    const mean = (window * 0.03) / ratio;
    const run = await runPressure({
      window,
      shape: {
        tasks: 7,
        readsPerTask: 4,
        minTokens: Math.round(mean / 4),
        maxTokens: Math.round((mean * 7) / 4),
        factLag: 3,
        filler: "tilde",
      },
      compaction: {},
      tokenRatio: ratio,
    });
    expect(run.finished).toBe(true);
    const requests = run.requests.filter((record) => record.path === "/v1/messages");
    const summaries = requests.flatMap((record, index) => (record.source === "summary" ? [index] : []));
    expect(summaries.length).toBeGreaterThan(0);
    for (const index of summaries) {
      const summary = requests[index]!;
      const previous = requests.slice(0, index).findLast(isMain)!;
      const fork = summary.body as Body;
      const parent = previous.body as Body;
      expect(fork.model).toBe(parent.model);
      for (const field of ["system", "tools", "thinking", "tool_choice"] as const)
        expect(unmarked(fork[field])).toBe(unmarked(parent[field]));
      expect(fork.messages.length).toBeGreaterThan(parent.messages.length);
      for (let message = 0; message < parent.messages.length; message++)
        expect(unmarked(fork.messages[message])).toBe(unmarked(parent.messages[message]));
      // Everything the previous request sent was cached by it (its breakpoint is on its last message): read now.
      expect(summary.usage!.cache_read_input_tokens ?? 0).toBeGreaterThanOrEqual(serverCount(previous));
      expect(summary.usage!.cache_read_input_tokens ?? 0).toBeGreaterThanOrEqual(0.8 * serverCount(summary));
    }
  }, 120_000);
});
