import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator, EmulatorOptions } from "@threadline/emulator";
import { startEmulator } from "@threadline/emulator";
import { z } from "zod";
import { QueryEngine, type QueryEngineOptions } from "../src/engine/query-engine.js";
import type { EngineEvent } from "../src/loop/events.js";
import type { TimelineEntry } from "../src/messages/index.js";
import { AnthropicProvider, type Provider } from "../src/provider/index.js";
import type { Tool } from "../src/tools/types.js";
import { JsonlTranscriptStore } from "../src/transcript/index.js";
import { stableClock } from "./stable-run.js";
import { makeTempDir } from "./temp-dir.js";
import { SESSION_ID } from "./timeline-builder.js";

export interface Harness {
  emulator: Emulator;
  engine: QueryEngine;
  workspace: string;
  home: string;
  close(): Promise<void>;
}

/**
 * An emulator, a temp workspace with a few files, and an engine wired to both over real HTTP. The provider
 * is `fastProvider` with `providerOptions`, or what a function given there makes for the emulator.
 */
export async function startHarness(
  emulatorOptions: EmulatorOptions,
  engineOptions: Partial<QueryEngineOptions> = {},
  providerOptions: Record<string, unknown> | ((emulator: Emulator) => Provider) = {},
): Promise<Harness> {
  const emulator = await startEmulator(emulatorOptions);
  const workspace = await makeTempDir("ws");
  const home = await makeTempDir("home");
  await writeFile(join(workspace, "greet.ts"), 'export function greet(name: string) {\n  return "Helo, " + name;\n}\n');
  await writeFile(join(workspace, "README.md"), "# sample\nA tiny project.\n");
  const clock = stableClock();
  const engine = new QueryEngine({
    cwd: workspace,
    home,
    ...(clock ? { now: clock } : {}),
    provider:
      typeof providerOptions === "function" ? providerOptions(emulator) : fastProvider(emulator.url, providerOptions),
    permission: { mode: "bypassPermissions" },
    ...engineOptions,
  });
  return {
    emulator,
    engine,
    workspace,
    home,
    async close() {
      await engine.close();
      await emulator.close();
    },
  };
}

/** A session saved to disk: a temp workspace and home, and its transcript under the home. */
export interface SavedSession {
  workspace: string;
  home: string;
  path: string;
}

/** Saves `entries` as session SESSION_ID's transcript (`home/<name>.jsonl`), as a finished session leaves it. */
export async function saveSession(name: string, entries: readonly TimelineEntry[]): Promise<SavedSession> {
  const workspace = await makeTempDir("ws");
  const home = await makeTempDir("home");
  const path = join(home, `${name}.jsonl`);
  const store = await JsonlTranscriptStore.open({ sessionId: SESSION_ID, cwd: workspace, path, flushOnExit: false });
  for (const entry of entries) store.append(entry);
  await store.close();
  return { workspace, home, path };
}

/** Resumes a saved session against `emulator` over real HTTP, every permission granted. */
export async function resumeSavedEngine(
  saved: SavedSession,
  emulator: Emulator,
  options: Partial<QueryEngineOptions> = {},
): Promise<QueryEngine> {
  const resumed = await QueryEngine.resume(saved.path, {
    cwd: saved.workspace,
    home: saved.home,
    provider: fastProvider(emulator.url),
    permission: { mode: "bypassPermissions" },
    ...options,
  });
  return resumed.engine;
}

/** The real provider with instant backoff so fault tests stay fast. */
export function fastProvider(url: string, extra: Record<string, unknown> = {}): AnthropicProvider {
  return new AnthropicProvider({ baseURL: url, apiKey: "test-key-not-secret", sleep: async () => {}, ...extra });
}

export function turnEnd(events: EngineEvent[]): Extract<EngineEvent, { type: "turn_end" }> {
  const last = events.at(-1);
  if (last?.type !== "turn_end") throw new Error(`last event is ${last?.type}, not turn_end`);
  return last;
}

/** A read-only tool that sleeps and records when it ran, to observe concurrency. */
export function sleepyTool(
  log: Array<{ id: string; start: number; end: number }>,
  milliseconds = 150,
): Tool<{ id: string }> {
  return {
    name: "Sleepy",
    description: "Waits a moment and echoes its id.",
    inputSchema: z.strictObject({ id: z.string() }),
    compactable: true,
    isReadOnly: () => true,
    async call(input) {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, milliseconds));
      log.push({ id: input.id, start, end: performance.now() });
      return { content: `slept ${input.id}` };
    },
  };
}
