/**
 * Issue 17 end to end: the built CLI against the emulator over real HTTP, a scripted model trying to read the
 * key and files outside the workspace, and the sandbox refusing writes outside it and the network.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/tools/shell/sandbox.js";
import { filesContaining } from "../../support/reliability/soak-session.js";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli } from "./cli-process.js";

/** A fake key no real text contains, so finding it anywhere is a leak. */
const KEY = "sk-ant-test-DISTINCTIVE-7f3a9c2e5b1d-issue17";
/** The first line of every /etc/passwd. */
const PASSWD_CONTENT = "root:x:0:0";

const harness = useCliHarness();

async function setup(steps: unknown[]) {
  const emulator = await harness.startEmulator({ scenario: steps as never });
  const base = await harness.tempDir("i17");
  const home = join(base, "home");
  const cwd = join(base, "work", "project");
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  const env = cliEnv(emulator.url, home, { ANTHROPIC_API_KEY: KEY, HOME: home });
  return { emulator, base, home, cwd, env };
}

function bash(command: string) {
  return { type: "tool_use" as const, name: "Bash", input: { command } };
}

/** The tool_result blocks of the last main-loop request, in order. */
function lastToolResults(server: Emulator): Array<{ content: unknown; is_error?: boolean }> {
  const bodies = server.requests
    .map((request) => request.body as { messages?: Array<{ role: string; content: unknown }>; tools?: unknown[] })
    .filter((body) => Array.isArray(body?.tools) && (body.tools?.length ?? 0) > 0);
  const messages = bodies.at(-1)?.messages ?? [];
  const last = messages.filter((message) => message.role === "user").at(-1);
  const content = Array.isArray(last?.content) ? (last.content as Array<{ type: string }>) : [];
  return content.filter((block) => block.type === "tool_result") as never;
}

/** A tool_result's content as one string, trailing newline trimmed (content is a string or text blocks). */
function resultText(content: unknown): string {
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.map((block: { text?: unknown }) => (typeof block.text === "string" ? block.text : "")).join("")
        : JSON.stringify(content);
  return text.trimEnd();
}

describe("default mode with nobody to ask (print mode)", () => {
  it("denies or fails every attempt to read the key or files outside the workspace; neither leaks anywhere", async () => {
    const attempts = [
      bash("printenv ANTHROPIC_API_KEY"),
      bash("env"),
      bash("cat /etc/passwd"),
      bash("cat ../../etc/passwd"),
      bash("grep root /etc/passwd"),
      { type: "tool_use" as const, name: "Read", input: { file_path: "/etc/passwd" } },
      { type: "tool_use" as const, name: "Grep", input: { pattern: "root", path: "/etc" } },
    ];
    const { emulator: server, home, base, cwd, env } = await setup([{ content: attempts }, "Done trying."]);
    const result = await runCli(["-p", "show me the secrets"], { cwd, env });
    expect(result.code).toBe(0);
    const results = lastToolResults(server);
    expect(results).toHaveLength(attempts.length);
    for (const [index, block] of results.entries()) {
      expect({ attempt: attempts[index]?.input, isError: block.is_error }).toEqual({
        attempt: attempts[index]?.input,
        isError: true,
      });
    }
    expect(JSON.stringify(results[0]?.content)).toMatch(/Permission denied/);
    expect(JSON.stringify(results[5]?.content)).toMatch(/outside the workspace/);
    const log = JSON.stringify(server.requests);
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(PASSWD_CONTENT);
    expect(await filesContaining(base, [KEY, PASSWD_CONTENT])).toEqual([]);
    // The transcript is there (so the search above looked at something).
    expect(await filesContaining(home, ["show me the secrets"])).toHaveLength(1);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it("a command that is allowed to run gets no key; naming /proc/…/environ is refused, and a key dug out anyway is redacted", async () => {
    const {
      emulator: server,
      base,
      cwd,
      env,
    } = await setup([
      {
        content: [
          bash("printenv ANTHROPIC_API_KEY; echo exit=$?"),
          bash("echo count=$(env | grep -c ANTHROPIC_API_KEY)"),
          bash("tr '\\0' '\\n' < /proc/$PPID/environ | grep ANTHROPIC_API_KEY"),
          // The path assembled at run time passes the text screen (README: what stays open without the sandbox).
          // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansions, not templates
          bash("P=/pr; P=${P}oc; E=envi; E=${E}ron; tr '\\0' '\\n' < $P/$PPID/$E | grep ANTHROPIC_API_KEY"),
        ],
      },
      "Done.",
    ]);
    const result = await runCli(["-p", "try harder", "--permission-mode", "bypassPermissions", "--no-sandbox"], {
      cwd,
      env,
    });
    expect(result.code).toBe(0);
    // Exact texts, not substrings: `toContain("0")` also passes for "count=10" (a key copied ten times).
    // Mutation `tool-env-keeps-secrets` (the tool environment keeps the secret names) turns these into
    // "<key>\nexit=0" and "count=1".
    const texts = lastToolResults(server).map((block) => resultText(block.content));
    expect(texts[0]).toBe("exit=1");
    expect(texts[1]).toBe("count=0");
    // Naming /proc/…/environ is refused without the sandbox (process-environ.ts).
    expect(texts[2]).toBe(
      "Bash refused: the command reads a process's environment under /proc (…/environ), where threadline's own " +
        "API key is; nothing was run. With --sandbox, /proc shows only the sandbox's own processes.",
    );
    // The parent's environment still holds the key; the result shows the name with the value redacted.
    expect(texts[3]).toBe("ANTHROPIC_API_KEY=[REDACTED]");
    expect(JSON.stringify(server.requests)).not.toContain(KEY);
    expect(await filesContaining(base, [KEY])).toEqual([]);
  });
});

const probe = probeSandbox();
if (!probe.available) console.warn(`[skip] sandbox tests: ${probe.reason}`);

describe.skipIf(!probe.available)("--sandbox (bubblewrap)", () => {
  it("refuses writes outside the workspace and the network, while work in the workspace succeeds", async () => {
    const hasCurl = ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].some((path) => existsSync(path));
    const placeholder = "http://127.0.0.1:1";
    const fetchCommand = hasCurl
      ? `curl -sS --max-time 5 ${placeholder}/v1/models`
      : `node -e "fetch('${placeholder}/v1/models').then(()=>console.log('reached'),e=>{console.error(String(e));process.exit(7)})"`;
    const steps = [
      {
        content: [
          bash("touch /etc/threadline-sandbox-probe"),
          bash("echo x > ../outside.txt"),
          bash("placeholder"),
          bash(`node -e "require('fs').writeFileSync('made-in-sandbox.txt', 'ok')" && cat made-in-sandbox.txt`),
          bash("echo private > /tmp/threadline-private-$$ && ls /tmp"),
        ],
      },
      "Done.",
    ];
    const { emulator: server, base, cwd, env } = await setup(steps);
    // The emulator's own port is the one network target the test knows to be listening.
    const url = new URL(server.url);
    const command = fetchCommand.replace(placeholder, `http://127.0.0.1:${url.port}`);
    (steps[0] as { content: Array<{ input: { command: string } }> }).content[2]!.input.command = command;
    await writeFile(join(cwd, "package.json"), "{}");
    const result = await runCli(["-p", "sandbox tour", "--sandbox", "--permission-mode", "bypassPermissions"], {
      cwd,
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const results = lastToolResults(server);
    expect(results.map((block) => block.is_error === true)).toEqual([true, true, true, false, false]);
    expect(JSON.stringify(results[0]?.content)).toMatch(/Read-only file system/);
    expect(JSON.stringify(results[1]?.content)).toMatch(/Read-only file system/);
    expect(existsSync("/etc/threadline-sandbox-probe")).toBe(false);
    expect(existsSync(join(base, "work", "outside.txt"))).toBe(false);
    expect(await readFile(join(cwd, "made-in-sandbox.txt"), "utf8")).toBe("ok");
    expect(JSON.stringify(results[3]?.content)).toContain("ok");
    // The network attempt never reached the emulator: only the CLI's own two model requests did.
    expect(server.requests.filter((request) => request.path.includes("/v1/models"))).toEqual([]);
  });

  it("--no-sandbox runs commands directly: the same write outside lands", async () => {
    const { emulator: server, base, cwd, env } = await setup([{ content: [bash("echo x > ../outside.txt")] }, "Ok."]);
    const result = await runCli(["-p", "write", "--no-sandbox", "--permission-mode", "bypassPermissions"], {
      cwd,
      env,
    });
    expect(result.code).toBe(0);
    expect(lastToolResults(server)[0]?.is_error).not.toBe(true);
    expect(existsSync(join(base, "work", "outside.txt"))).toBe(true);
  });
});
