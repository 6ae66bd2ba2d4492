/**
 * `threadline emulator`: in-process with a stop promise, and as a real child process via tsx.
 */
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runEmulatorCommand } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";

const HEADERS = { "x-api-key": "k", "anthropic-version": "2023-06-01" };

/** `runEmulatorCommand(args)` in process: its printed lines, its URL once it listens, its exit, and a stop. */
async function startCommand(args: string[]) {
  let stop: () => void = () => {};
  const until = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const lines: string[] = [];
  const exit = runEmulatorCommand(args, {
    until,
    write: (line) => {
      lines.push(line);
      const match = line.match(/listening on (http:\/\/127\.0\.0\.1:\d+) /);
      if (match?.[1]) listening(match[1]);
    },
  });
  return { lines, base: await url, exit, stop };
}

describe("runEmulatorCommand", () => {
  it("prints its URL and serves until told to stop", async () => {
    const { lines, base, exit, stop } = await startCommand(["--port", "0"]);
    const models = await fetch(`${base}/v1/models`, { headers: HEADERS });
    expect(models.status).toBe(200);
    stop();
    expect(await exit).toBe(0);
    expect(lines[0]).toMatch(/^threadline emulator listening on http:\/\/127\.0\.0\.1:\d+ \(strict, public API\)$/);
    expect(models.headers.get("x-emulator-features")).toBeNull();
  });

  it("--help lists every flag and exits 0", async () => {
    const lines: string[] = [];
    expect(await runEmulatorCommand(["--help"], { write: (line) => lines.push(line) })).toBe(0);
    const help = lines.join("\n");
    for (const flag of ["--port", "--scenario", "--log", "--lenient", "--cache-editing", "--seed", "--help"]) {
      expect(help).toContain(flag);
    }
  });

  it("--cache-editing --lenient: announced on every response, logged with scrubbed headers", async () => {
    const directory = await makeTempDir("emulator-cli");
    const logPath = join(directory, "log.jsonl");
    const { lines, base, exit, stop } = await startCommand(["--cache-editing", "--lenient", "--log", logPath]);
    const response = await fetch(`${base}/v1/messages`, {
      method: "POST",
      headers: { ...HEADERS, "x-api-key": "sk-ant-secret-value", "content-type": "application/json" },
      // Lenient: a violation (an unknown field) is logged, and the request is still answered.
      body: JSON.stringify({
        model: "claude-sonnet-4",
        max_tokens: 10,
        bogus: 1,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-emulator-features")).toBe("cache-editing");
    stop();
    expect(await exit).toBe(0);
    expect(lines[0]).toContain("(lenient (violations logged, not rejected), announcing cache-editing)");
    const text = await readFile(logPath, "utf8");
    expect(text).not.toContain("sk-ant-secret-value");
    const record = JSON.parse(text.trim().split("\n")[0]!);
    expect(record.headers["x-api-key"]).toBe("[scrubbed]");
    expect(record.headers["anthropic-version"]).toBe("2023-06-01");
    expect(record.validation).toBe("lenient");
    expect(record.features).toEqual(["cache-editing"]);
    expect(record.violations.map((violation: { message: string }) => violation.message)).toEqual([
      "bogus: Extra inputs are not permitted",
    ]);
  });

  it("answers bad flags with one line and exit code 2", async () => {
    const errors: string[] = [];
    expect(await runEmulatorCommand(["--port", "abc"], { writeError: (line) => errors.push(line) })).toBe(2);
    expect(await runEmulatorCommand(["--colour"], { writeError: (line) => errors.push(line) })).toBe(2);
    expect(await runEmulatorCommand(["--mode", "llama"], { writeError: (line) => errors.push(line) })).toBe(2);
    expect(await runEmulatorCommand(["--usage", "some"], { writeError: (line) => errors.push(line) })).toBe(2);
    expect(await runEmulatorCommand(["--context-window", "0"], { writeError: (line) => errors.push(line) })).toBe(2);
    expect(errors).toHaveLength(5);
    expect(errors[2]).toBe("threadline emulator: --mode must be public or compatible, got llama");
    expect(errors.every((line) => line.startsWith("threadline emulator: ") && !line.includes("\n"))).toBe(true);
  });

  it("runs as a child process and stops on SIGTERM", async () => {
    const directory = await makeTempDir("emulator-cli");
    const entry = join(directory, "run.mts");
    const source = pathToFileURL(join(process.cwd(), "packages/emulator/src/index.ts")).href;
    await writeFile(
      entry,
      `import { runEmulatorCommand } from ${JSON.stringify(source)};\nprocess.exitCode = await runEmulatorCommand(process.argv.slice(2));\n`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", entry, "--port", "0"], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
        if (match?.[1]) resolve(match[1]);
      });
      child.on("exit", (code) => reject(new Error(`exited early with ${code}: ${output}`)));
    });
    const response = await fetch(`${url}/v1/messages`, {
      method: "POST",
      headers: { ...HEADERS, "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-sonnet-4", max_tokens: 10, messages: [{ role: "user", content: "ping" }] }),
    });
    expect(response.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
