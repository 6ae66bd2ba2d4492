import { join } from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createUserEntry } from "../../../src/messages/index.js";
import {
  JsonlTranscriptStore,
  loadTranscript,
  MIGRATIONS,
  migrate,
  PgSessionDatabase,
  resumeConversation,
} from "../../../src/transcript/index.js";
import { postgresForTests } from "../../../support/postgres-cluster.js";
import { useTempDirs } from "../../../support/temp-dirs.js";
import { buildTimeline, operationArbitrary, SESSION_ID } from "../timeline-arbitrary.js";

const postgres = await postgresForTests(afterAll);
const tempDir = useTempDirs();
let counter = 0;
const freshId = () => `${SESSION_ID.slice(0, -6)}${String(++counter).padStart(6, "0")}`;

describe.skipIf(postgres === undefined)("PostgreSQL transcript store", () => {
  const url = postgres?.url ?? "";

  it("write → load → resume gives what the file store gives, byte-exact records included", async () => {
    const database = await PgSessionDatabase.connect(url);
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(operationArbitrary, { minLength: 1, maxLength: 30 }), async (operations) => {
          const original = buildTimeline(operations);
          const sessionId = freshId();
          const store = await database.createSession({ sessionId, cwd: "/work", project: "round-trip" });
          // Half flushed one at a time, half in one batch: both paths must keep order.
          original.forEach((entry, index) => {
            store.append(entry);
            if (index % 2 === 0) void store.flush();
          });
          await store.close();

          const path = join(await tempDir(), "session.jsonl");
          const file = await JsonlTranscriptStore.open({ sessionId, cwd: "/work", path });
          for (const entry of original) file.append(entry);
          await file.close();
          const fromFile = await loadTranscript(path);

          const loaded = await database.loadSession(sessionId);
          expect(loaded?.result.problems).toEqual([]);
          expect(loaded?.result.entries).toEqual(original);
          expect(loaded?.result.header).toMatchObject({ type: "header", version: 1, sessionId, cwd: "/work" });
          expect(loaded?.lastSeq).toBe(original.length);
          expect(resumeConversation(loaded!.result.entries)).toEqual(resumeConversation(fromFile.entries));
          // The stored text is the exact JSON line the file holds.
          const records: string[] = [];
          await database.forEachRecord(sessionId, (record) => records.push(record));
          expect(records).toEqual(original.map((entry) => JSON.stringify(entry)));
        }),
        { numRuns: 25 },
      );
    } finally {
      await database.close();
    }
  });

  it("migrates once when many processes start at once, and refuses a newer schema", async () => {
    const admin = new URL(url);
    const name = `migrate_${Date.now()}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    admin.pathname = `/${name}`;
    try {
      const databases = await Promise.all(Array.from({ length: 6 }, () => PgSessionDatabase.connect(admin.toString())));
      await Promise.all(databases.map((database) => database.close()));
      const fresh = new pg.Client({ connectionString: admin.toString() });
      await fresh.connect();
      try {
        const versions = await fresh.query("SELECT version FROM threadline_migrations ORDER BY version");
        expect(versions.rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
        expect(await migrate(fresh)).toEqual([]);
        await fresh.query("INSERT INTO threadline_migrations (version, name) VALUES (999, 'from the future')");
        await expect(PgSessionDatabase.connect(admin.toString())).rejects.toThrow(
          /schema is version 999, newer than this build's/,
        );
      } finally {
        await fresh.end();
      }
    } finally {
      await client.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await client.end();
    }
  });

  it("entries are append-only in the database itself", async () => {
    const database = await PgSessionDatabase.connect(url);
    const sessionId = freshId();
    const store = await database.createSession({ sessionId, cwd: "/work", project: "append-only" });
    store.append(createUserEntry({ sessionId, parentUuid: null, uuid: "only" }, "hello"));
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await expect(
        client.query("UPDATE threadline_entries SET record = '{}' WHERE session_id = $1", [sessionId]),
      ).rejects.toThrow(/append-only \(UPDATE refused\)/);
      await expect(client.query("DELETE FROM threadline_entries WHERE session_id = $1", [sessionId])).rejects.toThrow(
        /append-only \(DELETE refused\)/,
      );
    } finally {
      await client.end();
      await database.close();
    }
  });

  it("a live holder refuses a second writer by name; an expired lease is taken over and fences the old writer", async () => {
    const first = await PgSessionDatabase.connect(url, { leaseMs: 400, heartbeatMs: 60_000, holder: "host-a:1:aaaa" });
    const second = await PgSessionDatabase.connect(url, { leaseMs: 400, holder: "host-b:2:bbbb" });
    try {
      const sessionId = freshId();
      const store = await first.createSession({ sessionId, cwd: "/work", project: "lease" });
      store.append(createUserEntry({ sessionId, parentUuid: null, uuid: "a1" }, "from a"));
      await store.flush();
      await expect(second.takeSession(sessionId)).rejects.toThrow(
        new RegExp(`^session ${sessionId} is in use by host-a:1:aaaa \\(lease renewed until .*\\); it can be resumed`),
      );
      // host-a stops renewing (its heartbeat is an hour away): after the term, host-b takes over.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const taken = await second.takeSession(sessionId);
      expect(taken.loaded.entries.map((entry) => ("uuid" in entry ? entry.uuid : ""))).toEqual(["a1"]);
      // host-a's next write is refused by the fence, naming the new holder; host-b's goes on.
      store.append(createUserEntry({ sessionId, parentUuid: "a1", uuid: "a2" }, "late"));
      await expect(store.flush()).rejects.toThrow(/was taken over by host-b:2:bbbb/);
      taken.store.append(createUserEntry({ sessionId, parentUuid: "a1", uuid: "b1" }, "from b"));
      await taken.store.close();
      await store.close().catch(() => undefined);
      const loaded = await second.loadSession(sessionId);
      expect(loaded?.result.entries.map((entry) => ("uuid" in entry ? entry.uuid : ""))).toEqual(["a1", "b1"]);
      // A clean close released the lease: a third writer gets it at once.
      const again = await first.takeSession(sessionId);
      await again.store.close();
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("lists sessions with project, size and live holder", async () => {
    const database = await PgSessionDatabase.connect(url, { holder: "lister:3:cccc" });
    try {
      const held = freshId();
      const free = freshId();
      const project = `list-${Date.now()}`;
      const heldStore = await database.createSession({ sessionId: held, cwd: "/work", project });
      heldStore.append(createUserEntry({ sessionId: held, parentUuid: null, uuid: "x" }, "hi"));
      await heldStore.flush();
      const freeStore = await database.createSession({ sessionId: free, cwd: "/work", project });
      await freeStore.close();
      const listed = await database.listSessions({ project });
      expect(listed.map((session) => session.sessionId)).toEqual([free, held]);
      expect(listed[1]).toMatchObject({ project, entries: 1, holder: "lister:3:cccc" });
      expect(listed[1]!.bytes).toBeGreaterThan(listed[0]!.bytes);
      expect(listed[0]!.holder).toBeUndefined();
      await heldStore.close();
    } finally {
      await database.close();
    }
  });
});
