/**
 * The interactive mode in a real pseudo-terminal (tmux, 120×40): what a person sees and what reaches the
 * server. Each test starts its own tmux server on a unique socket and kills it afterwards. Skipped, with a
 * notice, where tmux is not installed.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator, Turn } from "@threadline/emulator";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, buildOnce } from "./build-once.js";
import { waitFor } from "./cli-process.js";
import { HAVE_TMUX, TmuxTerminal, wrapped } from "./tmux-terminal.js";

if (!HAVE_TMUX) console.warn("terminal.e2e: tmux is not installed; the pseudo-terminal tests are skipped");

let terminal: TmuxTerminal | undefined;
/** The running terminal's emulator; a test closes it (and clears this) to cut the connection. */
let emulator: Emulator | undefined;

beforeAll(() => {
  if (HAVE_TMUX) buildOnce();
});

afterEach(async () => {
  await terminal?.close();
  terminal = undefined;
  emulator = undefined;
});

function current(): TmuxTerminal {
  if (terminal === undefined) throw new Error("no terminal started");
  return terminal;
}
const tmux = (...args: string[]): string => current().tmux(...args);
const screen = (): string => current().screen();
const rows = (): string[] => current().rows();
const mainRequests = () => current().mainRequests();

/** Starts the built CLI (no key: the emulator is a non-Anthropic server) in a `columns`×40 tmux pane. */
async function startTerminal(
  turns: Turn[],
  files: Record<string, string> = {},
  columns = 120,
): Promise<{ cwd: string; home: string }> {
  terminal = await TmuxTerminal.start({ emulator: { scenario: turns }, files, columns });
  emulator = terminal.emulator;
  return { cwd: terminal.cwd, home: terminal.home };
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
        // The emulator logs a request when its stream ends; under load that can come after the screen updated.
        await waitFor(() => mainRequests().length >= 1);
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

  /** The /cost block printed last, as label → value (rows the window wrapped joined again). */
  function lastCost(): Map<string, string> {
    const text = screen();
    const block = text.slice(text.lastIndexOf("Total cost:"));
    const labels = [
      "Total cost",
      "Model requests",
      "Model",
      "Tool calls",
      "Input tokens",
      "Output tokens",
      "Cache hit ratio",
      "Time in turns",
    ];
    const parts = block.split(new RegExp(`^(${labels.join("|")}):`, "m"));
    const values = new Map<string, string>();
    for (let index = 1; index + 1 < parts.length; index += 2) {
      const value = (parts[index + 1] ?? "").split(/\n(?:>|ctx )/)[0] ?? "";
      if (!values.has(parts[index] ?? "")) values.set(parts[index] ?? "", value.replace(/\s+/g, " ").trim());
    }
    return values;
  }

  /** Types /cost and waits for its block (one more than on screen now). */
  async function cost(): Promise<Map<string, string>> {
    const count = () => (screen().match(/Time in turns/g) ?? []).length;
    const before = count();
    await typeLine("/cost", () => count() > before);
    return lastCost();
  }

  async function typeLine(line: string, until: () => boolean): Promise<void> {
    tmux("send-keys", "-t", "0", "-l", line);
    tmux("send-keys", "-t", "0", "Enter");
    await waitFor(until);
  }

  for (const columns of [40, 120]) {
    // Mutations caught: /cost from totals updated only after turns (the old code) leaves out the compaction
    // request; a resumed session counting only usage shows "0 tool calls"/"over 1 prompt"; the status line not
    // redrawn after /clear keeps the old cost; inspect and the recap reading compaction's copies as prompts
    // list "second question" twice and pair "third question" with "Answer one".
    it(`/cost, the status line and inspect agree after /compact, /clear and /resume (${columns} columns)`, async () => {
      const { home } = await startTerminal(
        [
          "Answer one: the sky is blue.",
          { content: [{ type: "tool_use", name: "Read", input: { file_path: "notes.txt" } }] },
          "Answer two: the notes say hello.",
          "Answer three: snow is white.",
        ],
        { "notes.txt": "hello\n" },
        columns,
      );
      await typeLine("first question", () => screen().includes("Answer one"));
      await typeLine("second question", () => screen().includes("Answer two"));
      await typeLine("third question", () => screen().includes("Answer three"));
      await typeLine("/compact", () => screen().includes("Compacted:"));
      const afterCompact = await cost();
      // The independent count: every request the emulator answered (main turns and the summary).
      const served = (emulator?.requests ?? []).filter(
        (request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"),
      ).length;
      expect(served).toBe(5);
      expect(afterCompact.get("Model requests")).toBe("5 over 3 prompts");
      expect(afterCompact.get("Tool calls")).toBe("1 (0 failed)");
      // /compact, /context and the status line give one figure for what the next request holds.
      const compacted = Number(/Compacted:\s+~[\d,]+\s+→\s+~([\d,]+)\s+tokens/.exec(screen())?.[1]?.replace(",", ""));
      await typeLine("/context", () => /Context\s+for\s+the\s+next/.test(screen()));
      const context = /Context\s+for\s+the\s+next\s+request\s+\(estimated\):\s+(\S+)k\s+of/.exec(screen())?.[1];
      expect(Number(context)).toBeCloseTo(compacted / 1000, 1);
      expect(screen()).toMatch(new RegExp(`ctx \\d+% \\(${context?.replace(".", "\\.")}k/200k(, ac \\d+k)?\\)`));
      // inspect reads the transcript file: the same totals, and each prompt once with its requests.
      const sessionId = /Session\s*([0-9a-f-]{36})/.exec(screen().replace(/\n/g, ""))?.[1] ?? "";
      expect(sessionId).not.toBe("");
      await typeLine("/clear", () => /Started\s+a\s+new\s+session/.test(screen()));
      await waitFor(() => /ctx \d+%[^$]*\$0\.0000/.test(screen()));
      expect((await cost()).get("Model requests")).toBe("0 over 0 prompts");
      await typeLine(`/resume ${sessionId.slice(0, 8)}`, () => /Resumed\s+session/.test(screen()));
      expect(screen()).toMatch(/› third question\n\s+Answer three: snow is white\./);
      const resumed = await cost();
      for (const label of ["Total cost", "Model requests", "Tool calls", "Input tokens", "Output tokens"])
        expect(resumed.get(label)).toBe(afterCompact.get(label));
      expect(resumed.get("Time in turns")).not.toBe("0.0s");
      await waitFor(() => screen().includes(afterCompact.get("Total cost") ?? "?"));
      const transcripts = execFileSync("find", [home, "-name", `${sessionId}.jsonl`], { encoding: "utf8" }).trim();
      const inspected = execFileSync(process.execPath, [BIN, "inspect", transcripts], { encoding: "utf8" });
      const total =
        /Total: (\d+) requests, input (\S+), cache read (\S+), cache write (\S+), output (\S+), hit \S+, cost (\S+)/.exec(
          inspected,
        );
      expect(total?.[1]).toBe("5");
      expect(`${total?.[2]} uncached, ${total?.[3]} cache read, ${total?.[4]} cache write`).toBe(
        afterCompact.get("Input tokens"),
      );
      expect(total?.[5]).toBe(afterCompact.get("Output tokens"));
      expect(total?.[6]).toBe(afterCompact.get("Total cost"));
      const byPrompt = inspected.slice(inspected.indexOf("By prompt:"), inspected.indexOf("Cache breaks"));
      expect(byPrompt.match(/second question/g)).toHaveLength(1);
      expect(byPrompt).not.toContain(" 0 requests");
      for (const row of rows()) expect([...row].length).toBeLessThanOrEqual(columns);
    }, 90_000);
  }

  for (const columns of [40, 120]) {
    // Mutations caught: printing every read's own lines (groupReads off) shows Read(a.txt) and no summary; a
    // failed read joining the group hides its error; Ctrl-O not bound to expandLastGroup shows no calls.
    it(`consecutive reads are one line, Ctrl-O lists them, a failed read is one line (${columns} columns)`, async () => {
      await startTerminal(
        [
          {
            content: [
              { type: "tool_use", name: "Read", input: { file_path: "a.txt" } },
              { type: "tool_use", name: "Read", input: { file_path: "b.txt" } },
              { type: "tool_use", name: "Grep", input: { pattern: "alpha" } },
            ],
          },
          { content: [{ type: "tool_use", name: "Read", input: { file_path: "missing.txt" } }] },
          "Done reading.",
        ],
        { "a.txt": "alpha\n", "b.txt": "beta\n" },
        columns,
      );
      tmux("send-keys", "-t", "0", "-l", "read them");
      tmux("send-keys", "-t", "0", "Enter");
      await waitFor(() => screen().includes("Done reading."));
      expect(screen()).toMatch(wrapped("⏺ Read 2 files, searched 1 pattern (ctrl+o to expand)"));
      expect(screen()).not.toContain("Read(a.txt)");
      expect(screen()).toMatch(wrapped("✗ Read(missing.txt) ·"));
      expect(screen().match(/Read\(missing\.txt\)/g)).toHaveLength(1); // one line, not a start line and an outcome
      tmux("send-keys", "-t", "0", "C-o");
      await waitFor(() => screen().includes("Read(a.txt)"));
      expect(screen()).toMatch(/⎿ Read\(b\.txt\) ·/);
      expect(screen()).toMatch(/⎿ Grep\(/);
      for (const row of rows()) expect([...row].length).toBeLessThanOrEqual(columns);
    }, 60_000);
  }

  for (const columns of [40, 120]) {
    // Mutations caught: printing turn_end's error after the loop's error notice shows it twice; joining the
    // cause chain as is prints "Connection error.:"; the outcome line repeating the output's first line, or
    // the preview keeping "Exit code 3", shows the command's output twice.
    it(`a connection failure and a failing command are each printed once (${columns} columns)`, async () => {
      await startTerminal(
        [
          {
            content: [{ type: "tool_use", name: "Bash", input: { command: "echo out1; echo err1 >&2; exit 3" } }],
          },
          "Done with the command.",
        ],
        {},
        columns,
      );
      await typeLine("run it", () => screen().includes("esc stops"));
      tmux("send-keys", "-t", "0", "-l", "y");
      await waitFor(() => screen().includes("Done with the command."));
      expect(screen()).toMatch(wrapped("⎿ ✗ exit 3 · 2 lines"));
      expect(rows().filter((row) => row.trim() === "out1")).toHaveLength(1);
      expect(rows().filter((row) => row.trim() === "err1")).toHaveLength(1);
      expect(screen()).not.toContain("Exit code");
      await emulator?.close();
      emulator = undefined;
      await typeLine("hello again", () => /Cannot\s+reach/.test(screen()));
      await waitFor(() => /ctx \d+%/.test(screen().slice(screen().search(/Cannot\s+reach/))));
      expect(screen().match(/Cannot\s+reach/g)).toHaveLength(1);
      expect(screen()).not.toContain(".:");
      for (const row of rows()) expect([...row].length).toBeLessThanOrEqual(columns);
    }, 60_000);
  }
});
