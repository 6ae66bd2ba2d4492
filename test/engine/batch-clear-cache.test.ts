/**
 * A public-path batch clear reads its unchanged prefix from the prompt cache. The first placeholder of a
 * batch sits 30-39 blocks from the end, beyond the ~20-block lookback of the last breakpoint, so without the
 * relay markers the whole conversation after the system prompt was rewritten on every batch.
 *
 * The oracle is recomputed from the logged request bodies, not from threadline's code: the first block where
 * a request differs from the previous main request (cache_control and cache_reference ignored, as the cache
 * key ignores them), counted as the server counts blocks (tools, system blocks, message blocks), against the
 * blocks the emulator served from its cache.
 *
 * Mutations it catches (scripts/mutation-check.mjs): `relay-markers-off` (assembly ignores relayBefore:
 * every batch reads only the tools and system) and `relay-next-boundary-off` (a batch marks only its own
 * prefix, not the next batch's: every batch after the first misses).
 */

import type { RequestLogEntry } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import type { MessagesRequest } from "../../src/request/types.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import { runTask, taskSteps, writeDataFiles } from "./compaction-scenario.js";

const TASKS = 4;
const READS_PER_TASK = 10;
const FILES = 12;
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** The blocks the prompt cache sees in `body`, in order, as the bytes that enter its key. */
function cacheBlocks(body: MessagesRequest): string[] {
  const strip = (block: object): string => {
    const { cache_control: _marker, cache_reference: _reference, ...rest } = block as Record<string, unknown>;
    return JSON.stringify(rest);
  };
  const blocks: string[] = [];
  for (const tool of body.tools ?? []) blocks.push(`tool ${strip(tool)}`);
  for (const block of Array.isArray(body.system) ? body.system : []) blocks.push(`system ${strip(block)}`);
  for (const message of body.messages) {
    if (typeof message.content === "string") {
      blocks.push(`${message.role} ${JSON.stringify({ type: "text", text: message.content })}`);
      continue;
    }
    for (const block of message.content)
      if (block.type !== "cache_edits") blocks.push(`${message.role} ${strip(block)}`);
  }
  return blocks;
}

interface PrefixChange {
  request: number;
  /** Blocks before the first one that differs from the previous main request. */
  unchangedBlocks: number;
  /** Blocks of the previous request (the change is that many minus `unchangedBlocks` from its end). */
  previousBlocks: number;
  readBlocks: number;
}

/** Every main request whose prefix differs from the previous main request's, with what the cache served. */
function prefixChanges(records: readonly RequestLogEntry[]): PrefixChange[] {
  const changes: PrefixChange[] = [];
  let previous: string[] | undefined;
  for (const record of records) {
    if (record.path !== "/v1/messages" || record.status !== 200) continue;
    if (record.source !== "scenario" && record.source !== "reread") continue;
    const blocks = cacheBlocks(record.body as MessagesRequest);
    if (previous !== undefined) {
      let same = 0;
      while (same < previous.length && same < blocks.length && previous[same] === blocks[same]) same++;
      if (same < previous.length)
        changes.push({
          request: record.messagesRequest ?? record.index,
          unchangedBlocks: same,
          previousBlocks: previous.length,
          readBlocks: record.cacheReadBlocks ?? 0,
        });
    }
    previous = blocks;
  }
  return changes;
}

describe("public-path batch clears and the prompt cache", () => {
  it("every batch reads its unchanged prefix, though the first cleared block is past the 20-block lookback", async () => {
    const steps = Array.from({ length: TASKS }, (_, task) => taskSteps(task, READS_PER_TASK, FILES)).flat();
    const harness = await startHarness(
      { scenario: steps, contextWindow: 200_000 },
      { compaction: { cacheEdits: "off", autocompact: false }, contextWindow: 200_000, transcript: false },
    );
    harnesses.push(harness);
    await writeDataFiles(harness.workspace, FILES, 5_000);
    for (let task = 0; task < TASKS; task++) expect((await runTask(harness.engine, task)).end.reason).toBe("completed");
    const changes = prefixChanges(harness.emulator.requests);
    // At least two batches, so the second one depends on what the first left behind.
    expect(changes.length).toBeGreaterThanOrEqual(2);
    // The situation the relays are for: the first changed block sits beyond one lookback (20) from the end.
    for (const change of changes) expect(change.previousBlocks - change.unchangedBlocks).toBeGreaterThan(20);
    // The first batch reads what the rounds before it wrote: within one round (3 blocks) of its first change.
    const [first, ...later] = changes;
    expect(first!.readBlocks).toBeGreaterThanOrEqual(first!.unchangedBlocks - 3);
    expect(first!.readBlocks).toBeLessThanOrEqual(first!.unchangedBlocks);
    // Each later batch reads exactly its unchanged prefix: the entry the previous batch wrote there.
    expect(later.map((change) => change.readBlocks)).toEqual(later.map((change) => change.unchangedBlocks));
  });
});
