import { spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { threadlineHome } from "../../src/home/index.js";
import { createUserEntry, type TimelineEntry } from "../../src/messages/index.js";
import {
  cwdSlug,
  JsonlTranscriptStore,
  loadTranscript,
  MemoryTranscriptStore,
  transcriptPath,
} from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs();

function chain(count: number, prefix = "e"): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  let parentUuid: string | null = null;
  for (let index = 0; index < count; index++) {
    const entry = createUserEntry({ sessionId: "s", parentUuid, uuid: `${prefix}-${index}` }, `message ${index}`);
    entries.push(entry);
    parentUuid = entry.uuid;
  }
  return entries;
}

describe("paths", () => {
  it("slugs the cwd like Claude Code and honours THREADLINE_HOME", () => {
    expect(cwdSlug("/home/ann/my.project_x")).toBe("-home-ann-my-project-x");
    expect(threadlineHome({ THREADLINE_HOME: "/custom" })).toBe("/custom");
    expect(threadlineHome({})).toMatch(/\.threadline$/);
    expect(transcriptPath("abc", "/a/b", "/h")).toBe("/h/projects/-a-b/abc.jsonl");
  });
});

describe("JsonlTranscriptStore", () => {
  it("creates folders and a versioned header under the home", async () => {
    const home = await tempDir();
    const store = await JsonlTranscriptStore.open({ sessionId: "sess", cwd: "/repo/app", home, now: new Date(0) });
    expect(store.path).toBe(join(home, "projects", "-repo-app", "sess.jsonl"));
    await store.close();
    const text = await readFile(store.path, "utf8");
    expect(JSON.parse(text.split("\n")[0]!)).toEqual({
      type: "header",
      version: 1,
      sessionId: "sess",
      cwd: "/repo/app",
      createdAt: "1970-01-01T00:00:00.000Z",
      generator: "threadline",
    });
  });

  it("writes many appends in order on flush, and reopening appends without a second header", async () => {
    const path = join(await tempDir(), "ordered.jsonl");
    const entries = chain(2000);
    const store = await JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path });
    for (const entry of entries.slice(0, 1500)) store.append(entry);
    await store.flush();
    // After flush every appended entry is on disk, before any other tick runs.
    const afterFlush = await loadTranscript(path);
    expect(afterFlush.entries).toEqual(entries.slice(0, 1500));
    await store.close();
    expect(() => store.append(entries[0]!)).toThrow(/closed/);

    const reopened = await JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path });
    for (const entry of entries.slice(1500)) reopened.append(entry);
    await reopened.close();
    const loaded = await loadTranscript(path);
    expect(loaded.entries).toEqual(entries);
    expect(loaded.problems).toEqual([]);
    const headers = (await readFile(path, "utf8")).split("\n").filter((line) => line.includes('"type":"header"'));
    expect(headers).toHaveLength(1);
  });

  it("writes queued entries in the background without an explicit flush", async () => {
    const path = join(await tempDir(), "background.jsonl");
    const store = await JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path });
    const entries = chain(3);
    for (const entry of entries) store.append(entry);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await loadTranscript(path)).entries).toEqual(entries);
    await store.close();
  });

  it("serializes at append time, so later mutation of the entry does not leak in", async () => {
    const path = join(await tempDir(), "snapshot.jsonl");
    const store = await JsonlTranscriptStore.open({ sessionId: "s", cwd: "/w", path });
    const entry = chain(1)[0]!;
    store.append(entry);
    (entry as { sessionId: string }).sessionId = "mutated";
    await store.close();
    const loaded = await loadTranscript(path);
    expect(loaded.entries[0]).toMatchObject({ sessionId: "s" });
  });
});

describe("exit flush", () => {
  const child = fileURLToPath(new URL("./exit-child.ts", import.meta.url));

  const runChild = async (mode: string) => {
    const path = join(await tempDir(), `${mode}.jsonl`);
    const result = spawnSync(process.execPath, ["--import", "tsx", child, path, "500", mode], { encoding: "utf8" });
    return { result, loaded: await loadTranscript(path) };
  };
  const expectedUuids = Array.from({ length: 500 }, (_, index) => `entry-${index}`);
  const uuids = (entries: readonly TimelineEntry[]) =>
    entries.map((entry) => (entry.type === "user" ? entry.uuid : "?"));

  it("a child that appends and calls process.exit without awaiting flush keeps every entry", async () => {
    const { result, loaded } = await runChild("exit");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(3);
    expect(loaded.problems).toEqual([]);
    expect(uuids(loaded.entries)).toEqual(expectedUuids);
  });

  it("flushAllTranscriptsSync (for the CLI's signal handlers) writes everything before a hard kill", async () => {
    const { result, loaded } = await runChild("sync-then-kill");
    expect(result.signal).toBe("SIGKILL");
    expect(uuids(loaded.entries)).toEqual(expectedUuids);
  });

  it("a hard kill right after appending, with no flush at all, still keeps every entry (each is written at once)", async () => {
    const { result, loaded } = await runChild("kill");
    expect(result.signal).toBe("SIGKILL");
    expect(uuids(loaded.entries)).toEqual(expectedUuids);
  });
});

describe("MemoryTranscriptStore", () => {
  it("keeps JSON copies in order and has no path", async () => {
    const store = new MemoryTranscriptStore();
    const entries = chain(3);
    for (const entry of entries) store.append(entry);
    (entries[0] as { sessionId: string }).sessionId = "mutated";
    await store.flush();
    expect(store.path).toBeUndefined();
    expect(store.entries.map((entry) => (entry.type === "user" ? entry.uuid : ""))).toEqual(["e-0", "e-1", "e-2"]);
    expect(store.entries[0]).toMatchObject({ sessionId: "s" });
    await store.close();
    expect(() => store.append(entries[0]!)).toThrow(/closed/);
  });
});

describe("format migration", () => {
  it("loads a headerless file through the v0 migration and synthesizes its header", async () => {
    const path = join(await tempDir(), "legacy.jsonl");
    const entries = chain(2);
    await writeFile(path, entries.map((entry) => JSON.stringify({ ...entry, cwd: "/old" })).join("\n") + "\n");
    const loaded = await loadTranscript(path);
    expect(loaded.sourceVersion).toBe(0);
    expect(loaded.header).toMatchObject({ version: 0, sessionId: "s", cwd: "/old" });
    expect(loaded.entries).toHaveLength(2);
    expect(loaded.problems).toEqual([]);
  });

  it("reports a header newer than this build but still loads the entries", async () => {
    const path = join(await tempDir(), "future.jsonl");
    const header = { type: "header", version: 99, sessionId: "s", cwd: "/w", createdAt: "x", generator: "threadline" };
    await writeFile(path, [header, ...chain(1)].map((record) => JSON.stringify(record)).join("\n") + "\n");
    const loaded = await loadTranscript(path);
    expect(loaded.entries).toHaveLength(1);
    expect(loaded.problems).toHaveLength(1);
    expect(loaded.problems[0]).toMatchObject({ line: 1 });
    expect(loaded.problems[0]!.reason).toMatch(/newer/);
  });
});
