import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzServerResponses } from "../../support/reliability/fuzz-sse.js";
import { fuzzToolInputs } from "../../support/reliability/fuzz-tools.js";
import {
  baseLines,
  checkHugeLines,
  checkTranscriptBytes,
  fuzzTranscriptLoader,
} from "../../support/reliability/fuzz-transcript.js";
import { makeTempDir } from "../../support/temp-dir.js";

/** `npm test` sizes; bench/fuzz.ts runs each property with many more runs. */
const RUNS = 300;
const FUZZ_SEED = 20_250_601;

describe("bad input never crashes the process", () => {
  it("transcript loader: random bytes, torn JSON, wrong types, spliced junk", async () => {
    // A fixed seed keeps `npm test` deterministic; bench/fuzz.ts explores with fresh seeds.
    await fuzzTranscriptLoader(RUNS, FUZZ_SEED);
  });

  // Found by the fuzzer: the loader once checked only each block's `type`, so `{"type":"text","text":0}`
  // loaded and request assembly threw on resume. Blocks are now validated field by field at the boundary.
  it("transcript loader: a text block with a non-string text is reported, not crashed on", async () => {
    const lines = baseLines();
    const entry = JSON.parse(lines[2] ?? "{}") as { message: { content: Array<{ text: unknown }> } };
    const block = entry.message.content[0];
    if (block !== undefined) block.text = 0;
    lines[2] = JSON.stringify(entry);
    const directory = await makeTempDir("fuzz-bug");
    try {
      expect(await checkTranscriptBytes(join(directory, "bug.jsonl"), `${lines.join("\n")}\n`)).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("transcript loader: an 8 MB entry and an 8 MB garbage line", async () => {
    expect(await checkHugeLines(8)).toEqual([]);
  });

  it("tool inputs: wrong types, missing fields, escapes and binary files through runTool", async () => {
    const tally = await fuzzToolInputs(RUNS, FUZZ_SEED);
    // Both outcomes must occur, or the fuzzer is not reaching the tools.
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.succeeded).toBeGreaterThan(0);
  });

  it("server responses: malformed SSE, wrong order, unknown events, bad input_json_delta", async () => {
    const tally = await fuzzServerResponses(RUNS, FUZZ_SEED);
    expect(tally.completed).toBeGreaterThan(0);
    expect(tally.errors).toBeGreaterThan(0);
  }, 120_000);
});
