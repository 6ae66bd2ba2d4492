/**
 * PostgreSQL store under load and faults: 50 concurrent sessions from several worker processes, written the
 * way the engine writes (a few appends, flush before the model call, think time), while the network to the
 * database is cut now and then (a loopback proxy drops every connection) and workers are SIGKILLed and
 * replaced (the replacement waits out the dead worker's leases, then resumes). Every session must reach its
 * target with its entries exactly in order: 0 lost (no acknowledged entry ever missing on resume) and 0
 * duplicated. Prints append throughput and the append-to-commit latency (p50, p99).
 * Skips with a notice where PostgreSQL cannot be started.
 *
 *   node --import tsx bench/pg-load.ts [--sessions 50] [--workers 5] [--entries 400] [--kills 6] [--outages 4]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createUserEntry } from "../src/messages/index.js";
import { PgSessionDatabase } from "../src/transcript/index.js";
import { startTestPostgres } from "../support/postgres-cluster.js";
import { startFaultProxy, throughProxy } from "../support/tcp-fault-proxy.js";
import { reportResult } from "./lib/result.js";

const WORKER = fileURLToPath(new URL("./lib/pg-load-worker.ts", import.meta.url));
/** Lease term of the workers: short, so a killed worker's sessions are taken over within the run. */
const LEASE_SECONDS = "2";
const KILL_EVERY_MS = 1_500;
const OUTAGE_EVERY_MS = 2_500;
const OUTAGE_MS = 400;
const DEADLINE_MS = 6 * 60_000;

function numberArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const sessions = numberArgument("--sessions", 50);
  const workers = numberArgument("--workers", 5);
  const target = numberArgument("--entries", 400);
  const kills = numberArgument("--kills", 6);
  const outages = numberArgument("--outages", 4);

  const started = await startTestPostgres();
  if (!started.ok) {
    console.log(`pg-load skipped: PostgreSQL cannot be started here (${started.reason})`);
    return;
  }
  const postgres = started.postgres;
  const proxy = await startFaultProxy(Number(new URL(postgres.url).port));
  const url = throughProxy(postgres.url, proxy);
  // Schema first, so the workers' first statements are not all migrations queued behind one lock.
  await (await PgSessionDatabase.connect(postgres.url)).close();

  const ids = Array.from({ length: sessions }, (_, index) => `load-${String(index).padStart(3, "0")}`);
  const done = new Set<string>();
  const maxAck = new Map<string, number>();
  const problems: string[] = [];
  const latencies: number[] = [];
  const live = new Map<ChildProcess, string[]>();
  /** Workers that have committed something (a kill before that would only test start-up). */
  const active = new Set<ChildProcess>();
  let killed = 0;
  let cuts = 0;
  let resumes = 0;
  const wallStart = performance.now();

  const spawnWorker = (assigned: string[]): void => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER, url, String(target), ...assigned], {
      env: { ...process.env, THREADLINE_STORE_LEASE_SECONDS: LEASE_SECONDS },
      stdio: ["ignore", "pipe", "inherit"],
    });
    live.set(child, assigned);
    let buffered = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        if (buffered.startsWith("ACK ")) active.add(child);
        handle(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
      }
    });
    child.on("close", () => {
      live.delete(child);
      active.delete(child);
      const unfinished = assigned.filter((id) => !done.has(id));
      if (unfinished.length > 0 && performance.now() - wallStart < DEADLINE_MS) spawnWorker(unfinished);
    });
  };

  const handle = (line: string): void => {
    const [kind, id, value] = line.split(" ");
    if (kind === "ACK" && id !== undefined) maxAck.set(id, Math.max(maxAck.get(id) ?? 0, Number(value)));
    else if (kind === "RESUMED" && id !== undefined) {
      resumes++;
      const acknowledged = maxAck.get(id) ?? 0;
      if (Number(value) < acknowledged)
        problems.push(`${id}: resumed with ${value} entries, ${acknowledged} were acknowledged`);
    } else if (kind === "DONE" && id !== undefined) done.add(id);
    else if (kind === "BAD") problems.push(line);
    else if (kind === "LAT" && id !== undefined) for (const ms of id.split(",")) latencies.push(Number(ms));
  };

  const perWorker = Math.ceil(sessions / workers);
  for (let index = 0; index < workers; index++) spawnWorker(ids.slice(index * perWorker, (index + 1) * perWorker));

  let lastKill = performance.now();
  let lastOutage = performance.now();
  while (done.size < sessions && performance.now() - wallStart < DEADLINE_MS) {
    await sleep(100);
    const now = performance.now();
    if (killed < kills && now - lastKill > KILL_EVERY_MS && active.size > 0) {
      const victims = [...active];
      const victim = victims[Math.floor(Math.random() * victims.length)]!;
      victim.kill("SIGKILL");
      killed++;
      lastKill = now;
    }
    if (cuts < outages && now - lastOutage > OUTAGE_EVERY_MS) {
      await proxy.cut();
      await sleep(OUTAGE_MS);
      await proxy.restore();
      cuts++;
      lastOutage = performance.now();
    }
  }
  const wallSeconds = (performance.now() - wallStart) / 1000;

  // The audit, on a direct connection: every session complete, exactly entries 0..target-1 in order.
  const database = await PgSessionDatabase.connect(postgres.url);
  let stored = 0;
  for (const id of ids) {
    const loaded = await database.loadSession(id);
    const uuids = loaded?.result.entries.map((entry) => ("uuid" in entry ? entry.uuid : "?")) ?? [];
    stored += uuids.length;
    const expected = Array.from({ length: target }, (_, index) => `${id}-${index}`);
    if (uuids.length !== target || uuids.some((uuid, index) => uuid !== expected[index])) {
      problems.push(`${id}: ${uuids.length} entries stored, not exactly the ${target} expected`);
    }
  }
  await database.close();
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  const rows = Number((await client.query("SELECT count(*) AS n FROM threadline_entries")).rows[0].n);
  await client.end();
  await proxy.close();
  const baseline = await cleanRun(postgres.url, sessions, target);
  await postgres.stop();

  latencies.sort((left, right) => left - right);
  const throughput = stored / wallSeconds;
  const lostOrDuplicated = Math.abs(rows - sessions * target) + problems.length;
  console.log(
    `${sessions} sessions × ${target} entries from ${workers} processes: ${done.size}/${sessions} completed, ` +
      `${killed} SIGKILLs, ${cuts} network cuts of ${OUTAGE_MS} ms, ${resumes} takes (creates + resumes)`,
  );
  console.log(
    `rows stored ${rows} (expected ${sessions * target}); problems: ${problems.length === 0 ? "none" : problems.join("; ")}`,
  );
  console.log(
    `append throughput ${throughput.toFixed(0)} entries/s over ${wallSeconds.toFixed(1)} s (faults and lease waits included); ` +
      `append-to-commit latency p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms ` +
      `(${latencies.length} entries measured)`,
  );
  console.log(
    `baseline (same machine, one process, no faults, no think time): ${baseline.throughput.toFixed(0)} entries/s, ` +
      `p50 ${baseline.p50.toFixed(1)} ms, p99 ${baseline.p99.toFixed(1)} ms; under faults the p99 is ` +
      `${(percentile(latencies, 0.99) / baseline.p99).toFixed(1)}× the baseline's`,
  );
  reportResult({
    bench: "pg-load",
    metric: `append throughput, ${sessions} sessions, no faults`,
    value: Math.round(baseline.throughput),
    unit: "entries/s",
    note: `p99 ${baseline.p99.toFixed(1)} ms`,
  });
  reportResult({
    bench: "pg-load",
    metric: `sessions completed (of ${sessions})`,
    value: done.size,
    unit: "",
    target: `${sessions}`,
  });
  reportResult({
    bench: "pg-load",
    metric: "entries lost or duplicated",
    value: lostOrDuplicated,
    unit: "",
    target: "0",
  });
  reportResult({
    bench: "pg-load",
    metric: "append throughput under faults",
    value: Math.round(throughput),
    unit: "entries/s",
  });
  reportResult({
    bench: "pg-load",
    metric: "append-to-commit latency p99",
    value: Number(percentile(latencies, 0.99).toFixed(1)),
    unit: "ms",
    note: `p50 ${percentile(latencies, 0.5).toFixed(1)} ms`,
  });
  if (done.size < sessions || lostOrDuplicated > 0) process.exitCode = 1;
}

/** The store's capacity: every session appending bursts and flushing back to back, in this process. */
async function cleanRun(url: string, sessions: number, target: number) {
  const database = await PgSessionDatabase.connect(url);
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: sessions }, async (_, index) => {
      const sessionId = `clean-${index}`;
      const store = await database.createSession({ sessionId, cwd: "/load", project: "pg-load-clean" });
      for (let next = 0; next < target; ) {
        const burst = Math.min(target - next, 1 + (next % 4));
        const at = performance.now();
        for (let count = 0; count < burst; count++) {
          store.append(
            createUserEntry(
              { sessionId, parentUuid: null, uuid: `${sessionId}-${next++}` },
              "x".repeat(next % 7 === 0 ? 4_000 : 120),
            ),
          );
        }
        await store.flush();
        const elapsed = performance.now() - at;
        for (let count = 0; count < burst; count++) latencies.push(elapsed);
      }
      await store.close();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await database.close();
  latencies.sort((left, right) => left - right);
  return {
    throughput: (sessions * target) / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

await main();
