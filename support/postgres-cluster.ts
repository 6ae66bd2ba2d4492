/**
 * A real PostgreSQL for tests and benchmarks: `THREADLINE_TEST_PG_URL` when set (CI starts one, see
 * scripts/ci-postgres.sh), else a throwaway cluster started here (initdb in a temp dir, pg_ctl on a free
 * loopback port; as the `postgres` user when running as root, because initdb refuses root). When neither is
 * possible, `startTestPostgres` resolves to undefined with the reason, and callers skip with one notice.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { chown, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { makeTempDir } from "./temp-dir.js";

/** Environment variable with the URL of an already running server (its database is shared by the tests). */
export const TEST_PG_URL_ENV = "THREADLINE_TEST_PG_URL";

export interface TestPostgres {
  /** A database of its own on the server, created for this caller. */
  url: string;
  /** Where it came from, for notices. */
  source: "env" | "cluster";
  /** Drops the database, and stops the cluster when it was started here. */
  stop(): Promise<void>;
}

export type TestPostgresResult = { ok: true; postgres: TestPostgres } | { ok: false; reason: string };

/** Finds a PostgreSQL binary: PATH first, then Debian's /usr/lib/postgresql/<version>/bin (newest). */
function findBinary(name: string): string | undefined {
  const which = spawnSync("which", [name], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim() !== "") return which.stdout.trim();
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => /^\d+$/.test(version))
    .sort((left, right) => Number(right) - Number(left));
  for (const version of versions) {
    const candidate = join(root, version, "bin", name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL tool, as `user` when given (root cannot run initdb or postgres). */
function runTool(user: string | undefined, binary: string, args: string[]): { ok: boolean; output: string } {
  const command = user === undefined ? binary : "runuser";
  const commandArgs = user === undefined ? args : ["-u", user, "--", binary, ...args];
  const result = spawnSync(command, commandArgs, { encoding: "utf8", timeout: 120_000 });
  return { ok: result.status === 0, output: `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() };
}

/** A fresh database on an admin URL's server; returns its URL. */
async function createDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import("pg");
  const name = `threadline_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A server for one test file or benchmark, with a database of its own. */
export async function startTestPostgres(): Promise<TestPostgresResult> {
  const fromEnv = process.env[TEST_PG_URL_ENV];
  if (fromEnv !== undefined && fromEnv !== "") {
    try {
      const database = await createDatabase(fromEnv);
      return { ok: true, postgres: { url: database.url, source: "env", stop: database.drop } };
    } catch (error) {
      return { ok: false, reason: `${TEST_PG_URL_ENV} is set but unusable: ${String(error)}` };
    }
  }
  return startCluster();
}

async function startCluster(): Promise<TestPostgresResult> {
  const initdb = findBinary("initdb");
  const pgCtl = findBinary("pg_ctl");
  if (initdb === undefined || pgCtl === undefined) return { ok: false, reason: "initdb/pg_ctl not found" };
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? "postgres" : undefined;
  const directory = await makeTempDir("pg");
  const data = join(directory, "data");
  if (asRoot) {
    try {
      const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
      const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
      await chown(directory, uid, gid);
    } catch {
      await rm(directory, { recursive: true, force: true });
      return { ok: false, reason: "running as root and there is no `postgres` user to run the server as" };
    }
  }
  const init = runTool(user, initdb, ["-D", data, "-U", "threadline", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  if (!init.ok) {
    await rm(directory, { recursive: true, force: true });
    return { ok: false, reason: `initdb failed: ${init.output.split("\n").slice(-2).join(" ")}` };
  }
  const port = await freePort();
  const serverOptions = [
    "-c listen_addresses=127.0.0.1",
    `-p ${port}`,
    `-c unix_socket_directories=${directory}`,
    // Speed for a throwaway cluster: no fsync (a killed client, not a killed machine, is what tests simulate).
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
  ].join(" ");
  const start = runTool(user, pgCtl, [
    "start",
    "-w",
    "-t",
    "60",
    "-D",
    data,
    "-l",
    join(directory, "log"),
    "-o",
    serverOptions,
  ]);
  if (!start.ok) {
    await rm(directory, { recursive: true, force: true });
    return { ok: false, reason: `pg_ctl start failed: ${start.output.split("\n").slice(-2).join(" ")}` };
  }
  const stopCluster = async () => {
    runTool(user, pgCtl, ["stop", "-m", "immediate", "-D", data]);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const database = await createDatabase(`postgres://threadline@127.0.0.1:${port}/postgres`);
    return { ok: true, postgres: { url: database.url, source: "cluster", stop: stopCluster } };
  } catch (error) {
    await stopCluster();
    return { ok: false, reason: `cluster started but no database could be created: ${String(error)}` };
  }
}

/**
 * For a test file: starts PostgreSQL once (top-level await), prints one notice and returns undefined when it
 * cannot, and stops it after the file's tests.
 */
export async function postgresForTests(
  afterAll: (hook: () => Promise<void>) => void,
): Promise<TestPostgres | undefined> {
  const started = await startTestPostgres();
  if (!started.ok) {
    console.warn(`PostgreSQL store tests skipped: PostgreSQL cannot be started here (${started.reason})`);
    return undefined;
  }
  afterAll(() => started.postgres.stop());
  return started.postgres;
}
