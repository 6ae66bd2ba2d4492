import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { validateRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { apiView } from "../../src/timeline/index.js";
import { defaultTools } from "../../src/tools/index.js";
import { loadTranscript } from "../../src/transcript/index.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, sleepyTool, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function sentBodies(h: Harness): MessagesRequest[] {
  return h.emulator.requests
    .filter((r) => r.path === "/v1/messages" && r.status === 200)
    .map((r) => r.body as MessagesRequest);
}

describe("QueryEngine against the emulator", () => {
  it("does not make the next prompt wait for the previous turn's background hooks; hooks see a copy", async () => {
    harness = await startHarness({ scenario: ["First answer.", "Second answer."] });
    const engine = harness.engine;
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: number[] = [];
    let finished = false;
    engine.addBackgroundHook(async ({ entries }) => {
      await blocked;
      seen.push(entries.length);
      finished = true;
    });
    expect(turnEnd(await collect(engine.submitMessage("one"))).reason).toBe("completed");
    const lengthAfterFirst = engine.timeline.entries.length;
    // The hook is still blocked; the second turn runs to the end anyway.
    expect(turnEnd(await collect(engine.submitMessage("two"))).reason).toBe("completed");
    expect(finished).toBe(false);
    release();
    await engine.idle();
    // The first run saw the timeline as it stood when it began, not the second turn's entries.
    expect(seen[0]).toBe(lengthAfterFirst);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(engine.timeline.entries.length);
  });

  it("completes a multi-step tool session on a real workspace", async () => {
    harness = await startHarness({
      scenario: [
        {
          content: [
            { type: "text", text: "Let me look." },
            { type: "tool_use", name: "Read", input: { file_path: "greet.ts" } },
            { type: "tool_use", name: "Grep", input: { pattern: "Helo", output_mode: "content" } },
          ],
        },
        {
          content: [
            {
              type: "tool_use",
              name: "Edit",
              input: { file_path: "greet.ts", old_string: "Helo", new_string: "Hello" },
            },
          ],
        },
        { content: [{ type: "tool_use", name: "Bash", input: { command: "cat greet.ts" } }] },
        "Fixed the typo.",
      ],
    });
    const events = await collect(harness.engine.submitMessage("Fix the greeting typo"));
    const end = turnEnd(events);
    expect(end.reason).toBe("completed");
    expect(end.iterations).toBe(4);
    expect(end.lastText).toBe("Fixed the typo.");
    expect(await readFile(join(harness.workspace, "greet.ts"), "utf8")).toContain('"Hello, "');
    // The turn is bracketed: turn_start first (before any request), turn_end last; each tool_start has its tool_end.
    const kinds = events.map((event) => event.type);
    expect(kinds.indexOf("turn_start")).toBeLessThan(kinds.indexOf("request_start"));
    expect(kinds.filter((kind) => kind === "turn_start")).toHaveLength(1);
    expect(kinds.at(-1)).toBe("turn_end");
    expect(kinds.filter((kind) => kind === "tool_start")).toHaveLength(4);
    const results = events.filter((event) => event.type === "tool_end");
    expect(results.map((event) => event.type === "tool_end" && event.block.name)).toEqual([
      "Read",
      "Grep",
      "Edit",
      "Bash",
    ]);
    expect(results.every((event) => event.type === "tool_end" && !event.isError)).toBe(true);
    // The last request carries the whole exchange, and every request the emulator saw was valid.
    expect(harness.emulator.stats().violations).toBe(0);
    const last = sentBodies(harness).at(-1)!;
    expect(last.messages).toHaveLength(7);
    // The transcript on disk resumes to the same API view.
    await harness.engine.close();
    const loaded = await loadTranscript(harness.engine.transcriptPath!);
    expect(loaded.problems).toEqual([]);
    expect(apiView(loaded.entries)).toEqual(apiView(harness.engine.timeline.entries));
  });

  it("runs consecutive read-only tools concurrently and returns results in block order", async () => {
    const log: Array<{ id: string; start: number; end: number }> = [];
    harness = await startHarness(
      {
        scenario: [
          {
            content: [
              { type: "tool_use", name: "Sleepy", input: { id: "a" } },
              { type: "tool_use", name: "Sleepy", input: { id: "b" } },
              { type: "tool_use", name: "Sleepy", input: { id: "c" } },
            ],
          },
          "done",
        ],
      },
      { tools: [...defaultTools(), sleepyTool(log, 200)] },
    );
    const events = await collect(harness.engine.submitMessage("sleep three times"));
    expect(turnEnd(events).reason).toBe("completed");
    const [a, b, c] = ["a", "b", "c"].map((id) => log.find((entry) => entry.id === id)!);
    // observed overlap: b and c started before a finished
    expect(b!.start).toBeLessThan(a!.end);
    expect(c!.start).toBeLessThan(a!.end);
    const order = events.flatMap((event) => (event.type === "tool_end" ? [event.block.input] : []));
    expect(order).toEqual([{ id: "a" }, { id: "b" }, { id: "c" }]);
  });

  it.each([["rate_limit"], ["overloaded"], ["server_error"], ["connection_cut"], ["stream_error"]] as const)(
    "survives a %s fault with no duplicate or orphan entries",
    async (kind) => {
      harness = await startHarness({
        scenario: [
          {
            content: [
              { type: "text", text: "Reading." },
              { type: "tool_use", name: "Read", input: { file_path: "README.md" } },
            ],
          },
          "All read.",
        ],
        faults: [{ onRequest: 2, kind }],
        retryAfterSeconds: 0,
      });
      const events = await collect(harness.engine.submitMessage("read the readme"));
      expect(turnEnd(events).reason).toBe("completed");
      const view = apiView(harness.engine.timeline.entries);
      const uuids = view.map((entry) => entry.uuid);
      expect(new Set(uuids).size).toBe(uuids.length);
      const texts = view.flatMap((entry) =>
        entry.type === "assistant" && entry.message.content[0].type === "text" ? [entry.message.content[0].text] : [],
      );
      expect(texts).toEqual(["Reading.", "All read."]);
      const last = sentBodies(harness).at(-1)!;
      expect(validateRequest(last)).toEqual([]);
    },
  );

  it("escalates max_tokens once, then continues with a meta message", async () => {
    harness = await startHarness({
      scenario: [
        { content: [{ type: "text", text: "Part one" }], stop_reason: "max_tokens" },
        { content: [{ type: "text", text: "Part one, longer" }], stop_reason: "max_tokens" },
        "and the end.",
      ],
    });
    const events = await collect(harness.engine.submitMessage("write a lot"));
    const reasons = events.flatMap((event) => (event.type === "loop_continue" ? [event.reason] : []));
    expect(reasons).toEqual(["max_tokens_escalation", "max_tokens_continuation"]);
    expect(turnEnd(events).reason).toBe("completed");
    const bodies = sentBodies(harness);
    expect(bodies[0]!.max_tokens).toBe(8_192);
    expect(bodies[1]!.max_tokens).toBe(64_000);
    // the truncated first answer was superseded, so the second request does not contain it
    expect(JSON.stringify(bodies[1]!.messages)).not.toContain("Part one");
    expect(JSON.stringify(bodies[2]!.messages)).toContain("Resume directly");
  });

  it("an abort during a tool run leaves a transcript that resumes into a valid request", async () => {
    harness = await startHarness({
      scenario: [{ content: [{ type: "tool_use", name: "Bash", input: { command: "sleep 20" } }] }, "after resume"],
    });
    const controller = new AbortController();
    const events: string[] = [];
    for await (const event of harness.engine.submitMessage("run something slow", { signal: controller.signal })) {
      events.push(event.type);
      if (event.type === "tool_start") setTimeout(() => controller.abort(), 100);
    }
    expect(events.at(-1)).toBe("turn_end");
    await harness.engine.close();
    const { engine, problems } = await QueryEngine.resume(harness.engine.transcriptPath!, {
      cwd: harness.workspace,
      provider: fastProvider(harness.emulator.url),
      permission: { mode: "bypassPermissions" },
    });
    expect(problems).toEqual([]);
    const resumed = await collect(engine.submitMessage("continue"));
    expect(turnEnd(resumed).reason).toBe("completed");
    await engine.close();
    const last = sentBodies(harness).at(-1)!;
    expect(validateRequest(last)).toEqual([]);
    expect(JSON.stringify(last.messages)).toContain("run something slow");
    expect(JSON.stringify(last.messages)).toContain("Interrupted");
  });
});
