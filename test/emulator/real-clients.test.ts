/**
 * Requests recorded from real clients (scripts/record-clients.mjs: Claude Code, pi, opencode pointed at the
 * emulator) replayed against the default emulator — the public API — over real HTTP: every one is accepted.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "real-clients");

interface RealClientFixture {
  client: string;
  version: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

const fixtures = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => ({ name, fixture: JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as RealClientFixture }));

/** Replays one recorded request: its headers minus hop-by-hop ones and the scrubbed credential. */
async function replay(url: string, fixture: RealClientFixture): Promise<Response> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(fixture.headers)) {
    if (value === "[scrubbed]" || ["host", "content-length", "connection", "accept-encoding"].includes(name)) continue;
    headers[name] = value;
  }
  headers["x-api-key"] = "replay-key-not-secret";
  headers["content-type"] = "application/json";
  headers["anthropic-version"] ??= "2023-06-01";
  return fetch(`${url}${fixture.path}`, { method: "POST", headers, body: JSON.stringify(fixture.body) });
}

describe("real-client requests against the default emulator", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(() => emulator.close());

  it("has fixtures from each recorded client", () => {
    const clients = new Set(fixtures.map(({ fixture }) => fixture.client));
    expect([...clients].sort()).toEqual(["claude", "opencode", "pi"]);
  });

  it.each(fixtures)("accepts $name", async ({ fixture }) => {
    const response = await replay(emulator.url, fixture);
    const text = await response.text();
    expect(response.status, text.slice(0, 400)).toBe(200);
    // The public API announces nothing emulator-only.
    expect(response.headers.get("x-emulator-features")).toBeNull();
  });
});
