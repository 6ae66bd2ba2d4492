/**
 * Shift+Tab in a real pseudo-terminal (tmux, 80 columns), as a person meets it (docs/TOOLS.md "Plan mode"): each
 * press moves the session's permission mode along Claude Code's cycle (default → acceptEdits → plan → default), the
 * status line names the mode, and in plan mode reached this way a Write is refused without a question. Oracles: the
 * file on disk and the emulator's logged requests. Skipped, with a notice, without tmux.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nextPermissionMode } from "../../src/cli/modes/questions/mode-cycle.js";
import { waitFor } from "./cli-process.js";
import { HAVE_TMUX, terminalPerTest, wrapped } from "./tmux-terminal.js";

if (!HAVE_TMUX) console.warn("mode-cycle.e2e: tmux is not installed; the Shift+Tab terminal test is skipped");

const startTerminal = terminalPerTest();

describe.skipIf(!HAVE_TMUX)("Shift+Tab in the terminal", () => {
  // Mutations caught: Shift+Tab not decoded (no mode change: the Write asks instead of being refused); the cycle
  // skipping plan mode (the status never says plan mode and the Write runs).
  it("twice reaches plan mode, named in the status line; a Write is then refused and nothing is written", async () => {
    const t = await startTerminal({
      emulator: {
        scenario: [
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "ready\n" } }] },
          "Refused, as expected.",
        ],
      },
      columns: 80,
    });
    t.tmux("send-keys", "-t", "0", "BTab");
    await waitFor(() => wrapped("accept edits on (shift+tab to cycle)").test(t.screen()));
    t.tmux("send-keys", "-t", "0", "BTab");
    await waitFor(() => wrapped("plan mode on (shift+tab to cycle)").test(t.screen()));
    t.type("write the notes file");
    await waitFor(() => t.screen().includes("Refused, as expected."));
    expect(existsSync(join(t.cwd, "notes.txt"))).toBe(false);
    const result = JSON.stringify(t.mainRequests().at(-1)?.messages.at(-1));
    expect(result).toContain("plan mode");
    expect(t.screen()).not.toMatch(/Allow|\[y\]/);
    for (const row of t.rows()) expect([...row].length).toBeLessThanOrEqual(80);
    // A third press is back to default: the mode's words leave the status line.
    t.tmux("send-keys", "-t", "0", "BTab");
    await waitFor(() => !/plan mode on/.test(t.rows().slice(-3).join("\n")));
  }, 90_000);
});

describe("the mode cycle", () => {
  it("is Claude Code's: bypassPermissions only where the session was allowed it", () => {
    const walk = (bypass: boolean) => {
      const seen = ["default" as const] as string[];
      let mode = nextPermissionMode("default", bypass);
      while (mode !== "default") {
        seen.push(mode);
        mode = nextPermissionMode(mode, bypass);
      }
      return seen;
    };
    expect(walk(false)).toEqual(["default", "acceptEdits", "plan"]);
    expect(walk(true)).toEqual(["default", "acceptEdits", "plan", "bypassPermissions"]);
  });
});
