import type { EmulatorRequest, RequestLogEntry } from "@threadline/emulator";
import { validateRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { CLEARED_TOOL_RESULT_PREFIX } from "../../src/compaction/index.js";
import { QueryEngine } from "../../src/engine/query-engine.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const MODEL = "claude-sonnet-4-20250514";
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function lastBody(h: Harness): MessagesRequest {
  const requests = h.emulator.requests.filter((r: RequestLogEntry) => r.path === "/v1/messages" && r.status === 200);
  return requests.at(-1)!.body as MessagesRequest;
}

function unpaired(body: MessagesRequest): string[] {
  const uses = new Set<string>();
  const results = new Set<string>();
  for (const message of body.messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_use") uses.add(block.id);
      if (block.type === "tool_result") results.add(block.tool_use_id);
    }
  }
  return [...uses].filter((id) => !results.has(id)).concat([...results].filter((id) => !uses.has(id)));
}

describe("time-based microcompact with an injected clock", () => {
  it("after 61 idle minutes clears all but the 5 most recent results and stays contract-valid", async () => {
    let now = Date.parse("2026-11-29T10:00:00Z");
    const clock = () => new Date(now);
    harness = await startHarness(
      { scenario: [...readEachFileScenario(sourceFileNames(10)), "Back again."], now: () => now },
      { model: MODEL, now: clock, compaction: { cacheEdits: "off" } },
    );
    await writeSourceFiles(harness.workspace, 10, 4_000);
    expect(turnEnd(await collect(harness.engine.submitMessage("Read the modules."))).reason).toBe("completed");
    now += 61 * 60_000;
    expect(turnEnd(await collect(harness.engine.submitMessage("Anything else?"))).reason).toBe("completed");
    const body = lastBody(harness);
    const json = JSON.stringify(body);
    expect(json.split(CLEARED_TOOL_RESULT_PREFIX).length - 1).toBe(5);
    expect(validateRequest(body)).toEqual([]);
    const boundary = harness.engine.timeline.entries.find(
      (entry) => entry.type === "system" && entry.subtype === "microcompact_boundary",
    );
    expect(boundary).toBeDefined();
  });
});

describe("model-driven snip", () => {
  it("removes the named exchange from the next request, survives resume, leaves no orphans", async () => {
    const snipStep = (request: EmulatorRequest) => {
      const first = JSON.stringify(request.messages[0]);
      const id = /\[id:([0-9a-z]+)\]/.exec(first)?.[1];
      if (!id) throw new Error("no snip id tag on the first user message");
      return { content: [{ type: "tool_use" as const, name: "Snip", input: { ids: [id] } }] };
    };
    harness = await startHarness(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Read", input: { file_path: "README.md" } }] },
          "The readme says hello.",
          snipStep,
          "Snipped the old exchange.",
          "Still here after resume.",
        ],
      },
      { model: MODEL, compaction: { snip: true } },
    );
    await collect(harness.engine.submitMessage("OBSOLETE TASK: read the readme"));
    const events = await collect(harness.engine.submitMessage("Clean up the context please"));
    expect(turnEnd(events).reason).toBe("completed");
    const afterSnip = lastBody(harness);
    expect(JSON.stringify(afterSnip)).not.toContain("OBSOLETE TASK");
    expect(unpaired(afterSnip)).toEqual([]);
    expect(validateRequest(afterSnip)).toEqual([]);

    await harness.engine.close();
    const { engine } = await QueryEngine.resume(harness.engine.transcriptPath!, {
      cwd: harness.workspace,
      model: MODEL,
      provider: fastProvider(harness.emulator.url),
      permission: { mode: "bypassPermissions" },
    });
    expect(turnEnd(await collect(engine.submitMessage("Are you there?"))).reason).toBe("completed");
    await engine.close();
    const resumed = lastBody(harness);
    expect(JSON.stringify(resumed)).not.toContain("OBSOLETE TASK");
    expect(JSON.stringify(resumed)).toContain("Clean up the context please");
    expect(unpaired(resumed)).toEqual([]);
    expect(validateRequest(resumed)).toEqual([]);
  });
});
