/**
 * Declared, not guessed (DESIGN invariant 7), end to end: with default settings and ANTHROPIC_BASE_URL at a
 * loopback server that announces nothing, no request carries cache_edits, cache_reference, context_management
 * or a beta; an emulator that announces cache editing gets it, and a resume of that session agrees.
 */

import { type Emulator, type RequestLogEntry, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { AnthropicProvider } from "../../src/provider/index.js";
import { collect } from "../../support/collect.js";
import { turnEnd } from "../../support/engine-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const MODEL = "claude-sonnet-4-20250514";
const STEPS = 12;
const running: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  for (const item of running.splice(0)) await item.close();
});

async function session(emulator: Emulator, workspace: string, home: string, sessionId?: string) {
  // The provider as the CLI builds it: from the environment only.
  const env = { ANTHROPIC_BASE_URL: emulator.url, ANTHROPIC_API_KEY: "test-key-not-secret" };
  const options = {
    cwd: workspace,
    home,
    env,
    provider: new AnthropicProvider({ env, sleep: async () => {} }),
    model: MODEL,
    // A small window so microcompact has work to do (it would use cache edits or context_management).
    contextWindow: 60_000,
    permission: { mode: "bypassPermissions" as const, allow: [], deny: [] },
  };
  if (sessionId === undefined) return new QueryEngine(options);
  return (await QueryEngine.resume(sessionId, options)).engine;
}

const messagesRequests = (emulator: Emulator): RequestLogEntry[] =>
  emulator.requests.filter((request) => request.path === "/v1/messages");

async function run(cacheEditing: boolean) {
  const emulator = await startEmulator({
    scenario: [...readEachFileScenario(sourceFileNames(STEPS)), "And again?"],
    cacheEditing,
  });
  running.push(emulator);
  const workspace = await makeTempDir("declared");
  const home = await makeTempDir("declared-home");
  await writeSourceFiles(workspace, STEPS);
  const engine = await session(emulator, workspace, home);
  running.push(engine);
  const events = await collect(engine.submitMessage("Read every module, one at a time."));
  expect(turnEnd(events).reason).toBe("completed");
  return { emulator, engine, workspace, home };
}

describe("declared capabilities on loopback", () => {
  it("a loopback server that announces nothing gets the core Messages API only", async () => {
    const { emulator } = await run(false);
    const requests = messagesRequests(emulator);
    expect(requests.length).toBeGreaterThanOrEqual(STEPS + 1);
    for (const request of requests) {
      expect(request.status).toBe(200);
      const body = JSON.stringify(request.body);
      expect(body).not.toContain('"cache_edits"');
      expect(body).not.toContain('"cache_reference"');
      expect(body).not.toContain('"context_management"');
      expect(request.headers["anthropic-beta"]).toBeUndefined();
    }
  });

  it("an announcing emulator gets cache edits; a resume uses them from its first request", async () => {
    const { emulator, engine, workspace, home } = await run(true);
    const requests = messagesRequests(emulator);
    expect(emulator.stats().violations).toBe(0);
    expect(requests.some((request) => JSON.stringify(request.body).includes('"cache_edits"'))).toBe(true);
    const sessionId = engine.sessionId;
    await engine.close();
    const before = requests.length;
    const resumed = await session(emulator, workspace, home, sessionId);
    running.push(resumed);
    expect(resumed.provider.capabilities.cacheEdits).toBe(true);
    expect(turnEnd(await collect(resumed.submitMessage("Anything else?"))).reason).toBe("completed");
    const first = messagesRequests(emulator)[before]!;
    expect(first.status).toBe(200);
    // Its earlier tool results still carry their cache references, byte for byte as before the resume.
    expect(JSON.stringify(first.body)).toContain('"cache_reference"');
  });
});
