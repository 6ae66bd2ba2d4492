/**
 * Linear reads (docs/EXACTLY-ONCE.md): Read with offset/limit on a file that is one huge line streams it and
 * keeps only what it shows. Oracle: the literal head of the line and its length as written, and time: 20 MB
 * must cost about what 20 × 1 MB does (a quadratic read took 53 s on 20 MB).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../src/tools/files/read-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

let workspace: string;
beforeEach(async () => {
  workspace = await makeTempDirectory();
});
afterEach(() => removeDirectory(workspace));

async function timedRead(file: string, input: Record<string, unknown>): Promise<{ text: string; ms: number }> {
  const start = performance.now();
  const output = await runTool(readTool, { file_path: file, ...input }, makeContext(workspace), BYPASS);
  return { text: outputText(output.content), ms: performance.now() - start };
}

describe("Read on a huge single line", () => {
  it("shows the head of the line with its real length, in time linear in the file", async () => {
    const small = path.join(workspace, "small.txt");
    const big = path.join(workspace, "big.txt");
    await writeFile(small, `${"ab".repeat(512 * 1024)}\r\nsecond\n`);
    await writeFile(big, `${"ab".repeat(10 * 1024 * 1024)}\r\nsecond\n`);
    const warm = await timedRead(small, { offset: 1, limit: 1 });
    expect(warm.text).toContain(`${"ab".repeat(1000)}... [line truncated: ${1024 * 1024} characters]`);
    const baseline = Math.min(
      ...[await timedRead(small, { offset: 1, limit: 1 }), await timedRead(small, { offset: 1, limit: 1 })].map(
        (run) => run.ms,
      ),
    );
    const huge = await timedRead(big, { offset: 1, limit: 1 });
    expect(huge.text).toContain(`[line truncated: ${20 * 1024 * 1024} characters]`);
    expect(huge.text).toContain("The file continues; call Read with offset=2");
    // 20× the bytes: linear is ~20× the time; quadratic was ~400×. Allow a wide margin on a shared machine.
    expect(huge.ms).toBeLessThan(Math.max(baseline, 5) * 80);
    const second = await timedRead(big, { offset: 2, limit: 1 });
    expect(second.text).toBe("     2\tsecond");
  });
});
