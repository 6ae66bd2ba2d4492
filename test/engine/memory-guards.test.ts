/**
 * Two memory guards an audit (issue 45) found untested, checked on the logged requests over real HTTP:
 * - a nested CLAUDE.md is attached after a Grep that searched its folder (the test runs Grep itself);
 * - after a server compaction block, the request still holds the memory files: the block cuts off everything
 *   before it (request/server-compaction.ts), the session-start memory included, so memory is re-attached after
 *   the block (docs/MEMORY.md "Kept through compaction").
 * Oracle: the rule texts written to disk, looked for in the request bodies the emulator logged.
 *
 * Mutations caught (scripts/mutation-check.mjs): `nested-memory-grep-off` (Grep dropped from the tools that
 * attach nested files), `memory-reattach-ignores-server-block` (`fromLastCompaction()` dropped in
 * loop/stages/stage-compact.ts, so memory still before the block counts as visible).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RequestLogEntry } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";

const NESTED_RULE = "Nested rule N7: code under src/x is pure.";
const ROOT_RULE = "Root rule R7: every reply ends with the ticket number.";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function posts(h: Harness): RequestLogEntry[] {
  return h.emulator.requests.filter((entry) => entry.path === "/v1/messages" && entry.status === 200);
}

/** How many times `text` occurs in a request's messages (as JSON, where newlines are escaped). */
function occurrences(entry: RequestLogEntry, text: string): number {
  return JSON.stringify((entry.body as { messages: unknown }).messages).split(text).length - 1;
}

/** A workspace as a repository: `.git`, a root CLAUDE.md, and a nested src/x/CLAUDE.md beside code. */
async function layOut(workspace: string): Promise<void> {
  await mkdir(join(workspace, ".git"), { recursive: true });
  await mkdir(join(workspace, "src", "x"), { recursive: true });
  await writeFile(join(workspace, "CLAUDE.md"), `${ROOT_RULE}\n`);
  await writeFile(join(workspace, "src", "x", "CLAUDE.md"), `${NESTED_RULE}\n`);
  await writeFile(join(workspace, "src", "x", "a.ts"), "export const answer = 42;\n");
}

describe("memory guards on the wire", () => {
  it("a Grep over src/x attaches src/x/CLAUDE.md to the next request, once", async () => {
    harness = await startHarness(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Grep", input: { pattern: "answer", path: "src/x" } }] },
          "Found it.",
        ],
      },
      { env: { PATH: process.env.PATH ?? "", HOME: await makeTempDir("home") } },
    );
    await layOut(harness.workspace);
    expect(turnEnd(await collect(harness.engine.submitMessage("Where is the answer?"))).reason).toBe("completed");
    const [first, second] = posts(harness);
    expect(occurrences(first!, ROOT_RULE)).toBe(1);
    expect(occurrences(first!, NESTED_RULE)).toBe(0);
    // Mutation caught: Grep not in the tools that attach nested files (the rule never arrives).
    expect(occurrences(second!, NESTED_RULE)).toBe(1);
    expect(JSON.stringify((second!.body as { messages: unknown }).messages)).toContain("a.ts");
  });

  it("after a server compaction block, every request still holds the memory file once", async () => {
    const model = "claude-sonnet-4-20250514";
    const bigPrompt = (turn: number) =>
      `Turn ${turn}. Log follows. ${"The build failed at step 4 with exit code 2. ".repeat(Math.ceil((30_000 * 4) / 45))}`;
    harness = await startHarness(
      { scenario: ["One.", "Two.", "Three.", "Four."] },
      {
        model,
        serverCompaction: { triggerTokens: 50_000 },
        env: { PATH: process.env.PATH ?? "", HOME: await makeTempDir("home") },
      },
      { capabilities: { serverCompaction: true, betas: true } },
    );
    await layOut(harness.workspace);
    for (let turn = 0; turn < 4; turn++)
      expect(turnEnd(await collect(harness.engine.submitMessage(bigPrompt(turn)))).reason).toBe("completed");
    const sent = posts(harness);
    const afterBlock = sent.filter((entry) => JSON.stringify(entry.body).includes('"type":"compaction"'));
    // The scenario crosses the trigger (the test is about what follows a block).
    expect(afterBlock.length).toBeGreaterThanOrEqual(2);
    // Mutation caught: memory before the block counted as visible (the rule is cut off with it).
    for (const entry of sent) expect(occurrences(entry, ROOT_RULE)).toBe(1);
  });
});
