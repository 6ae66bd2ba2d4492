/**
 * Connections to PostgreSQL. `pg` is imported on first use, so the JSONL default never loads it. Every
 * connection has a short connect timeout and a query timeout: a database that is down or unreachable costs
 * seconds and one clear line, never minutes of silence or a stack trace.
 */
import type { Client, Pool, PoolClient } from "pg";
import { redactUrl } from "../store-url.js";

/** Longest wait for a connection to be established. */
export const DEFAULT_PG_CONNECT_TIMEOUT_MS = 5_000;

/** Longest wait for one statement's answer (client side: also covers a silently dead network). */
export const DEFAULT_PG_QUERY_TIMEOUT_MS = 15_000;

/** Connections the shared pool (loads, listings, leases, migrations) opens at most. */
export const DEFAULT_PG_POOL_SIZE = 4;

export interface PgConnectOptions {
  /** Default `DEFAULT_PG_CONNECT_TIMEOUT_MS`. */
  connectTimeoutMs?: number;
  /** Default `DEFAULT_PG_QUERY_TIMEOUT_MS`. */
  queryTimeoutMs?: number;
}

/** A store failure to report as one line (the URL's credentials never appear in it). */
export class StoreError extends Error {
  override readonly name = "StoreError";
}

type PgModule = typeof import("pg")["default"];
let pgModule: Promise<PgModule> | undefined;

async function loadPg(): Promise<PgModule> {
  pgModule ??= import("pg").then((module) => module.default);
  return pgModule;
}

function clientConfig(url: string, options: PgConnectOptions) {
  return {
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_PG_CONNECT_TIMEOUT_MS,
    query_timeout: options.queryTimeoutMs ?? DEFAULT_PG_QUERY_TIMEOUT_MS,
    keepAlive: true,
    application_name: "threadline",
  };
}

/** A pool for short statements; idle-connection errors (a server restart) are absorbed, not thrown. */
export async function createPool(url: string, options: PgConnectOptions = {}): Promise<Pool> {
  const pg = await loadPg();
  const pool = new pg.Pool({ ...clientConfig(url, options), max: DEFAULT_PG_POOL_SIZE, allowExitOnIdle: true });
  // An idle client whose server went away emits "error" on the pool; unhandled, that would end the process.
  pool.on("error", () => undefined);
  return pool;
}

/** Takes a pooled connection, turning a failure into one line naming the server. */
export async function poolClient(pool: Pool, url: string, options: PgConnectOptions = {}): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw connectionError(error, url, options);
  }
}

/** A dedicated connection (a session writer's); `onBroken` runs when it fails while idle. */
export async function connectClient(url: string, options: PgConnectOptions, onBroken: () => void): Promise<Client> {
  const pg = await loadPg();
  const client = new pg.Client(clientConfig(url, options));
  client.on("error", onBroken);
  try {
    await client.connect();
  } catch (error) {
    client.end().catch(() => undefined);
    throw connectionError(error, url, options);
  }
  return client;
}

/** One line for a failed connection attempt: where, and why in words (refused, timed out, the server's reason). */
export function connectionError(error: unknown, url: string, options: PgConnectOptions = {}): StoreError {
  const where = `PostgreSQL at ${redactUrl(url)}`;
  const timeout = options.connectTimeoutMs ?? DEFAULT_PG_CONNECT_TIMEOUT_MS;
  return new StoreError(`cannot connect to ${where}: ${errorReason(error, timeout)}`, { cause: error });
}

/** A short reason for a pg or socket error. */
export function errorReason(error: unknown, connectTimeoutMs: number = DEFAULT_PG_CONNECT_TIMEOUT_MS): string {
  // A failed connection attempt already wrapped: the reason is its cause's.
  if (error instanceof StoreError && error.cause !== undefined) return errorReason(error.cause, connectTimeoutMs);
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ECONNREFUSED") return "connection refused (is the server running?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset";
  if (/timeout/i.test(message) && /connect/i.test(message))
    return `no answer within ${Math.round(connectTimeoutMs / 1000)} s`;
  if (/Query read timeout/i.test(message)) return "no answer to a statement in time (network or server stalled)";
  if (/Connection terminated|Client has encountered a connection error|not queryable/i.test(message))
    return "connection lost";
  const first = message.split("\n")[0]?.trim() ?? "";
  return first === "" ? "unknown error" : first;
}
