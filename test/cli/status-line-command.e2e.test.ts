/**
 * A settings `statusLine` command in a real pseudo-terminal (tmux), as Claude Code runs one
 * (https://code.claude.com/docs/en/statusline): the session's JSON on its stdin, its rows above threadline's own
 * status line, the hooks' environment (secrets removed), the folder's trust obeyed, a failing command one notice.
 * Oracles: what the script wrote to disk (its stdin, its environment), the transcript file, literals, the pane.
 * Mutations (scripts/mutation-check.mjs): status-line-untrusted-runs, status-line-secret-env,
 * status-line-notice-repeats, status-line-not-refreshed. Skipped, with a notice, without tmux.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_MODEL, waitFor } from "./cli-process.js";
import { HAVE_TMUX, terminalPerTest } from "./tmux-terminal.js";

if (!HAVE_TMUX) console.warn("status-line-command.e2e: tmux is not installed; the statusLine tests are skipped");

const startTerminal = terminalPerTest();

/** Appends its stdin (one JSON a line) to seen.jsonl, its environment to env.txt, and prints two rows. */
const SCRIPT = [
  "input=$(cat)",
  "printf '%s\\n' \"$input\" >> seen.jsonl",
  "env > env.txt",
  'count=$(wc -l < seen.jsonl | tr -d " ")',
  'name=$(printf \'%s\' "$input" | "$NODE_BIN" -e \'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).model.display_name))\')',
  'echo "SL-OK $name run-$count"',
  'echo "SL-SECOND"',
].join("\n");

function settings(statusLine: Record<string, unknown>): Record<string, string> {
  return {
    ".claude/settings.json": JSON.stringify({ statusLine }),
    "status.sh": `${SCRIPT}\n`,
  };
}

/** The fields of the stdin JSON the test reads. */
interface StatusInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  workspace: unknown;
  model: unknown;
  output_style: unknown;
  version: unknown;
  cost: { total_cost_usd: number };
  context_window: {
    context_window_size: number;
    total_output_tokens: number;
    current_usage: Record<string, number> | null;
  };
}

async function seen(cwd: string): Promise<StatusInput[]> {
  const text = await readFile(join(cwd, "seen.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as StatusInput);
}

describe.skipIf(!HAVE_TMUX)("statusLine command in the terminal", () => {
  // Mutations caught: the command never run again after a turn (status-line-not-refreshed: the pane keeps run-1 and
  // the last stdin has no cost); the hooks' environment not used (status-line-secret-env: the token reaches env.txt).
  it("runs with Claude Code's JSON on stdin and shows its rows, padded, above threadline's line", async () => {
    const t = await startTerminal({
      emulator: { scenario: ["Hi there."] },
      files: settings({ type: "command", command: "bash ./status.sh", padding: 2 }),
      args: ["--trust-folder"],
      env: { NODE_BIN: process.execPath, MY_SERVICE_TOKEN: "sekrit-value-123" },
    });
    await waitFor(() => t.screen().includes("SL-OK"));
    t.type("hello");
    await waitFor(() => t.screen().includes("Hi there."));
    // A run after the turn carries its cost (the first one ran before any request) and is shown.
    let inputs: StatusInput[] = [];
    await waitFor(() => {
      void seen(t.cwd).then(
        (read) => {
          inputs = read;
        },
        () => {},
      );
      return inputs.some((input) => input.cost.total_cost_usd > 0);
    }, 10_000);
    await waitFor(() => t.screen().includes(`SL-OK Sonnet 4 run-${inputs.length}`), 10_000);
    inputs = await seen(t.cwd);
    const last = inputs.at(-1)!;
    const transcripts = await readdir(join(t.home, "projects"), { recursive: true });
    const transcript = transcripts.find((name) => String(name).endsWith(".jsonl"));
    expect(String(transcript)).toContain(last.session_id);
    expect(existsSync(last.transcript_path)).toBe(true);
    expect(last.cwd).toBe(t.cwd);
    expect(last.workspace).toEqual({ current_dir: t.cwd, project_dir: t.cwd });
    expect(last.model).toEqual({ id: TEST_MODEL, display_name: "Sonnet 4" });
    expect(last.output_style).toEqual({ name: "default" });
    expect(typeof last.version).toBe("string");
    expect(last.cost.total_cost_usd).toBeGreaterThan(0);
    expect(last.cost).toHaveProperty("total_duration_ms");
    expect(last.cost).toHaveProperty("total_lines_added");
    expect(last.context_window.context_window_size).toBe(200_000);
    expect(last.context_window.total_output_tokens).toBeGreaterThan(0);
    const usage = last.context_window.current_usage ?? {};
    expect(Object.keys(usage).sort()).toEqual([
      "cache_creation_input_tokens",
      "cache_read_input_tokens",
      "input_tokens",
      "output_tokens",
    ]);
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(inputs[0]!.cost.total_cost_usd).toBe(0);
    // Its rows, padded by two, above threadline's own line (which stays).
    const rows = t.rows();
    const first = rows.findLastIndex((row) => row.includes("SL-OK"));
    expect(rows[first]).toMatch(/^ {2}SL-OK Sonnet 4 run-\d+$/);
    expect(rows[first + 1]).toBe("  SL-SECOND");
    expect(rows[first + 2]).toMatch(/^ctx \d+%/);
    // The hooks' environment: secrets removed, the project folder set.
    const env = await readFile(join(t.cwd, "env.txt"), "utf8");
    expect(env).not.toContain("sekrit-value-123");
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${t.cwd}`);
  }, 90_000);

  // Mutation caught: a project's statusLine kept in an untrusted folder (status-line-untrusted-runs).
  it("an untrusted folder's statusLine is named and never run", async () => {
    const t = await startTerminal({
      emulator: { scenario: ["Hi there."] },
      files: settings({ type: "command", command: "bash ./status.sh" }),
      env: { NODE_BIN: process.execPath },
      ready: /\(y\/N\)/,
    });
    expect(t.screen()).toContain("bash ./status.sh");
    t.type("n");
    await waitFor(() => /withheld project status line command \(bash \.\/status\.sh\)/.test(t.screen()));
    t.type("hello");
    await waitFor(() => t.screen().includes("Hi there."));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(existsSync(join(t.cwd, "seen.jsonl"))).toBe(false);
    expect(t.screen()).not.toContain("SL-OK");
  }, 90_000);

  // Mutation caught: the notice said at every failed run (status-line-notice-repeats).
  it("a failing command is one notice; the session goes on", async () => {
    const t = await startTerminal({
      emulator: { scenario: ["First answer.", "Second answer."] },
      files: {
        ".claude/settings.json": JSON.stringify({
          statusLine: { type: "command", command: "echo broken >&2; exit 3" },
        }),
      },
      args: ["--trust-folder"],
    });
    t.type("one");
    await waitFor(() => t.screen().includes("First answer."));
    t.type("two");
    await waitFor(() => t.screen().includes("Second answer."));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The notice is wrapped by threadline's renderer at the pane's width.
    const notices = t.screen().match(/failed \(exit 3:\s+broken\)/g) ?? [];
    expect(notices).toHaveLength(1);
    expect(t.screen()).toMatch(/^ctx \d+%/m);
  }, 90_000);
});
