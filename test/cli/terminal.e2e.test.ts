/**
 * The interactive mode in a real pseudo-terminal (tmux, 120×40): what a person sees and what reaches the
 * server. Each test starts its own tmux server on a unique socket and kills it afterwards. Skipped, with a
 * notice, where tmux is not installed.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator, type Turn } from "../../src/emulator/index.js";
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

/** The whole pane, scrollback included, as plain text (wrapped rows joined). */
function screen(): string {
  return tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "0");
}

/** A pattern for `text` where the terminal may have wrapped any space (or broken a long word). */
function wrapped(text: string): RegExp {
  const escaped = [...text].map((char) => (char === " " ? "\\s+" : char.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(escaped.join("\\s*"));
}

/** The pane's rows as the terminal shows them (no joining): what fits and what the terminal had to wrap. */
function rows(): string[] {
  return tmux("capture-pane", "-p", "-S", "-500", "-t", "0").trimEnd().split("\n");
}

/** Starts the built CLI (no key: the emulator is a non-Anthropic server) in a `columns`×40 tmux pane. */
async function startTerminal(
  turns: Turn[],
  files: Record<string, string> = {},
  columns = 120,
): Promise<{ cwd: string }> {
  emulator = await startEmulator({ scenario: turns });
  const home = await mkdtemp(join(tmpdir(), "threadline-tmux-home-"));
  const cwd = await mkdtemp(join(tmpdir(), "threadline-tmux-cwd-"));
  directories.push(home, cwd);
  for (const [name, content] of Object.entries(files)) await writeFile(join(cwd, name), content);
  const { ANTHROPIC_API_KEY: _key, NO_COLOR: _noColor, ...env } = cliEnv(emulator.url, home);
  socket = `threadline-test-${process.pid}-${++sockets}-${Date.now()}`;
  execFileSync(
    "tmux",
    [
      "-L",
      socket,
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-x",
      String(columns),
      "-y",
      "40",
      "-c",
      cwd,
      process.execPath,
      BIN,
    ],
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

  const WRITE_FILE: Turn[] = [
    {
      content: [
        { type: "text", text: "I'll write the file." },
        { type: "tool_use", name: "Bash", input: { command: "echo hello > created-by-the-tool.txt" } },
      ],
    },
    "MODEL CALLED AGAIN",
  ];

  for (const columns of [40, 120]) {
    for (const key of ["Escape", "C-c"]) {
      // Mutation caught: the question answering "n" on Esc/Ctrl-C (the old behaviour) makes a second request
      // that answers "MODEL CALLED AGAIN"; cutting the question to the width loses "[n]o" at 40 columns.
      it(`${key} at the permission question ends the turn with nothing run (${columns} columns)`, async () => {
        const { cwd } = await startTerminal(WRITE_FILE, {}, columns);
        tmux("send-keys", "-t", "0", "-l", "make the file");
        tmux("send-keys", "-t", "0", "Enter");
        await waitFor(() => screen().includes("esc stops"));
        // The whole question is on screen, each row within the width (the terminal did not wrap it).
        expect(screen()).toMatch(
          wrapped("? Allow Bash(echo hello > created-by-the-tool.txt)? [y]es · [n]o · esc stops"),
        );
        for (const row of rows()) expect([...row].length).toBeLessThan(columns);
        // No spinner clock while the question waits.
        expect(screen()).not.toMatch(/Running Bash.*\d+s/);
        tmux("send-keys", "-t", "0", key);
        await waitFor(() => screen().includes("Interrupted."), 15_000);
        await waitFor(() => /^ctx \d+%/m.test(screen()));
        expect(mainRequests()).toHaveLength(1);
        expect(screen()).not.toContain("MODEL CALLED AGAIN");
        expect(screen()).toContain("⎿ ✗ interrupted");
        expect(existsSync(join(cwd, "created-by-the-tool.txt"))).toBe(false);
      }, 60_000);
    }

    // Mutation caught: dropping the reason (ask resolving plain false) loses the literal from the request;
    // rendering the tool result's own text shows "Do not retry" on screen.
    it(`n with a reason denies the call and the model reads the reason (${columns} columns)`, async () => {
      const { cwd } = await startTerminal(WRITE_FILE, {}, columns);
      tmux("send-keys", "-t", "0", "-l", "make the file");
      tmux("send-keys", "-t", "0", "Enter");
      await waitFor(() => screen().includes("esc stops"));
      tmux("send-keys", "-t", "0", "-l", "n");
      await waitFor(() => screen().includes("Enter to skip"));
      tmux("send-keys", "-t", "0", "-l", "use printf and name it notes.txt");
      tmux("send-keys", "-t", "0", "Enter");
      await waitFor(() => screen().includes("MODEL CALLED AGAIN"));
      await waitFor(() => mainRequests().length === 2);
      const last = JSON.stringify(mainRequests()[1]?.messages.at(-1)?.content);
      expect(last).toContain("use printf and name it notes.txt");
      expect(last).toContain('"is_error":true');
      expect(screen()).toMatch(wrapped("denied · you said: use printf and name it notes.txt"));
      expect(screen()).not.toContain("Do not retry");
      expect(existsSync(join(cwd, "created-by-the-tool.txt"))).toBe(false);
      for (const row of rows()) expect([...row].length).toBeLessThanOrEqual(columns);
    }, 60_000);
  }
});
