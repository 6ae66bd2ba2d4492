/**
 * TodoWrite through the engine on the emulator over HTTP: the list the model set is in the first request after
 * a compaction took its TodoWrite call out of the view (attached again, as memory files are), also in a session
 * resumed from the first one's entries; a failed TodoWrite does not change the list. The schema is compared with
 * Claude Code 2.1.328's sdk-tools.d.ts TodoWriteInput (a literal here).
 */

import type { ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { QueryEngine } from "../../src/engine/query-engine.js";
import type { TimelineEntry } from "../../src/messages/index.js";
import { currentTodos, todoWriteTool } from "../../src/tools/schedule/todo-write-tool.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { isSummaryRequest, messageRecords, taskSteps, writeDataFiles } from "../engine/compaction-scenario.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const TODOS = [
  { content: "Fix the greeting typo", status: "completed", activeForm: "Fixing the greeting typo" },
  { content: "Run the unit tests", status: "in_progress", activeForm: "Running the unit tests" },
  { content: "Write the changelog", status: "pending", activeForm: "Writing the changelog" },
];
const LISTED = "1. [x] Fix the greeting typo\n2. [~] Run the unit tests\n3. [ ] Write the changelog";

function planSteps(): ScenarioStep[] {
  return [
    { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:TodoWrite" } }] },
    { content: [{ type: "tool_use", name: "TodoWrite", input: { todos: TODOS } }] },
    // A TodoWrite the tool refuses (bad status) leaves the list as it was.
    { content: [{ type: "tool_use", name: "TodoWrite", input: { todos: [{ content: "x", status: "done" }] } }] },
    ...taskSteps(0, 6, 6),
  ];
}

describe("TodoWrite", () => {
  // Mutation caught: without reattachTodos the request after the compaction has no task list.
  it("the list is in the first request after a compaction; a resumed session rebuilds it from its entries", async () => {
    const steps: ScenarioStep[] = [...planSteps(), "Summary written.", "Carrying on."];
    harness = await startHarness(
      { scenario: steps },
      { deferredTools: true, compaction: { collapse: false, microcompact: false }, sessionMemory: false },
    );
    await writeDataFiles(harness.workspace, 6, 2_500);
    expect(turnEnd(await collect(harness.engine.submitMessage("plan and work"))).reason).toBe("completed");
    expect(currentTodos(harness.engine.timeline.entries)).toEqual(TODOS);
    await harness.engine.compact();
    expect(turnEnd(await collect(harness.engine.submitMessage("go on"))).reason).toBe("completed");
    const records = messageRecords(harness).filter((record) => !isSummaryRequest(record.body));
    const after = JSON.stringify(records.at(-1)?.body);
    // The TodoWrite call itself was summarised away; the list came back as an attachment, exactly once.
    expect(after).not.toContain("Fixing the greeting typo");
    expect(after.split(JSON.stringify(LISTED).slice(1, -1)).length - 1).toBe(1);

    // Resume: a new engine from the recorded entries rebuilds the list from them.
    const entries = harness.engine.timeline.entries;
    const resumed = new QueryEngine({
      cwd: harness.workspace,
      home: harness.home,
      provider: fastProvider(harness.emulator.url),
      permission: { mode: "bypassPermissions" },
      deferredTools: true,
      compaction: { collapse: false, microcompact: false },
      sessionMemory: false,
      initialEntries: entries,
    });
    try {
      expect(currentTodos(resumed.timeline.entries)).toEqual(TODOS);
    } finally {
      await resumed.close();
    }
  });

  // Mutation caught: counting a TodoWrite whose result was an error (denied, say) replaces the list.
  it("a TodoWrite whose result was an error does not change the list", () => {
    const call = (id: string, todos: unknown) => ({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "tool_use", id, name: "TodoWrite", input: { todos } }] },
    });
    const result = (id: string, isError: boolean) => ({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "x", is_error: isError }] },
    });
    const denied = [{ content: "Delete everything", status: "pending", activeForm: "Deleting everything" }];
    const entries = [call("t1", TODOS), result("t1", false), call("t2", denied), result("t2", true)];
    expect(currentTodos(entries as unknown as TimelineEntry[])).toEqual(TODOS);
  });

  it("has Claude Code 2.1.328's fields (sdk-tools.d.ts TodoWriteInput)", () => {
    const schema = z.toJSONSchema(todoWriteTool.inputSchema) as unknown as {
      properties: { todos: { type: string; items: { properties: Record<string, { type: string; enum?: string[] }> } } };
      required: string[];
    };
    expect(schema.required).toEqual(["todos"]);
    expect(schema.properties.todos.type).toBe("array");
    const item = schema.properties.todos.items.properties;
    expect(Object.keys(item).sort()).toEqual(["activeForm", "content", "status"]);
    expect(item.status?.enum).toEqual(["pending", "in_progress", "completed"]);
  });
});
