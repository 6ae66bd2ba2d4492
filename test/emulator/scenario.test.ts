/**
 * The scripted model: scenario files, step order, side requests that consume nothing, function steps,
 * stop_reason overrides, and the default echo and 9-section summary.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type Emulator,
  type EmulatorRequest,
  parseScenario,
  SUMMARY_SECTIONS,
  scenarioJsonSchema,
  startEmulator,
} from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { body, post, READ_TOOL } from "./helpers.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const mainLoop = (text: string) => body({ tools: [READ_TOOL], messages: [{ role: "user", content: text }] });

async function answer(running: Emulator, payload: unknown): Promise<Record<string, unknown>> {
  const { status, json } = await post(running, "/v1/messages", payload);
  expect(status, JSON.stringify(json)).toBe(200);
  return json;
}

describe("scenario files", () => {
  it("parse, run in order, and carry faults", async () => {
    const directory = await makeTempDir("emulator-scenario");
    const file = join(directory, "scenario.json");
    await writeFile(
      file,
      JSON.stringify({
        turns: [
          { content: [{ type: "tool_use", name: "Read", input: { file_path: "a.ts" } }] },
          { content: [{ type: "text", text: "Truncated answ" }], stop_reason: "max_tokens" },
        ],
        faults: [{ onRequest: 1, kind: "overloaded" }],
      }),
    );
    emulator = await startEmulator({ scenarioFile: file });
    expect((await post(emulator, "/v1/messages", mainLoop("go"))).status).toBe(529);
    const first = await answer(emulator, mainLoop("go"));
    expect(first.stop_reason).toBe("tool_use");
    expect(first.content).toEqual([
      { type: "tool_use", id: expect.stringMatching(/^toolu_01/), name: "Read", input: { file_path: "a.ts" } },
    ]);
    const second = await answer(emulator, mainLoop("go on"));
    expect(second).toMatchObject({ stop_reason: "max_tokens", content: [{ type: "text", text: "Truncated answ" }] });
    // Exhausted: the default echo.
    expect((await answer(emulator, mainLoop("anything else"))).content).toEqual([
      { type: "text", text: "Echo: anything else" },
    ]);
  });

  it("reject bad files with the path of the problem", () => {
    expect(() =>
      parseScenario('{"turns":[{"content":[{"type":"tool_use","name":"bad name","input":{}}]}]}', "s.json"),
    ).toThrow(/^s\.json: turns\.0/);
    expect(() => parseScenario("{", "s.json")).toThrow(/not valid JSON/);
    expect(() => parseScenario('{"turns":[],"extra":1}')).toThrow();
    expect(scenarioJsonSchema()).toHaveProperty("properties.turns");
  });
});

describe("scripted model", () => {
  it("side requests (no tools, or a summary instruction) consume no step", async () => {
    emulator = await startEmulator({ scenario: ["step one", "step two"] });
    const title = await answer(emulator, body({ messages: [{ role: "user", content: "Give this chat a title" }] }));
    expect(title.content).toEqual([{ type: "text", text: "Echo: Give this chat a title" }]);
    expect((await answer(emulator, mainLoop("hello"))).content).toEqual([{ type: "text", text: "step one" }]);
    const summary = await answer(
      emulator,
      body({
        tools: [READ_TOOL],
        messages: [
          { role: "user", content: "Fix the login bug" },
          { role: "assistant", content: "On it." },
          { role: "user", content: "Your task is to create a detailed summary of the conversation so far." },
        ],
      }),
    );
    const text = (summary.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text).toMatch(/^<analysis>[\s\S]*<\/analysis>\s*<summary>[\s\S]*<\/summary>$/);
    for (const [index, section] of SUMMARY_SECTIONS.entries()) expect(text).toContain(`${index + 1}. ${section}:`);
    expect(text).toContain("Fix the login bug");
    expect((await answer(emulator, mainLoop("again"))).content).toEqual([{ type: "text", text: "step two" }]);
    expect(emulator.stats().stepsRemaining).toBe(0);
    expect(emulator.requests.map((entry) => entry.source)).toEqual(["side", "scenario", "summary", "scenario"]);
  });

  it("function steps see the request", async () => {
    const seen: EmulatorRequest[] = [];
    emulator = await startEmulator({
      scenario: [
        (request) => {
          seen.push(request);
          return `You said ${request.messages.length} message(s)`;
        },
      ],
    });
    expect((await answer(emulator, mainLoop("hi"))).content).toEqual([{ type: "text", text: "You said 1 message(s)" }]);
    expect(seen[0]?.tools?.[0]?.name).toBe("Read");
  });

  it("streams a scenario turn as SSE with the API's event order", async () => {
    emulator = await startEmulator({
      scenario: [{ content: [{ type: "text", text: "streamed text that is long enough to split" }] }],
    });
    const response = await fetch(`${emulator.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ ...mainLoop("go"), stream: true }),
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = [...(await response.text()).matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(events.slice(0, 3)).toEqual(["message_start", "ping", "content_block_start"]);
    expect(events.filter((event) => event === "content_block_delta").length).toBeGreaterThan(1);
    expect(events.slice(-4)).toEqual(["content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
  });
});
