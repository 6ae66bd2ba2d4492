/**
 * Esc twice in a real pseudo-terminal (tmux) opens /rewind; the choice puts the file back and the next request
 * no longer holds the rewound turn (docs/REWIND.md). Skipped, with a notice, where tmux is not installed.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "./cli-process.js";
import { HAVE_TMUX, terminalPerTest } from "./tmux-terminal.js";

if (!HAVE_TMUX) console.warn("rewind-terminal.e2e: tmux is not installed; the Esc-Esc test is skipped");

const startTerminal = terminalPerTest();

describe.skipIf(!HAVE_TMUX)("Esc twice in the terminal", () => {
  it("opens /rewind; choosing prompt 1 and both puts the file back and drops turn 2 from the next request", async () => {
    const terminal = await startTerminal({
      emulator: {
        scenario: [
          "answer one",
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "changed\n" } }] },
          "Wrote the notes.",
          "answer after rewind",
        ],
      },
      files: { "notes.txt": "one\n" },
      args: ["--permission-mode", "acceptEdits"],
    });
    const { cwd } = terminal;
    const screen = () => terminal.screen();
    const type = (text: string) => terminal.type(text);
    const mainRequests = () => terminal.mainRequests();
    type("first prompt");
    await waitFor(() => screen().includes("answer one"));
    type("second prompt");
    await waitFor(() => screen().includes("Wrote the notes."));
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("changed\n");

    terminal.tmux("send-keys", "-t", "0", "Escape");
    await new Promise((resolve) => setTimeout(resolve, 150));
    terminal.tmux("send-keys", "-t", "0", "Escape");
    await waitFor(() => screen().includes("Rewind to the end of which prompt"));
    expect(screen()).toMatch(/1\. first prompt/);
    expect(screen()).toMatch(/2\. second prompt/);
    type("1");
    await waitFor(() => screen().includes("Restore what"));
    type("1");
    await waitFor(() => screen().includes("rewound conversation and code to prompt 1"));
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("one\n");

    type("third prompt");
    await waitFor(() => screen().includes("answer after rewind"));
    await waitFor(() => mainRequests().length >= 4);
    const last = JSON.stringify(mainRequests().at(-1)?.messages);
    expect(last).toContain("first prompt");
    expect(last).toContain("third prompt");
    expect(last).not.toContain("second prompt");
  }, 90_000);
});
