/**
 * One worker process of bench/pg-load.ts: drives several sessions at once through the PostgreSQL store, the
 * way the engine does (a few appends, then `flush()` before the "model call", then think time), and reports
 * on stdout, synchronously (a SIGKILL may end it at any instant):
 *   RESUMED <id> <n>    the session was taken (created or resumed) holding n entries, all in order
 *   ACK <id> <n>        the first n entries of the session are committed
 *   LAT <ms,ms,...>     append-to-commit latency of entries committed since the last LAT line
 *   DONE <id>           the session reached its target
 *   BAD <id> <why>      the stored entries were not exactly the expected prefix (loss or duplication)
 * Arguments: <url> <entries per session> <session id>...
 */
import { writeSync } from "node:fs";
import { createUserEntry } from "../../src/messages/index.js";
import { PgSessionDatabase, type PgTranscriptStore, SessionLeasedError } from "../../src/transcript/index.js";

const [url, targetText, ...sessionIds] = process.argv.slice(2);
const target = Number(targetText);
if (url === undefined || !Number.isInteger(target)) process.exit(2);

function say(line: string): void {
  writeSync(1, `${line}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let latencies: number[] = [];
setInterval(() => {
  if (latencies.length === 0) return;
  say(`LAT ${latencies.map((ms) => ms.toFixed(2)).join(",")}`);
  latencies = [];
}, 250).unref();

const database = await connectWithRetry(url);

async function connectWithRetry(address: string): Promise<PgSessionDatabase> {
  for (;;) {
    try {
      return await PgSessionDatabase.connect(address, { connectTimeoutMs: 2_000 });
    } catch {
      await sleep(200); // an injected outage at start-up: try again
    }
  }
}

/** Entry i of a session: deterministic uuid, a body of varying size (tool results are long, prompts short). */
function entry(sessionId: string, index: number) {
  const size = index % 7 === 0 ? 4_000 : 120;
  return createUserEntry(
    { sessionId, parentUuid: index === 0 ? null : `${sessionId}-${index - 1}`, uuid: `${sessionId}-${index}` },
    `entry ${index} ${"x".repeat(size)}`,
  );
}

/** Creates or takes over the session; waits out a dead holder's lease and outages. */
async function take(
  sessionId: string,
  appendedAt: Map<number, number>,
): Promise<{ store: PgTranscriptStore; held: number }> {
  let base = 0;
  let acknowledged = 0;
  const onCommit = (committed: number) => {
    for (let index = acknowledged; index < base + committed; index++) {
      const started = appendedAt.get(index);
      if (started !== undefined) latencies.push(performance.now() - started);
      appendedAt.delete(index);
    }
    acknowledged = base + committed;
    say(`ACK ${sessionId} ${acknowledged}`);
  };
  for (;;) {
    try {
      const existing = await database.sessionHeader(sessionId);
      if (existing === undefined) {
        const store = await database.createSession({ sessionId, cwd: "/load", project: "pg-load" }, { onCommit });
        say(`RESUMED ${sessionId} 0`);
        return { store, held: 0 };
      }
      const { store, loaded } = await database.takeSession(sessionId, { onCommit });
      const uuids = loaded.entries.map((stored) => ("uuid" in stored ? stored.uuid : "?"));
      const bad = uuids.findIndex((uuid, index) => uuid !== `${sessionId}-${index}`);
      if (bad !== -1) say(`BAD ${sessionId} entry ${bad} is ${uuids[bad]}`);
      say(`RESUMED ${sessionId} ${uuids.length}`);
      base = uuids.length;
      acknowledged = base;
      return { store, held: uuids.length };
    } catch (error) {
      await sleep(error instanceof SessionLeasedError ? 200 : 100);
    }
  }
}

async function drive(sessionId: string): Promise<void> {
  const appendedAt = new Map<number, number>();
  const { store, held } = await take(sessionId, appendedAt);
  let next = held;
  while (next < target) {
    const burst = Math.min(target - next, 1 + Math.floor(Math.random() * 4));
    for (let index = 0; index < burst; index++) {
      appendedAt.set(next, performance.now());
      store.append(entry(sessionId, next++));
    }
    // The engine's rule: everything durable before the model is called. An outage: retry until it is back.
    for (;;) {
      try {
        await store.flush();
        break;
      } catch (error) {
        if (String(error).includes("taken over")) {
          say(`BAD ${sessionId} ${String(error)}`);
          return;
        }
        await sleep(100);
      }
    }
    await sleep(5 + Math.random() * 30); // the model's turn
  }
  await store.close().catch(() => undefined);
  say(`DONE ${sessionId}`);
}

await Promise.all(sessionIds.map((sessionId) => drive(sessionId)));
await database.close();
process.exit(0);
