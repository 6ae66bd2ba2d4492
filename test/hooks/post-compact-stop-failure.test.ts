/**
 * PostCompact and StopFailure, Claude Code's events (https://code.claude.com/docs/en/hooks): PostCompact runs after
 * a compaction with `trigger` and `compact_summary`; StopFailure runs when a failed API request ends the turn, with
 * `error` (Claude Code's error type, which its matcher is compared with), `error_details` and
 * `last_assistant_message`. The engine runs over real HTTP against the emulator; each hook is a real shell command
 * appending its stdin to a file. Oracles: the files the hooks wrote, the transcript file on disk, literals.
 * Mutations (scripts/mutation-check.mjs): post-compact-not-fired, stop-failure-not-fired,
 * reactive-compaction-skips-after-work.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HooksSettings } from "../../src/settings/index.js";
import { fastProvider, type Harness, startHarness } from "../../support/engine-harness.js";
import { taskSteps, writeDataFiles } from "../engine/compaction-scenario.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function logging(event: "PostCompact" | "StopFailure" | "SessionStart", matcher = ""): HooksSettings {
  return {
    [event]: [
      {
        matcher,
        hooks: [
          {
            command: `cat >> "$CLAUDE_PROJECT_DIR/${event}.log"; echo >> "$CLAUDE_PROJECT_DIR/${event}.log"`,
            source: "test",
          },
        ],
      },
    ],
  };
}

async function inputs(workspace: string, event: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(workspace, `${event}.log`), "utf8").catch(() => "");
  return text
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("PostCompact and StopFailure hooks", () => {
  // Mutation caught: the PostCompact block removed from the compact stage (post-compact-not-fired: no log).
  it("PostCompact runs after /compact with the trigger and the summary recorded in the transcript", async () => {
    harness = await startHarness({ scenario: ["Hello back."] }, { hooks: logging("PostCompact") });
    for await (const _event of harness.engine.submitMessage("hello")) {
      // drain the turn
    }
    await harness.engine.compact();
    const [input] = await inputs(harness.workspace, "PostCompact");
    expect(input).toMatchObject({
      hook_event_name: "PostCompact",
      trigger: "manual",
      session_id: harness.engine.sessionId,
    });
    // The summary the transcript on disk records (a user entry marked isCompactSummary).
    const lines = (await readFile(harness.engine.transcriptPath!, "utf8")).trim().split("\n");
    const summary = lines
      .map((line) => JSON.parse(line) as { isCompactSummary?: boolean; message?: { content?: unknown } })
      .find((entry) => entry.isCompactSummary === true);
    const content = summary?.message?.content;
    const text = Array.isArray(content)
      ? (content as Array<{ text?: string }>).map((block) => block.text ?? "").join("")
      : content;
    expect(typeof text).toBe("string");
    expect((text as string).length).toBeGreaterThan(0);
    expect(input?.compact_summary).toBe(text);
  });

  // Mutation caught: the recover stage handing its reactive compaction to the after-work without saying it
  // compacted (reactive-compaction-skips-after-work: neither hook runs). Before issue 54's one door the reactive
  // path ran neither hook.
  it("a reactive compaction (the server refused the request as too long) runs PostCompact and SessionStart too", async () => {
    // The client believes in 100K (autocompact at ~67K); the server refuses above 30K: the ninth read's request.
    harness = await startHarness(
      { scenario: taskSteps(0, 10, 10), contextWindow: 30_000 },
      {
        compaction: { collapse: false, microcompact: false },
        sessionMemory: false,
        contextWindow: 100_000,
        hooks: { ...logging("PostCompact"), ...logging("SessionStart") },
      },
    );
    await writeDataFiles(harness.workspace, 10, 3_000);
    const reasons: string[] = [];
    for await (const event of harness.engine.submitMessage("Task 0: inspect the data files and report.")) {
      if (event.type === "loop_continue") reasons.push(event.reason);
    }
    expect(reasons).toContain("reactive_compact");
    // The transcript on disk: one compaction, the reactive one, and its summary.
    const lines = (await readFile(harness.engine.transcriptPath!, "utf8")).trim().split("\n");
    const records = lines.map(
      (line) =>
        JSON.parse(line) as {
          subtype?: string;
          compactMetadata?: { trigger?: string };
          isCompactSummary?: boolean;
          message?: { content?: Array<{ text?: string }> };
        },
    );
    const boundaries = records.filter((record) => record.subtype === "compact_boundary");
    expect(boundaries.map((record) => record.compactMetadata?.trigger)).toEqual(["reactive"]);
    const summary = records.find((record) => record.isCompactSummary === true);
    const text = (summary?.message?.content ?? []).map((block) => block.text ?? "").join("");
    expect(text.length).toBeGreaterThan(0);
    const postCompact = await inputs(harness.workspace, "PostCompact");
    expect(postCompact).toHaveLength(1);
    // Claude Code names two triggers: a compaction nobody typed is "auto".
    expect(postCompact[0]).toMatchObject({ hook_event_name: "PostCompact", trigger: "auto", compact_summary: text });
    const sessionStarts = await inputs(harness.workspace, "SessionStart");
    expect(sessionStarts.filter((input) => input.source === "compact")).toHaveLength(1);
  });

  // Mutation caught: the turn's failure type not handed to the loop (stop-failure-not-fired: no log).
  it("StopFailure runs when a failed request ends the turn; its matcher is compared with the error type", async () => {
    const hooks: HooksSettings = { ...logging("StopFailure", "server_error") };
    harness = await startHarness(
      { scenario: ["never sent"], faults: [{ onRequest: 1, kind: "server_error" }], retryAfterSeconds: 0 },
      { hooks },
      (emulator) => fastProvider(emulator.url, { maxRetries: 0 }),
    );
    for await (const _event of harness.engine.submitMessage("hello")) {
      // drain the turn
    }
    const [input] = await inputs(harness.workspace, "StopFailure");
    expect(input).toMatchObject({ hook_event_name: "StopFailure", error: "server_error" });
    expect(String(input?.error_details)).toContain("API error");
    expect(input).toHaveProperty("last_assistant_message");
  });

  it("a StopFailure matcher for another error type does not run; a completed turn runs none", async () => {
    harness = await startHarness({ scenario: ["Fine."] }, { hooks: logging("StopFailure") });
    for await (const _event of harness.engine.submitMessage("hello")) {
      // drain the turn
    }
    expect(await inputs(harness.workspace, "StopFailure")).toEqual([]);
    await harness.close();
    harness = await startHarness(
      { scenario: ["never sent"], faults: [{ onRequest: 1, kind: "server_error" }], retryAfterSeconds: 0 },
      { hooks: logging("StopFailure", "rate_limit") },
      (emulator) => fastProvider(emulator.url, { maxRetries: 0 }),
    );
    for await (const _event of harness.engine.submitMessage("hello")) {
      // drain the turn
    }
    expect(await inputs(harness.workspace, "StopFailure")).toEqual([]);
  });
});
