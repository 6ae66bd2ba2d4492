import { utimes } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createUserEntry, textBlock } from "../../src/messages/index.js";
import { SessionManager } from "../../src/sessions/index.js";
import { JsonlTranscriptStore, listSessions, loadSessionFile } from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs();

async function session(
  home: string,
  sessionId: string,
  prompts: Array<{ text: string; meta?: boolean }>,
  mtime: number,
) {
  const store = await JsonlTranscriptStore.open({ sessionId, cwd: "/repo", home });
  let parentUuid: string | null = null;
  prompts.forEach((prompt, index) => {
    const entry = createUserEntry({ sessionId, parentUuid, uuid: `${sessionId}-${index}` }, [textBlock(prompt.text)], {
      isMeta: prompt.meta ?? false,
    });
    store.append(entry);
    parentUuid = entry.uuid;
  });
  await store.close();
  await utimes(store.path, mtime, mtime);
  return store.path;
}

describe("listSessions", () => {
  it("lists newest first with the first typed prompt as preview", async () => {
    const home = await tempDir();
    await session(home, "old", [{ text: "first   session\nprompt" }], 1_000);
    await session(home, "new", [{ text: "<system-reminder>", meta: true }, { text: "x".repeat(200) }], 2_000);
    await session(home, "empty", [], 1_500);
    const sessions = await listSessions("/repo", home);
    expect(sessions.map((entry) => entry.sessionId)).toEqual(["new", "empty", "old"]);
    expect(sessions[2]!.firstPrompt).toBe("first session prompt");
    expect(sessions[0]!.firstPrompt).toHaveLength(80);
    expect(sessions[0]!.firstPrompt.endsWith("…")).toBe(true);
    expect(sessions[1]!.firstPrompt).toBe("");
    expect(sessions[0]!.mtime.getTime()).toBe(2_000_000);
    expect(await listSessions("/elsewhere", home)).toEqual([]);
  });

  it("loadSessionFile loads a session's file; the session manager finds the same file by id", async () => {
    const home = await tempDir();
    const path = await session(home, "abc", [{ text: "hello" }, { text: "again" }], 1_000);
    const byPath = await loadSessionFile(path);
    expect(byPath.path).toBe(path);
    expect(byPath.leafUuid).toBe("abc-1");
    expect(byPath.header.sessionId).toBe("abc");
    expect(byPath.problems).toEqual([]);
    const byId = await new SessionManager({ cwd: "/repo", home, env: {} }).open("abc", false);
    expect(byId.entries).toEqual(byPath.entries);
  });
});
