/**
 * Issue 44: what a print-mode start does before its first request. The bubblewrap probe (a bwrap process the
 * CLI waits for) runs on the first Bash call, not at start-up: a session that runs no command starts no bwrap
 * process at all, and one that does starts it after its first request reached the server.
 *
 * Oracle: a stand-in `bwrap` first on PATH writes one line per invocation (its clock in milliseconds and its
 * arguments) into a file, then hands over to the real bwrap when there is one (else it fails as bwrap does
 * without user namespaces, so the CLI falls back to running commands directly). The emulator logs when each
 * request arrived on the same clock.
 *
 * And the young generation: bin/threadline sets V8's flags (src/cli/v8-flags.ts) before the CLI's bundle loads,
 * so the new space never grows past its start. Oracle: V8's own heap statistics at exit, which the CLI prints
 * with THREADLINE_REPORT_RSS=1 (the default growth took it to 8 MB in a one-request run). And no JavaScript is
 * optimized by TurboFan: node's own `--trace-opt` prints each optimization (a dozen in a one-request run without
 * the CLI's flags, none with them).
 *
 * And Node's own modules keep their code cache: V8 rejects a cache made under other flags, so bin/threadline loads
 * the built-in modules print mode uses before it sets its flags (src/cli/v8-flags.ts). Oracle: V8's
 * `--profile-deserialization` (a flag V8 leaves out of the hash it checks) prints "[Cached code failed check]" for
 * each rejected cache (77 in a one-request run when the flags were set first) and "[Deserializing from …]" for
 * each one used.
 */
import { spawn, spawnSync } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./build-once.js";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

/** The real bwrap on this machine's PATH when it can start here, else undefined. */
function realBwrap(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v bwrap"], { encoding: "utf8" });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === "") return undefined;
  const works = spawnSync(path, ["--ro-bind", "/", "/", "--unshare-pid", "true"], { encoding: "utf8" });
  return works.status === 0 ? path : undefined;
}

/** A directory holding the stand-in `bwrap`, and the file it logs to. The probe runs bwrap with an empty env. */
async function standInBwrap(): Promise<{ bin: string; log: string }> {
  const base = await harness.tempDir("start-up-bwrap");
  const bin = join(base, "bin");
  const log = join(base, "bwrap.log");
  await mkdir(bin);
  const real = realBwrap();
  const script = [
    "#!/bin/sh",
    "PATH=/usr/bin:/bin",
    `printf '%s %s\\n' "$(date +%s%3N)" "$*" >> '${log}'`,
    real === undefined
      ? "echo 'bwrap: No permissions to create new namespace (stand-in)' >&2; exit 1"
      : `exec '${real}' "$@"`,
    "",
  ].join("\n");
  await writeFile(join(bin, "bwrap"), script);
  await chmod(join(bin, "bwrap"), 0o755);
  return { bin, log };
}

async function logLines(log: string): Promise<{ at: number; args: string }[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => ({ at: Number(line.slice(0, line.indexOf(" "))), args: line.slice(line.indexOf(" ") + 1) }));
}

// The sandbox is bubblewrap, Linux only: elsewhere there is no probe to move (CI runs on Linux: never skipped there).
if (process.platform !== "linux") console.warn("start-up-work: skipped, the bubblewrap sandbox exists only on Linux");

describe.skipIf(process.platform !== "linux")("print mode's start-up work (issue 44)", () => {
  it("a session that runs no command never starts bwrap", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["Just text."] }, "start-up-none");
    const fake = await standInBwrap();
    const result = await runCli(["-p", "hello"], { cwd, env: { ...env, PATH: `${fake.bin}:${env.PATH ?? ""}` } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Just text.");
    expect(await logLines(fake.log)).toEqual([]);
  });

  it("the probe runs after the first request arrived, and the first Bash call still gets the sandbox", async () => {
    const bash = { type: "tool_use" as const, name: "Bash", input: { command: "echo lazy-probe-ok" } };
    const { emulator, cwd, env } = await harness.setup(
      { scenario: [{ content: [{ type: "text", text: "Running it." }, bash] }, "Done."] },
      "start-up-bash",
    );
    const fake = await standInBwrap();
    const result = await runCli(["-p", "run it", "--allowedTools", "Bash"], {
      cwd,
      env: { ...env, PATH: `${fake.bin}:${env.PATH ?? ""}` },
    });
    expect(result.code).toBe(0);
    const lines = await logLines(fake.log);
    const firstArrival = emulator.requests[0]?.receivedAt ?? Number.NaN;
    // The probe: bwrap's namespaces around `true`.
    expect(lines[0]?.args).toMatch(/ true$/);
    expect(lines[0]!.at).toBeGreaterThanOrEqual(firstArrival);
    // The command's output came back to the model.
    expect(JSON.stringify(emulator.requests[1]?.body)).toContain("lazy-probe-ok");
    // Where bwrap works, the command ran inside it (the probe's answer reached the Bash call).
    if (realBwrap() !== undefined) expect(lines[1]?.args).toContain("bash -c echo lazy-probe-ok");
    else expect(lines).toHaveLength(1);
  });

  it("the young generation keeps its starting size through a session (V8's heap statistics at exit)", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["Just text."] }, "start-up-heap");
    const result = await runCli(["-p", "hello"], { cwd, env: { ...env, THREADLINE_REPORT_RSS: "1" } });
    expect(result.code).toBe(0);
    const kilobytes = Number(/new space (\d+) KB/.exec(result.stderr)?.[1]);
    expect(kilobytes).toBeGreaterThan(0);
    expect(kilobytes).toBeLessThanOrEqual(4096);
  });

  it("no JavaScript function is optimized by TurboFan, from the bundle's load on (V8's --trace-opt)", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["Just text."] }, "start-up-opt");
    const child = spawn(process.execPath, ["--trace-opt", BIN, "-p", "hello"], { cwd, env, stdio: "pipe" });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stdout).toContain("Just text.");
    expect(stdout.split("\n").filter((line) => /compiling method|marking .* for optimization/.test(line))).toEqual([]);
  });

  it("every Node module a -p run loads is compiled from Node's code cache (V8's --profile-deserialization)", async () => {
    const { emulator, cwd, env } = await harness.setup({ scenario: ["Just text."] }, "start-up-code-cache");
    const child = spawn(process.execPath, ["--profile-deserialization", BIN, "-p", "hello"], {
      cwd,
      env,
      stdio: "pipe",
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stdout).toContain("Just text.");
    expect(emulator.requests).toHaveLength(1);
    const lines = stdout.split("\n");
    // The flag works here: caches were read (Node's modules loaded during the run, undici's among them).
    expect(lines.filter((line) => line.startsWith("[Deserializing from ")).length).toBeGreaterThan(50);
    expect(lines.filter((line) => line.startsWith("[Cached code failed check"))).toEqual([]);
  });
});
