/**
 * A deferred tool ToolSearch finds, where the server declares mid-conversation tool changes: offered at once in
 * a tool-change system message (no wait for a compaction), the tools block and every earlier byte unchanged,
 * callable in the same turn, and a resume sends the same bytes. Where not declared, nothing of the kind is sent.
 * Through the engine, on the emulator over HTTP (it accepts the blocks only under their betas).
 *
 * Mutations this catches (each applied once while writing it):
 * - recording the arrival one message later (`messagesSent + 1`, so it first lands at the end and then moves)
 *   fails "the tools block and the prefix stay turn N's bytes";
 * - the transcript schema refusing the record (`beforeMessage: z.string()`, a resume that loses it) fails
 *   "a resume sends the same bytes";
 * - offering the arrival whatever the capability says (`offersToolChanges` returning true) fails
 *   "not declared, nothing sent".
 */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { type Emulator, type ScenarioStep, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { createToolSearchTool } from "../../src/mcp/index.js";
import type { AnyTool, Tool } from "../../src/tools/types.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";

const ECHO_SCHEMA = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

function echoTool(): Tool<{ text: string }> {
  return {
    name: "mcp__docs__echo",
    description: "Echoes the text back.",
    inputSchema: z.object({ text: z.string() }),
    inputJsonSchema: ECHO_SCHEMA,
    deferLoading: true,
    isReadOnly: () => true,
    compactable: true,
    call: async (input) => ({ content: `echo: ${input.text}` }),
  };
}

function sessionTools(): AnyTool[] {
  const echo = echoTool() as AnyTool;
  const search = createToolSearchTool({ catalog: () => [echo], atStart: [echo] }) as AnyTool;
  return [search, echo];
}

const FIRST_TURN: ScenarioStep[] = [
  { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:mcp__docs__echo" } }] },
  { content: [{ type: "tool_use", name: "mcp__docs__echo", input: { text: "same turn" } }] },
  "done",
];
// A server that declares tool changes takes beta headers (the loopback default profile, `compatible`, takes none).
const DECLARED = { capabilities: { toolChanges: true, betas: true } };

interface Body {
  system?: unknown;
  tools?: unknown;
  messages: Array<{ role: string; content: unknown }>;
}

function posts(emulator: Emulator) {
  return emulator.requests.filter((entry) => entry.path === "/v1/messages");
}

/** The body without cache markers (they move to the newest message each request, by design). */
function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarked);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "cache_control")
      .map(([key, inner]) => [key, unmarked(inner)]),
  );
}

let harness: Harness | undefined;
const extra: Emulator[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const emulator of extra.splice(0)) await emulator.close();
});

describe("a found tool, where the server declares tool changes", () => {
  it("is offered at once; the tools block and the prefix stay turn N's bytes; it runs in the same turn", async () => {
    harness = await startHarness({ scenario: [...FIRST_TURN, "second turn"] }, { extraTools: sessionTools }, DECLARED);
    expect(turnEnd(await collect(harness.engine.submitMessage("use the docs server"))).reason).toBe("completed");
    expect(turnEnd(await collect(harness.engine.submitMessage("and again"))).reason).toBe("completed");
    const sent = posts(harness.emulator);
    expect(sent.map((entry) => entry.status)).toEqual([200, 200, 200, 200]);
    const bodies = sent.map((entry) => unmarked(entry.body) as Body);
    // Oracle: literals. The tools block never names the echo tool, on any request.
    for (const body of bodies) expect(JSON.stringify(body.tools)).not.toContain("mcp__docs__echo");
    expect(new Set(bodies.map((body) => JSON.stringify([body.system, body.tools]))).size).toBe(1);
    // The request right after the search: the tool-change message right after the search's result.
    expect(bodies[1]!.messages.at(-1)).toEqual({
      role: "system",
      content: [
        {
          type: "tool_addition",
          tool: {
            type: "tool_definition",
            definition: { name: "mcp__docs__echo", description: "Echoes the text back.", input_schema: ECHO_SCHEMA },
          },
        },
      ],
    });
    expect(sent[1]!.headers["anthropic-beta"]).toContain("mid-conversation-tool-changes-2026-07-01");
    expect(sent[1]!.headers["anthropic-beta"]).toContain("inline-tools-2026-09-15");
    // Each request's messages start with the previous request's messages, byte for byte (markers aside).
    for (let index = 1; index < bodies.length; index++) {
      const before = bodies[index - 1]!.messages;
      expect(JSON.stringify(bodies[index]!.messages.slice(0, before.length))).toBe(JSON.stringify(before));
    }
    // Only one tool-change message, ever; the echo ran in the turn it was found.
    expect(bodies[3]!.messages.filter((message) => message.role === "system")).toHaveLength(1);
    expect(JSON.stringify(bodies[2]!.messages.at(-1))).toContain("echo: same turn");
    expect(harness.engine.timeline.entries.filter((entry) => entry.type === "tool-arrival")).toHaveLength(1);
  });

  it("a resume sends the same bytes as the session that kept going", async () => {
    harness = await startHarness({ scenario: [...FIRST_TURN, "second turn"] }, { extraTools: sessionTools }, DECLARED);
    await collect(harness.engine.submitMessage("use the docs server"));
    const path = harness.engine.transcriptPath;
    if (path === undefined) throw new Error("the harness engine keeps no transcript on disk");
    const copy = join(await makeTempDir("resume"), "session.jsonl");
    await copyFile(path, copy);
    await collect(harness.engine.submitMessage("and again"));
    const other = await startEmulator({ scenario: ["second turn"] });
    extra.push(other);
    const { engine, problems } = await QueryEngine.resume(copy, {
      cwd: harness.workspace,
      home: harness.home,
      provider: fastProvider(other.url, DECLARED),
      permission: { mode: "bypassPermissions" },
      extraTools: sessionTools,
    });
    try {
      expect(problems).toEqual([]);
      await collect(engine.submitMessage("and again"));
    } finally {
      await engine.close();
    }
    const kept = posts(harness.emulator).at(-1)!;
    const resumed = posts(other).at(-1)!;
    expect(resumed.status).toBe(200);
    // Oracle: the emulator's hash of the exact bytes of each body.
    expect(resumed.bodySha256).toBe(kept.bodySha256);
    expect(JSON.stringify(resumed.body)).toContain('"tool_addition"');
  });
});

describe("not declared (every profile's default)", () => {
  it("nothing is sent: no tool-change message, no betas for it, the tool still runs from the search result", async () => {
    harness = await startHarness({ scenario: FIRST_TURN }, { extraTools: sessionTools });
    expect(turnEnd(await collect(harness.engine.submitMessage("use the docs server"))).reason).toBe("completed");
    const sent = posts(harness.emulator);
    expect(sent).toHaveLength(3);
    for (const entry of sent) {
      expect(JSON.stringify(entry.body)).not.toContain("tool_addition");
      expect(entry.headers["anthropic-beta"] ?? "").not.toContain("tool-changes");
      expect((entry.body as Body).messages.every((message) => message.role !== "system")).toBe(true);
    }
    expect(JSON.stringify((sent[2]!.body as Body).messages.at(-1))).toContain("echo: same turn");
    expect(harness.engine.timeline.entries.some((entry) => entry.type === "tool-arrival")).toBe(false);
  });
});
