import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isMessageEntry } from "../../src/messages/index.js";
import { apiView, Timeline } from "../../src/timeline/index.js";
import { claudeCodeProjectDir, importClaudeCodeTranscript, resumeConversation } from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs();
const FIXTURE = fileURLToPath(new URL("../fixtures/claude-code/session-basic.jsonl", import.meta.url));
const SESSION = "7f3c2a10-5b6e-4d8f-9a01-23456789abcd";

describe("Claude Code import", () => {
  it("finds Claude Code's project folder with its slug rule", () => {
    expect(claudeCodeProjectDir("/home/ann/my.proj", "/h")).toBe("/h/.claude/projects/-home-ann-my-proj");
  });

  it("imports messages, splits multi-block assistants, counts metadata and unknown types, reports bad lines", async () => {
    const home = await tempDir();
    const directory = claudeCodeProjectDir("/home/ann/proj", home);
    await mkdir(directory, { recursive: true });
    const path = join(directory, `${SESSION}.jsonl`);
    await copyFile(FIXTURE, path);

    const result = await importClaudeCodeTranscript(path);
    const ids = result.entries.map((entry) => (isMessageEntry(entry) ? entry.uuid : entry.type));
    expect(ids).toEqual([
      "u-1",
      "u-2",
      "a-1",
      "as-1",
      "as-2",
      "as-3",
      "p-1",
      "u-3",
      "as-4.block-0",
      "as-4",
      "sy-1",
      "cb-1",
      "u-4",
      "sc-1",
      "u-5",
      "custom-title",
    ]);
    expect(result.problems.map((problem) => problem.line)).toEqual([9, 23]);
    expect(result.problems[1]!.reason).toMatch(/torn/);
    expect(result.unknownTypes).toEqual({ "brand-new-record": 2 });
    expect(result.counts.metadata).toEqual({
      summary: 1,
      "file-history-snapshot": 1,
      "queue-operation": 1,
      "last-prompt": 1,
    });
    expect(result.counts.remappedSystemSubtypes).toEqual({ turn_duration: 1 });
    expect(result.counts.responses).toBe(2);
    expect(result.counts.imported).toMatchObject({ user: 6, assistant: 4, attachment: 1, progress: 1, system: 2 });

    const byUuid = new Map(result.entries.filter(isMessageEntry).map((entry) => [entry.uuid, entry]));
    expect(byUuid.get("u-2")).toMatchObject({ message: { content: "Why does parser.test.ts fail\u2028sometimes?" } });
    expect(byUuid.get("as-4.block-0")).toMatchObject({ parentUuid: "u-3", message: { id: "msg_01BBB" } });
    expect(byUuid.get("as-4")).toMatchObject({
      parentUuid: "as-4.block-0",
      message: { content: [{ text: "Use fake timers." }] },
    });
    expect(byUuid.get("as-3")).toMatchObject({
      requestId: "req_011",
      message: { usage: { cache_read_input_tokens: 13000 } },
    });
    expect(byUuid.get("u-3")).toMatchObject({ sourceToolAssistantUUID: "as-3", toolUseResult: { type: "text" } });
    expect(byUuid.get("a-1")).toMatchObject({ attachment: { type: "todo", itemCount: 1 } });
    expect(byUuid.get("p-1")).toMatchObject({ toolUseID: "toolu_01R", data: { message: "hook_progress" } });
    expect(byUuid.get("cb-1")).toMatchObject({
      subtype: "compact_boundary",
      logicalParentUuid: "sy-1",
      compactMetadata: { trigger: "manual", preTokens: 15000 },
    });
    expect(byUuid.get("u-4")).toMatchObject({ isCompactSummary: true, isVirtual: true });
    expect(byUuid.get("sc-1")).toMatchObject({ isSidechain: true, agentId: "a1b2" });

    // Resumed, the live branch runs to u-5, and the API sees what follows the compact boundary.
    const resumed = resumeConversation(result.entries);
    expect(resumed.leafUuid).toBe("u-5");
    expect(resumed.dropped).toBe(0);
    const view = apiView(new Timeline(resumed.entries).entries);
    expect(view.map((entry) => entry.uuid)).toEqual(["u-5"]);
  });
});
