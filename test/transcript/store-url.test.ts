import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";
import { DEFAULT_LEASE_MS, leaseMsFromEnv, parseStoreUrl, redactUrl } from "../../src/transcript/index.js";

describe("THREADLINE_STORE", () => {
  it("selects PostgreSQL for postgres:// and postgresql://, JSONL when unset or empty", () => {
    expect(parseStoreUrl(undefined)).toEqual({ kind: "jsonl" });
    expect(parseStoreUrl("  ")).toEqual({ kind: "jsonl" });
    expect(parseStoreUrl("postgres://u:secret@db.example:6543/agents")).toEqual({
      kind: "postgres",
      url: "postgres://u:secret@db.example:6543/agents",
      display: "db.example:6543/agents",
    });
    expect(parseStoreUrl("postgresql://db/agents")).toMatchObject({ kind: "postgres", display: "db:5432/agents" });
  });

  it("refuses any other scheme in one line that never repeats the URL (it may hold a password)", () => {
    expect(() => parseStoreUrl("mysql://root:secret@db/x")).toThrow(
      /^THREADLINE_STORE must be a postgres:\/\/ or postgresql:\/\/ URL \(or unset for JSONL files\); got a mysql: URL$/,
    );
    expect(() => parseStoreUrl("/var/lib/sessions")).toThrow(/got a value without a scheme$/);
  });

  it("prints host, port and database only; a unix socket by its directory", () => {
    expect(redactUrl("postgres://user:pw@127.0.0.1:5433/db?sslmode=require")).toBe("127.0.0.1:5433/db");
    expect(redactUrl("postgres:///agents?host=/run/postgresql")).toBe("/run/postgresql:5432/agents");
  });

  it("lease term: default, seconds from the environment, one line for nonsense", () => {
    expect(leaseMsFromEnv({})).toBe(DEFAULT_LEASE_MS);
    expect(leaseMsFromEnv({ THREADLINE_STORE_LEASE_SECONDS: "2.5" })).toBe(2_500);
    expect(() => leaseMsFromEnv({ THREADLINE_STORE_LEASE_SECONDS: "soon" })).toThrow(
      /THREADLINE_STORE_LEASE_SECONDS must be a positive number of seconds, got "soon"/,
    );
  });

  it("--project takes a folder-safe key", () => {
    expect(parseCliArgs(["--project", "web-app.v2", "-p", "hi"]).project).toBe("web-app.v2");
    expect(() => parseCliArgs(["--project", "../etc", "-p", "hi"])).toThrow(UsageError);
    expect(() => parseCliArgs(["--project", "..", "-p", "hi"])).toThrow(/--project must be letters/);
  });
});
