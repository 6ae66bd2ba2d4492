/**
 * The engine's SessionStore over real stores: JSONL files in a temp home, and a PostgreSQL URL nobody listens
 * on (a closed loopback port) for the "opens at creation" behaviour.
 */

import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../src/engine/sessions.js";
import { createUserEntry } from "../../src/messages/index.js";
import { StoreError } from "../../src/transcript/index.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { testUuid } from "../../support/timeline-builder.js";

const created: string[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function jsonlStore(): Promise<{ store: SessionStore; home: string; cwd: string }> {
  const home = await makeTempDir("session-store-home");
  const cwd = await makeTempDir("session-store-cwd");
  created.push(home, cwd);
  // No `store` and an environment without THREADLINE_STORE: JSONL files under `home`.
  return { store: new SessionStore({ cwd, home, env: {} }), home, cwd };
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
async function saveOneEntry(store: SessionStore, sessionId: string): Promise<void> {
  const { engine } = await store.create(sessionId);
  const context = { sessionId, parentUuid: null, uuid: testUuid(1), now: new Date("2025-01-01T00:00:00Z") };
  engine.transcript.append(createUserEntry(context, `hello from ${sessionId}`));
  await engine.close();
}

describe("SessionStore", () => {
  // Guards: a PostgreSQL session is opened by create, not on the first turn. Mutation caught: dropping the
  // `await engine.transcript.ready()` in create (create then resolves and the failure waits for a flush).
  it("create on a PostgreSQL nobody serves rejects with one StoreError line, before any turn", async () => {
    const port = await closedPort();
    const home = await makeTempDir("session-store-pg");
    created.push(home);
    const store = new SessionStore({ cwd: home, home, store: `postgres://threadline@127.0.0.1:${port}/none`, env: {} });
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
  // prefix lookup in #fileOf (the prefix is then "not found").
  it("open takes a unique id prefix, refuses an ambiguous one, and names a missing id", async () => {
    const { store } = await jsonlStore();
    await saveOneEntry(store, "abcd1111-0000-4000-8000-000000000000");
    await saveOneEntry(store, "abcd2222-0000-4000-8000-000000000000");
    const opened = await store.open("abcd1");
    expect(opened.resumed).toBe(true);
    expect(opened.engine.sessionId).toBe("abcd1111-0000-4000-8000-000000000000");
    await opened.engine.close();
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
});
