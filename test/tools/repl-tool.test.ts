import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AssistantEntry,
  isMessageEntry,
  type TimelineEntry,
  type ToolResultBlock,
  type UserEntry,
} from "../../src/messages/index.js";
import { apiView, Timeline, uiView } from "../../src/timeline/index.js";
import { createReplTool, defaultTools, REPL_TOOL_NAME, type ReplToolDisplay, runTool } from "../../src/tools/index.js";
import type { PermissionPolicy } from "../../src/tools/permissions/permissions.js";
import type { ToolSessionAccess } from "../../src/tools/types.js";
import { loadTranscript } from "../../src/transcript/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

let harness: Harness | undefined;
const directories: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const directory of directories.splice(0)) await removeDirectory(directory);
});

const FIVE_CALLS = [
  { tool: "Read", input: { file_path: "greet.ts" } },
  { tool: "Read", input: { file_path: "README.md" } },
  { tool: "Grep", input: { pattern: "Helo", output_mode: "content" } },
  { tool: "Glob", input: { pattern: "*.ts" } },
  { tool: "Bash", input: { command: "echo repl-bash-ran" } },
];

function virtualEntries(entries: readonly TimelineEntry[]): Array<AssistantEntry | UserEntry> {
  return entries.filter(
    (entry): entry is AssistantEntry | UserEntry =>
      (entry.type === "assistant" || entry.type === "user") && entry.isVirtual === true,
  );
}

describe("REPL tool on the emulator", () => {
  it("records five virtual pairs in the timeline and transcript, and sends only the combined result", async () => {
    harness = await startHarness({
      scenario: [{ content: [{ type: "tool_use", name: "REPL", input: { calls: FIVE_CALLS } }] }, "Looked around."],
    });
    const events = await collect(harness.engine.submitMessage("look around"));
    expect(turnEnd(events).reason).toBe("completed");
    const entries = harness.engine.timeline.entries;

    // Five virtual pairs: each tool_use answered by the next entry's tool_result, in script order.
    const virtual = virtualEntries(entries);
    expect(virtual).toHaveLength(10);
    const ids: string[] = [];
    for (let index = 0; index < virtual.length; index += 2) {
      const use = virtual[index] as AssistantEntry;
      const result = virtual[index + 1] as UserEntry;
      const block = use.message.content[0];
      expect(block.type).toBe("tool_use");
      if (block.type !== "tool_use") continue;
      expect(block.name).toBe(FIVE_CALLS[index / 2]!.tool);
      expect(block.input).toEqual(FIVE_CALLS[index / 2]!.input);
      const answer = (result.message.content as ToolResultBlock[])[0]!;
      expect(answer.tool_use_id).toBe(block.id);
      expect(answer.is_error).toBeUndefined();
      expect(result.parentUuid).toBe(use.uuid);
      ids.push(block.id);
    }
    expect(new Set(ids).size).toBe(5);

    // The UI shows them, the API view drops them; the REPL's own pair is in both.
    const ui = uiView(entries).map((entry) => entry.uuid);
    for (const entry of virtual) expect(ui).toContain(entry.uuid);
    const api = apiView(entries);
    expect(api.some((entry) => virtual.some((other) => other.uuid === entry.uuid))).toBe(false);
    const replResult = api.find(
      (entry): entry is UserEntry =>
        entry.type === "user" &&
        Array.isArray(entry.message.content) &&
        entry.message.content[0]?.type === "tool_result",
    );
    const display = replResult?.toolUseResult as ReplToolDisplay;
    expect(display.kind).toBe("repl");
    expect(display.calls.map((call) => call.toolUseId)).toEqual(ids);

    // Byte test: the next request carries the REPL result and none of the virtual ids.
    const bodies = harness.emulator.requests
      .filter((record) => record.path === "/v1/messages" && record.status === 200)
      .map((record) => JSON.stringify(record.body));
    expect(bodies).toHaveLength(2);
    const next = bodies[1]!;
    for (const id of ids) expect(next).not.toContain(id);
    expect(next).not.toContain("toolu_vrt_");
    for (const marker of ["[1/5] Read(greet.ts) ok", "[3/5] Grep(Helo) ok", "[5/5] Bash(echo repl-bash-ran) ok"])
      expect(next).toContain(marker);
    expect(next).toContain("repl-bash-ran");
    expect(next).toContain("A tiny project");
    expect(harness.emulator.stats().violations).toBe(0);

    // The transcript keeps the virtual pairs.
    await harness.engine.close();
    const loaded = await loadTranscript(harness.engine.transcriptPath!);
    expect(loaded.problems).toEqual([]);
    expect(virtualEntries(loaded.entries).map((entry) => entry.uuid)).toEqual(virtual.map((entry) => entry.uuid));
    expect(apiView(loaded.entries)).toEqual(apiView(entries));
  });
});

describe("REPL tool, called directly", () => {
  async function workspace(): Promise<string> {
    const directory = await makeTempDirectory();
    directories.push(directory);
    await writeFile(join(directory, "a.txt"), "alpha\n");
    return directory;
  }

  function sessionOver(timeline: Timeline): ToolSessionAccess {
    return { sessionId: "session-1", entries: () => timeline.entries, append: (entry) => timeline.append(entry) };
  }

  it("checks every primitive against the session's policy and the workspace", async () => {
    const cwd = await workspace();
    const strict: PermissionPolicy = { mode: "default", allow: [], deny: ["Bash(cat:*)"] };
    const repl = createReplTool({ tools: defaultTools(), policy: strict });
    const timeline = new Timeline();
    const output = await runTool(
      repl,
      {
        calls: [
          { tool: "Read", input: { file_path: "a.txt" } },
          { tool: "Bash", input: { command: "touch created.txt" } },
          { tool: "Read", input: { file_path: "/etc/hostname" } },
          { tool: "Bash", input: { command: "cat a.txt" } },
        ],
      },
      makeContext(cwd, { session: sessionOver(timeline) }),
      BYPASS, // the REPL itself is allowed; its calls are judged by `strict`
    );
    const text = outputText(output.content);
    expect(text).toContain("[1/4] Read(a.txt) ok\n     1\talpha");
    expect(text).toMatch(/\[2\/4\] Bash\(touch created\.txt\) error\nPermission denied/);
    expect(text).toMatch(/\[3\/4\] Read\(\/etc\/hostname\) error\n.*Access denied: .* outside the workspace/);
    expect(text).toMatch(/\[4\/4\] Bash\(cat a\.txt\) error\nPermission denied: .*deny rule/);
    const results = virtualEntries(timeline.entries).filter((entry) => entry.type === "user");
    expect(results.map((entry) => (entry.message.content as ToolResultBlock[])[0]!.is_error ?? false)).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(timeline.entries.every((entry) => isMessageEntry(entry) && entry.sessionId === "session-1")).toBe(true);
  });

  it("asks once per primitive that needs it, never for the script as a whole; deny rules on REPL still hold", async () => {
    const cwd = await workspace();
    const asked: string[] = [];
    const asking: PermissionPolicy = {
      mode: "default",
      allow: [],
      deny: [],
      ask: async (request) => {
        asked.push(request.summary);
        return true;
      },
    };
    const repl = createReplTool({ tools: defaultTools(), policy: asking });
    const calls = [
      { tool: "Read", input: { file_path: "a.txt" } },
      { tool: "Bash", input: { command: "touch created.txt" } },
    ];
    // The same policy judges the outer call (as the loop does) and the primitives.
    const output = await runTool(repl, { calls }, makeContext(cwd), asking);
    expect(output.isError ?? false).toBe(false);
    expect(asked).toEqual(["Bash(touch created.txt)"]);
    const denied = await runTool(repl, { calls }, makeContext(cwd), { ...asking, deny: ["REPL"] });
    expect(denied.isError).toBe(true);
    expect(outputText(denied.content)).toContain('deny rule "REPL"');
    expect(asked).toHaveLength(1);
  });

  it("is read-only only when every call is, and refuses tools that are not primitives", async () => {
    const repl = createReplTool({ tools: defaultTools(), policy: BYPASS });
    expect(repl.name).toBe(REPL_TOOL_NAME);
    const readOnly = repl.inputSchema.parse({
      calls: [
        { tool: "Read", input: { file_path: "a" } },
        { tool: "Bash", input: { command: "ls" } },
      ],
    });
    expect(repl.isReadOnly(readOnly)).toBe(true);
    const writes = repl.inputSchema.parse({ calls: [{ tool: "Bash", input: { command: "rm -rf x" } }] });
    expect(repl.isReadOnly(writes)).toBe(false);
    expect(repl.inputSchema.safeParse({ calls: [{ tool: "Write", input: {} }] }).success).toBe(false);
    expect(repl.inputSchema.safeParse({ calls: [] }).success).toBe(false);
    expect(repl.compactable).toBe(true);
  });

  it("stops at an abort and says how far it got", async () => {
    const cwd = await workspace();
    const repl = createReplTool({ tools: defaultTools(), policy: BYPASS });
    const controller = new AbortController();
    const timeline = new Timeline();
    const session = sessionOver(timeline);
    // Abort as soon as the first call's virtual pair is complete.
    const abortingSession: ToolSessionAccess = {
      ...session,
      append(entry) {
        session.append(entry);
        if (entry.type === "user") controller.abort();
      },
    };
    const output = await repl.call(
      repl.inputSchema.parse({
        calls: [
          { tool: "Read", input: { file_path: "a.txt" } },
          { tool: "Read", input: { file_path: "a.txt" } },
          { tool: "Read", input: { file_path: "a.txt" } },
        ],
      }),
      makeContext(cwd, { signal: controller.signal, session: abortingSession }),
    );
    const text = outputText(output.content);
    expect(text).toContain("[1/3] Read(a.txt) ok");
    expect(text).toContain("[stopped after 1 of 3 calls: the REPL was interrupted]");
    expect(virtualEntries(timeline.entries)).toHaveLength(2);
  });
});
