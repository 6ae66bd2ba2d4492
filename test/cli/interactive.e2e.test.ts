import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./build-once.js";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, startCli, waitFor } from "./cli-process.js";

const harness = useCliHarness();

/** Strips ANSI escapes and carriage returns so assertions read the visible text. */
function visible(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
}

describe("interactive mode under a pseudo-terminal", () => {
  it("streams the answer, asks before a write, and /cost prints numbers", async () => {
    const emulator = await harness.startEmulator({
      scenario: [
        {
          content: [
            { type: "text", text: "Creating the file." },
            { type: "tool_use", name: "Bash", input: { command: "touch made-by-tool.txt" } },
          ],
        },
        "The file is there: streamed answer.",
      ],
    });
    const home = await harness.tempDir("tty-home");
    const cwd = await harness.tempDir("tty-cwd");
    // script(1) gives the CLI a real pseudo-terminal on stdin and stdout.
    const child = spawn("script", ["-qfc", `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`, "/dev/null"], {
      cwd,
      env: { ...cliEnv(emulator.url, home), TERM: "xterm" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const type = (text: string) => child.stdin.write(`${text}\r`);

    await waitFor(() => visible(output).includes("> "));
    type("please make the file");
    await waitFor(() => visible(output).includes("Allow Bash(touch made-by-tool.txt)"));
    type("y");
    await waitFor(() => visible(output).includes("The file is there: streamed answer."));
    await waitFor(() => /ctx \d+% .* cache \d+% · \$\d/.test(visible(output)));
    expect(existsSync(join(cwd, "made-by-tool.txt"))).toBe(true);
    type("/cost");
    await waitFor(() => visible(output).includes("Cache hit ratio:"));
    const cost = visible(output).slice(visible(output).lastIndexOf("/cost"));
    expect(cost).toMatch(/Total cost: +\$\d+\.\d{4}/);
    expect(cost).toMatch(/Model requests: +2 over 1 prompt/);
    expect(cost).toMatch(/Tool calls: +1 \(0 failed\)/);
    type("/exit");
    expect(await closed).toBe(0);
    expect(visible(output)).toContain("Transcript: ");
  });
});

describe("interactive mode without a TTY", () => {
  it("reads prompts line by line and prints plain lines", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["first plain answer", "second plain answer"] }, "plain");
    const result = await startCli([], { cwd, env, input: "hello\n/context\nagain\n" }).done;
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/\x1b\[/);
    expect(result.stdout).toContain("> hello\nfirst plain answer\n");
    expect(result.stdout).toContain("> again\nsecond plain answer\n");
    expect(result.stdout).toMatch(/Context for the next request \(estimated\)/);
    expect(result.stdout).toMatch(/messages \(2\)/);
  });

  it("/compact summarises the conversation and the next prompt starts from the summary", async () => {
    const { emulator, cwd, env } = await harness.setup(
      { scenario: ["first plain answer", "after compaction"] },
      "compact",
    );
    const input = "remember the word MARMALADE\n/compact keep the word\nwhat was the word?\n";
    const result = await startCli([], { cwd, env, input }).done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Compacting…");
    expect(result.stdout).toMatch(/Compacted: ~[\d,]+ → ~[\d,]+ tokens\./);
    const bodies = emulator.requests
      .filter((request) => request.status === 200)
      .map((request) => JSON.stringify(request.body));
    // a summary request carrying the extra instructions, then a main request that starts from the summary
    expect(bodies.some((body) => body.includes("keep the word"))).toBe(true);
    expect(bodies.at(-1)).toContain("This session is being continued from a previous conversation");
  });
});
