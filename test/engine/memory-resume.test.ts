/**
 * Resume sends the recorded memory bytes: a session whose CLAUDE.md changed on disk after it started sends,
 * when resumed, the very first user message it sent before (from the transcript, not from the file), and
 * loads no nested file twice.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmulatorRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function withoutMarkers(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(',"cache_control":{"type":"ephemeral"}', ""));
}

describe("memory files on resume", () => {
  it("the resumed request carries the recorded memory text, not the file as it is now", async () => {
    const userHome = await mkdtemp(join(tmpdir(), "threadline-user-"));
    const env = { PATH: process.env.PATH ?? "", HOME: userHome };
    harness = await startHarness(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Read", input: { file_path: "src/x/a.ts" } }] },
          "Read it.",
          "Still here.",
        ],
      },
      { env },
    );
    const workspace = harness.workspace;
    await mkdir(join(workspace, ".git"), { recursive: true });
    await mkdir(join(workspace, "src", "x"), { recursive: true });
    await writeFile(join(workspace, "CLAUDE.md"), "Rule as it was at start.\n");
    await writeFile(join(workspace, "src", "x", "CLAUDE.md"), "Nested rule.\n");
    await writeFile(join(workspace, "src", "x", "a.ts"), "export const a = 1;\n");
    expect(turnEnd(await collect(harness.engine.submitMessage("Read a.ts."))).reason).toBe("completed");
    await harness.engine.close();
    const path = harness.engine.transcriptPath!;
    await writeFile(join(workspace, "CLAUDE.md"), "Rule changed on disk since.\n");
    const { engine } = await QueryEngine.resume(path, {
      cwd: workspace,
      home: harness.home,
      provider: fastProvider(harness.emulator.url),
      permission: { mode: "bypassPermissions" },
      env,
    });
    expect(turnEnd(await collect(engine.submitMessage("Anything else?"))).reason).toBe("completed");
    await engine.close();
    const bodies = harness.emulator.requests
      .filter((record) => record.path === "/v1/messages")
      .map((record) => record.body as EmulatorRequest);
    expect(bodies).toHaveLength(3);
    const before = withoutMarkers(bodies[1]!.messages) as unknown[];
    const after = withoutMarkers(bodies[2]!.messages) as unknown[];
    // Mutation caught: start() re-reading the files on resume (both guards removed: the session-start check
    // and the files adopted from the transcript; the changed rule would be attached again).
    expect(after.slice(0, before.length)).toEqual(before);
    const text = JSON.stringify(bodies[2]!.messages);
    expect(text).toContain("Rule as it was at start.");
    expect(text).not.toContain("Rule changed on disk since.");
    expect(text.split("Nested rule.").length - 1).toBe(1);
  });
});
