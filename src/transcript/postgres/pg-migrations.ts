/**
 * The schema, created and migrated by threadline itself. `threadline_migrations` records every applied
 * version; pending migrations run in one transaction under an advisory transaction lock, so two processes
 * starting at once never both create a table (the second waits, then finds nothing to do).
 *
 * Records are `text`, not `jsonb`: text keeps every byte the JSONL line had (key order, number spelling,
 * escapes), so export is byte-equal to import; jsonb would reorder keys, and refuses `\u0000` in strings,
 * which JSON (and so a tool's output) may contain. Queries that need structure can still cast `record::jsonb`.
 */
import type { ClientBase } from "pg";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Key of the advisory lock held while migrating ("threadln" in ASCII). */
export const MIGRATION_LOCK_KEY = "8388068010893233262";

/** Every migration, in order; a version is never edited once released, only followed by a new one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "sessions and entries",
    sql: `
      CREATE TABLE threadline_sessions (
        id text PRIMARY KEY,
        project text NOT NULL,
        cwd text NOT NULL,
        header text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_activity timestamptz NOT NULL DEFAULT now(),
        last_seq bigint NOT NULL DEFAULT 0,
        lease_holder text,
        lease_expires_at timestamptz
      );
      CREATE INDEX threadline_sessions_project_activity ON threadline_sessions (project, last_activity DESC);
      CREATE TABLE threadline_entries (
        session_id text NOT NULL REFERENCES threadline_sessions (id),
        seq bigint NOT NULL,
        record text NOT NULL,
        PRIMARY KEY (session_id, seq)
      );`,
  },
  {
    version: 2,
    name: "entries are append-only",
    sql: `
      CREATE FUNCTION threadline_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'threadline_entries is append-only (% refused)', TG_OP;
      END $$;
      CREATE TRIGGER threadline_entries_append_only BEFORE UPDATE OR DELETE ON threadline_entries
        FOR EACH ROW EXECUTE FUNCTION threadline_entries_append_only();`,
  },
];

/** Applies pending migrations; resolves to the versions applied now (empty when up to date). */
export async function migrate(client: ClientBase, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK_KEY]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS threadline_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const found = await client.query<{ version: number | null }>(
      "SELECT max(version) AS version FROM threadline_migrations",
    );
    const current = found.rows[0]?.version ?? 0;
    if (current > latest) {
      throw new Error(
        `the database's threadline schema is version ${current}, newer than this build's ${latest}; upgrade threadline`,
      );
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query("INSERT INTO threadline_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    await client.query("COMMIT");
    return applied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
