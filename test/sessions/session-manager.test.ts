/**
 * The session manager over real stores: JSONL files in a temp home, and a PostgreSQL URL nobody listens on (a
 * closed loopback port) for the "opens at creation" behaviour; and `QueryEngine.resume` looking where the
 * options say (`project`).
 */

import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { createUserEntry } from "../../src/messages/index.js";
import { SessionManager } from "../../src/sessions/index.js";
import { StoreError } from "../../src/transcript/index.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { testUuid } from "../../support/timeline-builder.js";

const created: string[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function jsonlStore(): Promise<{ store: SessionManager; home: string; cwd: string }> {
  const home = await makeTempDir("session-store-home");
  const cwd = await makeTempDir("session-store-cwd");
  created.push(home, cwd);
  // No `store` and an environment without THREADLINE_STORE: JSONL files under `home`.
  return { store: new SessionManager({ cwd, home, env: {} }), home, cwd };
}

/** A loopback port that was free a moment ago (bound, then closed): connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Writes one user turn into the session's transcript (no model call: the entry is appended and flushed). */
async function saveOneEntry(store: SessionManager, sessionId: string): Promise<void> {
  const { transcript } = await store.create(sessionId);
  const context = { sessionId, parentUuid: null, uuid: testUuid(1), now: new Date("2025-01-01T00:00:00Z") };
  transcript.append(createUserEntry(context, `hello from ${sessionId}`));
  await transcript.close();
}

describe("SessionManager", () => {
  // Guards: a PostgreSQL session is opened by create, not on the first turn. Mutation caught: dropping the
  // `await transcript.ready()` in create (create then resolves and the failure waits for a flush).
  it("create on a PostgreSQL nobody serves rejects with one StoreError line, before any turn", async () => {
    const port = await closedPort();
    const home = await makeTempDir("session-store-pg");
    created.push(home);
    const store = new SessionManager({
      cwd: home,
      home,
      store: `postgres://threadline@127.0.0.1:${port}/none`,
      env: {},
    });
    const failure = await store.create().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StoreError);
    const message = (failure as Error).message;
    expect(message).toContain(`127.0.0.1:${port}`);
    expect(message.split("\n")).toHaveLength(1);
  });

  // Guards: an id already on disk is refused rather than appended to. Mutation caught: removing the existsSync
  // check in create (the second create would resolve).
  it("create refuses a JSONL session id already on disk, naming --resume", async () => {
    const { store } = await jsonlStore();
    const id = "0a1b2c3d-0000-4000-8000-000000000000";
    await saveOneEntry(store, id);
    await expect(store.create(id)).rejects.toThrow(
      `Session ID ${id} is already in use; use --resume ${id} to continue it.`,
    );
  });

  // Guards: open resolves a unique id prefix and refuses an ambiguous one. Mutation caught: dropping the
  // prefix lookup in #fileOfIdOrPrefix (the prefix is then "not found").
  it("open takes a unique id prefix, refuses an ambiguous one, and names a missing id", async () => {
    const { store } = await jsonlStore();
    await saveOneEntry(store, "abcd1111-0000-4000-8000-000000000000");
    await saveOneEntry(store, "abcd2222-0000-4000-8000-000000000000");
    const opened = await store.open("abcd1");
    expect(opened.resumed).toBe(true);
    expect(opened.sessionId).toBe("abcd1111-0000-4000-8000-000000000000");
    expect(opened.entries).toHaveLength(1);
    await opened.transcript.close();
    await expect(store.open("abcd")).rejects.toThrow("Session ID prefix abcd matches 2 sessions; type more of it.");
    await expect(store.open("ffff9999")).rejects.toThrow(
      "No conversation found with session ID: ffff9999 (in this directory).",
    );
  });

  it("continueLatest names the directory when there is nothing to continue, and lists nothing", async () => {
    const { store } = await jsonlStore();
    await expect(store.continueLatest()).rejects.toThrow("No conversation found to continue in this directory.");
    expect(await store.list()).toEqual([]);
  });

  // Guards: a session filed under a project key (`--project`) is found by id there, by the CLI's path and by
  // the library's `QueryEngine.resume(id, { project })`, which once looked in the cwd's folder instead. The
  // oracle is the file's place on disk, written as a literal path. Mutation caught: building the path from the
  // cwd's slug again when resolving an id (`transcriptPath(id, cwd, home)` in the manager's `fileOf`).
  it("QueryEngine.resume(id, { project }) opens the session filed under that project, not the cwd's folder", async () => {
    const { home, cwd } = await jsonlStore();
    const project = "team-key";
    const id = "bbbb0000-0000-4000-8000-000000000000";
    await saveOneEntry(new SessionManager({ cwd, home, project, env: {} }), id);
    expect(existsSync(join(home, "projects", "team-key", `${id}.jsonl`))).toBe(true);
    const { engine, problems } = await QueryEngine.resume(id, { cwd, home, project, env: {}, transcript: false });
    expect(problems).toEqual([]);
    expect(engine.sessionId).toBe(id);
    expect(engine.timeline.entries.map((entry) => entry.type)).toEqual(["user"]);
    await engine.close();
    // Without the project the same id is not in this directory's folder.
    await expect(QueryEngine.resume(id, { cwd, home, env: {}, transcript: false })).rejects.toThrow(
      `No conversation found with session ID: ${id} (in this directory).`,
    );
  });
});
