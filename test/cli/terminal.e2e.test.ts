/**
 * The interactive mode in a real pseudo-terminal (tmux, 120×40): what a person sees and what reaches the
 * server. Each test starts its own tmux server on a unique socket and kills it afterwards. Skipped, with a
 * notice, where tmux is not installed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator, type Turn } from "../../src/emulator/index.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { BIN, buildOnce } from "./build-once.js";
import { cliEnv, waitFor } from "./cli-process.js";

const HAVE_TMUX = spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
if (!HAVE_TMUX) console.warn("terminal.e2e: tmux is not installed; the pseudo-terminal tests are skipped");

let emulator: Emulator | undefined;
let socket: string | undefined;
let sockets = 0;
const directories: string[] = [];

beforeAll(() => {
  if (HAVE_TMUX) buildOnce();
});

afterEach(async () => {
  if (socket !== undefined) spawnSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  socket = undefined;
  await emulator?.close();
  emulator = undefined;
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

function tmux(...args: string[]): string {
  if (socket === undefined) throw new Error("no tmux server");
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
}

/** The whole pane, scrollback included, as plain text. */
function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "0");
}

/** Starts the built CLI (no key: the emulator is a non-Anthropic server) in a 120×40 tmux pane. */
async function startTerminal(turns: Turn[], files: Record<string, string> = {}): Promise<{ cwd: string }> {
  emulator = await startEmulator({ scenario: turns });
  const home = await makeTempDir("tmux-home");
  const cwd = await makeTempDir("tmux-cwd");
  directories.push(home, cwd);
  for (const [name, content] of Object.entries(files)) await writeFile(join(cwd, name), content);
  const { ANTHROPIC_API_KEY: _key, NO_COLOR: _noColor, ...env } = cliEnv(emulator.url, home);
  socket = `threadline-test-${process.pid}-${++sockets}-${Date.now()}`;
  execFileSync(
    "tmux",
    ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", cwd, process.execPath, BIN],
    { env: { ...env, TERM: "xterm-256color" } },
  );
  await waitFor(() => /^> /m.test(screen()));
  return { cwd };
}

/** Main-loop request bodies (those that carry tools). */
function mainRequests(): Array<{ messages: Array<{ role: string; content: unknown }> }> {
  return (emulator?.requests ?? [])
    .filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))
    .map((request) => request.body as { messages: Array<{ role: string; content: unknown }>; tools?: unknown[] })
    .filter((body) => Array.isArray((body as { tools?: unknown[] }).tools));
}

describe.skipIf(!HAVE_TMUX)("interactive mode in tmux", () => {
  it("a bracketed paste of three lines is one prompt and one request; markdown renders; the status line stays", async () => {
    await startTerminal(["Here is **bold** text, `code`, and a list:\n\n- first item\n- second item\n"]);
    tmux("send-keys", "-t", "0", "-l", "\x1b[200~alpha line\nbeta line\ngamma line\x1b[201~");
    await waitFor(() => screen().includes("gamma line"));
    expect(mainRequests()).toHaveLength(0); // the paste alone submits nothing
    tmux("send-keys", "-t", "0", "Enter");
    await waitFor(() => screen().includes("second item"));
    await waitFor(() => /^ctx \d+% .*\$\d/m.test(screen()));
    // The emulator logs a request once its response has ended, which may be just after the screen shows it.
    await waitFor(() => mainRequests().length > 0);
    const requests = mainRequests();
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests[0]?.messages.at(-1)?.content)).toContain("alpha line\\nbeta line\\ngamma line");
    await waitFor(() => /^ctx \d+% .*\$\d/m.test(screen()));
    const text = screen();
    expect(text).toContain("Here is bold text, code, and a list:");
    expect(text).not.toContain("**");
    expect(text).toMatch(/• first item/);
    // The status line is the last line on screen, under the prompt.
    const lines = text.trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(/^ctx \d+% \(.*\) · in .* · out .* · cache \d+% · \$\d/);
    expect(lines.at(-2)).toMatch(/^>\s*$/);
  }, 60_000);

  it("an approved Edit shows its diff, in the question and after it ran", async () => {
    const { cwd } = await startTerminal(
      [
        {
          content: [
            { type: "tool_use", name: "Edit", input: { file_path: "notes.txt", old_string: "two", new_string: "TWO" } },
          ],
        },
        "Edited the notes.",
      ],
      { "notes.txt": "one\ntwo\nthree\n" },
    );
    tmux("send-keys", "-t", "0", "-l", "fix the notes");
    tmux("send-keys", "-t", "0", "Enter");
    await waitFor(() => screen().includes("Allow Edit(notes.txt)?"));
    expect(screen()).toMatch(/2 - two\n\s+2 \+ TWO/);
    tmux("send-keys", "-t", "0", "-l", "y");
    await waitFor(() => screen().includes("Edited the notes."));
    expect(screen()).toMatch(/✓ notes\.txt \(\+1 -1\)\n\s+2 - two\n\s+2 \+ TWO/);
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("one\nTWO\nthree\n");
  }, 60_000);

  it("Esc interrupts a running tool, and text typed meanwhile stays in the prompt", async () => {
    await startTerminal([
      { content: [{ type: "tool_use", name: "Bash", input: { command: "sleep 30" } }] },
      "never reached",
    ]);
    tmux("send-keys", "-t", "0", "-l", "wait a while");
    tmux("send-keys", "-t", "0", "Enter");
    await waitFor(() => screen().includes("Allow Bash(sleep 30)?"));
    tmux("send-keys", "-t", "0", "-l", "y");
    await waitFor(() => /Running Bash\(sleep 30\)… · \d+s/.test(screen()));
    tmux("send-keys", "-t", "0", "-l", "next question");
    await waitFor(() => screen().includes("> next question"));
    tmux("send-keys", "-t", "0", "Escape");
    await waitFor(() => screen().includes("Interrupted."), 15_000);
    expect(screen()).toContain("> next question");
    expect(screen()).not.toContain("never reached");
  }, 60_000);
});
