/**
 * Read and Grep refuse FIFOs and devices instead of hanging (issue 53 item 5). Oracle: the call returns an
 * error naming the kind of file within a deadline (a FIFO with no writer would block the open forever), and a
 * writer that opens the FIFO afterwards finds no reader left (nothing was opened).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { grepTool } from "../../src/tools/files/grep-tool.js";
import { readTool } from "../../src/tools/files/read-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import type { ToolOutput } from "../../src/tools/types.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "../tools/tool-test-context.js";

let workspace: string;
beforeEach(async () => {
  workspace = await makeTempDirectory("special-files");
});
afterEach(() => removeDirectory(workspace));

/** The call's output, or a failure when it has not returned within 5 s (it hangs). */
async function within(call: Promise<ToolOutput>): Promise<ToolOutput> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the call did not return within 5 s")), 5_000);
  });
  try {
    return await Promise.race([call, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe("FIFOs and devices are refused, not opened", () => {
  it("Read and Grep of a FIFO return one line at once", async () => {
    const fifo = path.join(workspace, "pipe");
    execFileSync("mkfifo", [fifo]);
    const read = await within(runTool(readTool, { file_path: "pipe" }, makeContext(workspace), BYPASS));
    expect(read.isError).toBe(true);
    expect(outputText(read.content)).toBe(
      `Read refused ${fifo}: it is a FIFO (named pipe), not a regular file; opening it could wait forever. Nothing was read.`,
    );
    const grep = await within(runTool(grepTool, { pattern: "x", path: "pipe" }, makeContext(workspace), BYPASS));
    expect(grep.isError).toBe(true);
    expect(outputText(grep.content)).toContain(`Grep refused ${fifo}: it is a FIFO (named pipe)`);
  });

  it("Read of a character device (/dev/zero, an allowed directory) is refused", async () => {
    const read = await within(
      runTool(
        readTool,
        { file_path: "/dev/zero" },
        makeContext(workspace, { additionalDirectories: ["/dev"] }),
        BYPASS,
      ),
    );
    expect(read.isError).toBe(true);
    expect(outputText(read.content)).toContain("/dev/zero: it is a character device");
  });
});
