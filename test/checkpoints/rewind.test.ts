/**
 * Rewind over real HTTP (docs/REWIND.md): five prompts whose turns write files with Write and Bash, then a
 * rewind to prompt 2. Oracles of their own: sha256 of every workspace file taken by this test before prompt 3,
 * the emulator's logged body hash of the request originally sent after prompt 2, and a fresh resume.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import type { EngineEvent } from "../../src/loop/events.js";
import { fastProvider, type Harness, startHarness } from "../../support/engine-harness.js";

const write = (file: string, content: string) => ({
  type: "tool_use" as const,
  name: "Write",
  input: { file_path: file, content },
});
const bash = (command: string) => ({ type: "tool_use" as const, name: "Bash", input: { command } });
const BIG = 1024 * 1024 + 10;

/** Two requests a turn: the tool call(s), then a closing text. */
const SCENARIO = [
  { content: [write("a.txt", "a from prompt 1\n")] },
  "done 1",
  { content: [write("b.txt", "b from prompt 2\n")] },
  "done 2",
  { content: [write("a.txt", "a from prompt 3\n"), bash("printf 'made by bash' > c.txt")] },
  "done 3",
  { content: [bash("printf 'changed by bash' > README.md && printf 'x' >> big.bin"), write("a.txt", "a from 4\n")] },
  "done 4",
  { content: [write("b.txt", "b from prompt 5\n"), write("greet.ts", "// rewritten\n")] },
  "done 5",
  "done 3 again",
  "done 3 after resume",
];

async function hashes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    out[name] = createHash("sha256")
      .update(await readFile(join(dir, name)))
      .digest("hex");
  }
  return out;
}

async function run(engine: QueryEngine, prompt: string): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  for await (const event of engine.submitMessage(prompt)) events.push(event);
  return events;
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("rewind to prompt 2 of 5", () => {
  it("puts every file back as it was before prompt 3, and the next request is the one sent after prompt 2", async () => {
    harness = await startHarness({ scenario: SCENARIO }, { fileCheckpointing: true, sessionMemory: false });
    const { engine, emulator, workspace } = harness;
    await writeFile(join(workspace, "big.bin"), Buffer.alloc(BIG, 7));
    await run(engine, "prompt one");
    await run(engine, "prompt two");
    const beforeThree = await hashes(workspace);
    const sentAfterTwo = emulator.requests.length;
    await run(engine, "prompt three");
    const original = emulator.requests[sentAfterTwo]!;
    await run(engine, "prompt four");
    await run(engine, "prompt five");
    expect(existsSync(join(workspace, "c.txt"))).toBe(true);

    const outcome = await engine.rewind("2", "both");

    const after = await hashes(workspace);
    const { "big.bin": bigAfter, ...restAfter } = after;
    const { "big.bin": bigBefore, ...restBefore } = beforeThree;
    expect(restAfter).toEqual(restBefore);
    expect(bigAfter).not.toBe(bigBefore); // too big to keep: left as Bash made it, and named
    expect(outcome.notRestorable.map((item) => item.path)).toEqual(["big.bin"]);
    expect(outcome.restored.sort()).toEqual(["README.md", "a.txt", "b.txt", "c.txt", "greet.ts"]);

    const sentAfterRewind = emulator.requests.length;
    await run(engine, "prompt three");
    expect(emulator.requests[sentAfterRewind]!.bodySha256).toBe(original.bodySha256);

    // Resume the rewound session from disk: the same branch, so the same bytes again.
    const path = engine.transcriptPath!;
    const branch = engine.timeline.entries.map((entry) => ("uuid" in entry ? entry.uuid : entry.type));
    await engine.close();
    const { engine: resumed } = await QueryEngine.resume(path, {
      cwd: workspace,
      home: harness.home,
      provider: fastProvider(emulator.url),
      permission: { mode: "bypassPermissions" },
      sessionMemory: false,
      fileCheckpointing: true,
    });
    expect(resumed.timeline.entries.map((entry) => ("uuid" in entry ? entry.uuid : entry.type))).toEqual(branch);
    // Nothing was removed: the rewound prompts are still in the transcript, listed and reachable.
    const points = (await import("../../src/engine/rewind.js")).rewindPoints(resumed.timeline);
    expect(points.map((point) => [point.text, point.number])).toEqual([
      ["prompt one", 1],
      ["prompt two", 2],
      ["prompt three", undefined],
      ["prompt four", undefined],
      ["prompt five", undefined],
      ["prompt three", 3],
    ]);
    await resumed.rewind("2", "conversation");
    const sentAfterResume = emulator.requests.length;
    await run(resumed, "prompt three");
    expect(emulator.requests[sentAfterResume]!.bodySha256).toBe(original.bodySha256);
    await resumed.close();
  });
});
