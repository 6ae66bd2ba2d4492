/**
 * Print mode's first turn picks its cache TTL from the person's earlier sessions (docs/PROMPT-CACHE.md, "Pauses
 * across sessions"). Oracle: the `cache_control` TTLs the emulator logged on the requests the built CLI sent,
 * and the habits file read back from disk. A 1-hour write costs 2× against 1.25× for what the turn writes, so it
 * pays only when the expected pause is over 5 minutes and under an hour: with no history the prior (gaps spread
 * from 30 s to 90 min) says 5 minutes; after sessions at a 20-minute pace it says 1 hour; after 3-minute ones, 5.
 *
 * Mutations caught: the keeper ignoring `earlierGapsMs` (pause-keeper.ts `#gaps` returning only its own) makes
 * the 20-minute case send "5m"; print mode not saving the file (`if (reachedServer) await setup.habits.save`
 * removed) fails the file test.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();
const MINUTE = 60_000;

/** Every TTL the CLI's main requests asked for (a breakpoint without `ttl` is the default, "5m"). */
function ttlsSent(server: Emulator): string[] {
  const ttls: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === "object" && value !== null) {
      const record = value as Record<string, unknown>;
      const control = record.cache_control as { ttl?: string } | undefined;
      if (control !== undefined) ttls.push(control.ttl ?? "5m");
      for (const [key, child] of Object.entries(record)) if (key !== "cache_control") visit(child);
    }
  };
  for (const request of server.requests) if (request.path === "/v1/messages") visit(request.body);
  return ttls;
}

/** The habits file of `cwd`'s project under `home` (cwd slug: every non-alphanumeric character a "-"). */
function habitsPath(home: string, cwd: string): string {
  return join(home, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"), "pause-habits.json");
}

async function printRun(gapsMs: number[] | undefined): Promise<{ ttls: string[]; path: string; secret: string }> {
  const { cwd, home, env, emulator } = await harness.setup({ scenario: ["Done."] }, "habits");
  const path = habitsPath(home, cwd);
  if (gapsMs !== undefined) {
    await mkdir(join(path, ".."), { recursive: true });
    await writeFile(path, JSON.stringify({ gapsMs }));
  }
  const secret = "sk-ant-habits-secret-0123456789";
  const result = await runCli(["-p", "what changed?"], {
    cwd,
    env: { ...env, ANTHROPIC_API_KEY: secret, THREADLINE_SERVER_PROFILE: "anthropic" },
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return { ttls: ttlsSent(emulator), path, secret };
}

describe("pause habits across sessions (print mode)", () => {
  it("without earlier sessions the first turn holds its system prompt an hour and its conversation 5 minutes", async () => {
    // The cold-start hedge (docs/PROMPT-CACHE.md): the 1h markers come first, as the API requires.
    const { ttls } = await printRun(undefined);
    expect(ttls.length).toBeGreaterThan(1);
    const firstFiveMinutes = ttls.indexOf("5m");
    expect(firstFiveMinutes).toBeGreaterThan(0);
    expect(new Set(ttls.slice(0, firstFiveMinutes))).toEqual(new Set(["1h"]));
    expect(new Set(ttls.slice(firstFiveMinutes))).toEqual(new Set(["5m"]));
  });

  it("after sessions at a 20-minute pace the first turn writes 1-hour entries", async () => {
    const { ttls } = await printRun(Array.from({ length: 6 }, () => 20 * MINUTE));
    expect(ttls.length).toBeGreaterThan(0);
    expect(new Set(ttls)).toEqual(new Set(["1h"]));
  });

  it("after sessions at a 3-minute pace it stays with 5 minutes", async () => {
    const { ttls } = await printRun(Array.from({ length: 6 }, () => 3 * MINUTE));
    expect(new Set(ttls)).toEqual(new Set(["5m"]));
  });

  it("the session adds its pause to the file: numbers only, no prompt, path or key", async () => {
    const started = Date.now();
    const { path, secret } = await printRun([7 * MINUTE]);
    const text = await readFile(path, "utf8");
    const saved = JSON.parse(text) as { gapsMs: number[]; lastResponseAt: number };
    expect(saved.gapsMs).toEqual([7 * MINUTE]); // a one-prompt session has no gap of its own; no earlier response
    expect(saved.lastResponseAt).toBeGreaterThanOrEqual(started);
    expect(saved.lastResponseAt).toBeLessThanOrEqual(Date.now());
    expect(Object.keys(saved).sort()).toEqual(["gapsMs", "lastResponseAt"]);
    for (const word of [secret, "what changed", "habits-cwd"]) expect(text).not.toContain(word);
  });

  it("a second session counts the pause since the first one's last response", async () => {
    const { cwd, home, env, emulator } = await harness.setup({ scenario: ["Done.", "Again."] }, "habits");
    const runEnv = { ...env, THREADLINE_SERVER_PROFILE: "anthropic" };
    expect((await runCli(["-p", "first"], { cwd, env: runEnv })).code).toBe(0);
    const first = JSON.parse(await readFile(habitsPath(home, cwd), "utf8")) as {
      gapsMs: number[];
      lastResponseAt: number;
    };
    expect(first.gapsMs).toEqual([]);
    const between = Date.now();
    expect((await runCli(["-p", "second"], { cwd, env: runEnv })).code).toBe(0);
    const second = JSON.parse(await readFile(habitsPath(home, cwd), "utf8")) as {
      gapsMs: number[];
      lastResponseAt: number;
    };
    expect(second.gapsMs).toHaveLength(1);
    expect(second.gapsMs[0]).toBeGreaterThanOrEqual(between - first.lastResponseAt);
    expect(second.gapsMs[0]).toBeLessThanOrEqual(Date.now() - first.lastResponseAt);
    expect(emulator.requests.filter((request) => request.path === "/v1/messages")).toHaveLength(2);
  });
});
