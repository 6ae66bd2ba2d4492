/**
 * The scripted model that reacts: a step's `needs` are checked against the effective request (cache_edits
 * deletions and context_management clears applied); a fact it cannot see makes it re-read the file first,
 * at most DEFAULT_MAX_REREADS times, after which the fact counts as lost and the step is served.
 */

import { DEFAULT_MAX_REREADS, type Emulator, isNeedVisible, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { body, post, READ_TOOL } from "./helpers.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const FACT = { text: "const limit = 42;\nexport default limit;", file: "config.ts" };
const EDIT_TOOL = { ...READ_TOOL, name: "Edit" };
const editStep = {
  content: [{ type: "tool_use" as const, name: "Edit", input: { file_path: "config.ts", old_string: FACT.text } }],
  needs: [FACT],
};

/** A conversation in which config.ts was read (tool id `toolu_read`) and then something else happened. */
function conversation(readContent: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return body({
    tools: [READ_TOOL, EDIT_TOOL],
    messages: [
      { role: "user", content: "Raise the limit." },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "toolu_read", name: "Read", input: { file_path: "config.ts" } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_read", content: readContent, ...extra }] },
    ],
  });
}

const NUMBERED = "     1\tconst limit = 42;\n     2\texport default limit;";

describe("needs", () => {
  it("a fact is visible line by line, through cat -n numbering", () => {
    expect(isNeedVisible(FACT, NUMBERED)).toBe(true);
    expect(isNeedVisible(FACT, "     1\tconst limit = 42;")).toBe(false);
  });

  it("a visible need serves the step at once", async () => {
    emulator = await startEmulator({ scenario: [editStep] });
    const { json } = await post(emulator, "/v1/messages", conversation(NUMBERED));
    expect(json.content).toMatchObject([{ type: "tool_use", name: "Edit" }]);
    expect(emulator.stats()).toMatchObject({ rereads: 0, factsLost: 0, stepsRemaining: 0 });
  });

  it("a fact cleared by the client's placeholder is re-read first, then the step is served", async () => {
    emulator = await startEmulator({ scenario: [editStep] });
    const first = await post(emulator, "/v1/messages", conversation("[Old tool result content cleared]"));
    expect(first.json.content).toMatchObject([
      { type: "text" },
      { type: "tool_use", name: "Read", input: { file_path: "config.ts" } },
    ]);
    expect(emulator.stats()).toMatchObject({ rereads: 1, stepsRemaining: 1 });
    expect(emulator.requests.at(-1)).toMatchObject({ source: "reread", step: 0, rereadFiles: ["config.ts"] });
    const reread = conversation("[Old tool result content cleared]");
    const messages = reread.messages as unknown[];
    messages.push(
      { role: "assistant", content: first.json.content },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: (first.json.content as Array<{ id?: string }>)[1]!.id,
            content: NUMBERED,
          },
        ],
      },
    );
    const second = await post(emulator, "/v1/messages", reread);
    expect(second.json.content).toMatchObject([{ type: "tool_use", name: "Edit" }]);
    expect(emulator.stats()).toMatchObject({ rereads: 1, factsLost: 0, stepsRemaining: 0 });
  });

  it("a tool result deleted by cache_edits is not visible", async () => {
    // cache_edits and cache_reference are accepted only by an emulator started with cache editing.
    emulator = await startEmulator({ scenario: [editStep], cacheEditing: true });
    const request = conversation(NUMBERED, { cache_reference: "toolu_read" });
    (request.messages as Array<{ content: unknown[] }>)[2]!.content.push({
      type: "cache_edits",
      edits: [{ type: "delete", cache_reference: "toolu_read" }],
    });
    const { status, json } = await post(emulator, "/v1/messages", request);
    expect(status, JSON.stringify(json)).toBe(200);
    expect(json.content).toMatchObject([{ type: "text" }, { type: "tool_use", name: "Read" }]);
  });

  it("after DEFAULT_MAX_REREADS re-reads that did not help, the fact is lost and the step is served", async () => {
    emulator = await startEmulator({ scenario: [editStep] });
    const payload = conversation("(nothing useful)");
    for (let attempt = 0; attempt < DEFAULT_MAX_REREADS; attempt++) {
      const { json } = await post(emulator, "/v1/messages", payload);
      expect(json.content).toMatchObject([{ type: "text" }, { type: "tool_use", name: "Read" }]);
    }
    const { json } = await post(emulator, "/v1/messages", payload);
    expect(json.content).toMatchObject([{ type: "tool_use", name: "Edit" }]);
    expect(emulator.stats()).toMatchObject({ rereads: DEFAULT_MAX_REREADS, factsLost: 1 });
    expect(emulator.requests.at(-1)?.lostFacts).toEqual([FACT]);
  });
});
