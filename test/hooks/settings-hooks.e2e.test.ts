/**
 * Issue 30 end to end: the built CLI against the emulator over real HTTP, with a real `.claude/settings.json`
 * and shell hooks in a temp project. Every expected value is a literal or read back from the emulator's
 * request log and files the hooks wrote; none comes from the code under test.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { trustFolder } from "../../src/trust/index.js";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli } from "../cli/cli-process.js";

const harness = useCliHarness();

interface Project {
  emulator: Emulator;
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

/** An emulator playing `steps`, a project with `.claude/settings.json` = `settings`, a private HOME. */
async function project(steps: unknown[], settings: unknown, scripts: Record<string, string> = {}): Promise<Project> {
  const emulator = await harness.startEmulator({ scenario: steps as never });
  const home = await harness.tempDir("threadline-i30-home-");
  const cwd = await harness.tempDir("threadline-i30-cwd-");
  await mkdir(join(cwd, ".claude", "hooks"), { recursive: true });
  await writeFile(join(cwd, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
  for (const [name, body] of Object.entries(scripts)) await writeFile(join(cwd, ".claude", "hooks", name), body);
  // These tests are about hooks, not trust: the folder is trusted as a yes at the question would (docs/TRUST.md).
  trustFolder(cwd, home);
  // HOME is the test's own: the developer's ~/.claude/settings.json must not leak in.
  return { emulator, cwd, home, env: cliEnv(emulator.url, home, { HOME: home }) };
}

function bash(command: string) {
  return { type: "tool_use" as const, name: "Bash", input: { command } };
}

function hook(command: string, extra: Record<string, unknown> = {}) {
  return { type: "command", command, ...extra };
}

interface Body {
  messages: Array<{ role: string; content: unknown }>;
  tools?: unknown[];
}

function bodies(emulator: Emulator): Body[] {
  return emulator.requests.filter((record) => record.path === "/v1/messages").map((record) => record.body as Body);
}

/** Tool results of the last request, in order. */
function lastToolResults(emulator: Emulator): Array<{ content: unknown; is_error?: boolean }> {
  const messages = bodies(emulator).at(-1)?.messages ?? [];
  const last = messages.filter((message) => message.role === "user").at(-1);
  const content = Array.isArray(last?.content) ? (last.content as Array<{ type: string }>) : [];
  return content.filter((block) => block.type === "tool_result") as never;
}

/** A message without its cache_control markers (they move to the newest message every turn). */
function withoutCacheControl(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, item) => (key === "cache_control" ? undefined : item));
}

const GUARD = `input=$(cat)
case "$input" in
  *'rm -rf'*) echo "Blocked by guard.sh: rm -rf is not allowed in this project" >&2; exit 2 ;;
esac
exit 0
`;

describe("PreToolUse and deny rules (issue 30)", () => {
  it("a PreToolUse hook exiting 2 blocks `rm -rf` even under --dangerously-skip-permissions; the model reads its stderr", async () => {
    const p = await project(
      [{ content: [bash("rm -rf victim")] }, "Understood."],
      {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [hook('bash "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh"')] }],
        },
      },
      { "guard.sh": GUARD },
    );
    await mkdir(join(p.cwd, "victim"));
    await writeFile(join(p.cwd, "victim", "keep.txt"), "precious\n");
    const result = await runCli(["-p", "clean up", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    // Mutation caught: the executor ignoring `block` (running the call anyway) deletes victim/.
    expect(existsSync(join(p.cwd, "victim", "keep.txt"))).toBe(true);
    const [only] = lastToolResults(p.emulator);
    expect(only?.is_error).toBe(true);
    expect(JSON.stringify(only?.content)).toContain("Blocked by guard.sh: rm -rf is not allowed in this project");
  });

  it("deny rules from settings hold under --dangerously-skip-permissions, for Bash prefixes and Read paths", async () => {
    const p = await project(
      [
        {
          content: [
            bash("rm -rf victim"),
            { type: "tool_use", name: "Read", input: { file_path: "secrets/api.txt" } },
            { type: "tool_use", name: "Read", input: { file_path: "notes.txt" } },
          ],
        },
        "Fine.",
      ],
      { permissions: { deny: ["Bash(rm:*)", "Read(./secrets/**)"] } },
    );
    await mkdir(join(p.cwd, "victim"));
    await mkdir(join(p.cwd, "secrets"));
    await writeFile(join(p.cwd, "secrets", "api.txt"), "TOPSECRET-4417\n");
    await writeFile(join(p.cwd, "notes.txt"), "ordinary notes\n");
    const result = await runCli(["-p", "go", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    // Mutation caught: checking bypass mode before deny rules (the old order) runs rm and reads the secret.
    expect(existsSync(join(p.cwd, "victim"))).toBe(true);
    const results = lastToolResults(p.emulator);
    expect(results.map((block) => block.is_error === true)).toEqual([true, true, false]);
    expect(String(results[0]?.content)).toContain('deny rule "Bash(rm:*)"');
    expect(String(results[1]?.content)).toContain('deny rule "Read(./secrets/**)"');
    expect(JSON.stringify(p.emulator.requests)).not.toContain("TOPSECRET-4417");
    expect(JSON.stringify(results[2]?.content)).toContain("ordinary notes");
  });
});

describe("context hooks and resume (issue 30)", () => {
  it("SessionStart and UserPromptSubmit context is in the request, and a resume resends it byte for byte without re-running the hooks", async () => {
    const p = await project(["Hello.", "Again."], {
      hooks: {
        SessionStart: [
          {
            matcher: "startup",
            hooks: [hook('echo start >> "$CLAUDE_PROJECT_DIR/start.log"; echo "Codename: HERON-77"')],
          },
        ],
        UserPromptSubmit: [
          {
            hooks: [
              hook(
                'cat >> "$CLAUDE_PROJECT_DIR/prompts.log"; echo >> "$CLAUDE_PROJECT_DIR/prompts.log"; echo "Sprint note $(wc -l < "$CLAUDE_PROJECT_DIR/prompts.log")"',
              ),
            ],
          },
        ],
      },
    });
    const first = await runCli(["-p", "first question", "--output-format", "json"], { cwd: p.cwd, env: p.env });
    expect(first.code).toBe(0);
    const sessionId = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const [request1] = bodies(p.emulator);
    const text1 = JSON.stringify(request1?.messages);
    expect(text1).toContain("Codename: HERON-77");
    expect(text1).toContain("Sprint note 1");
    // The hook's context comes before the person's text (the reorder rule), in the one user message.
    expect(text1.indexOf("Sprint note 1")).toBeLessThan(text1.indexOf("first question"));

    const second = await runCli(["--resume", sessionId, "-p", "second question"], { cwd: p.cwd, env: p.env });
    expect(second.code).toBe(0);
    const request2 = bodies(p.emulator)[1];
    // Mutation caught: re-running SessionStart on resume (no "startup" matcher check) writes a second line.
    expect((await readFile(join(p.cwd, "start.log"), "utf8")).trim().split("\n")).toEqual(["start"]);
    // The first turn's messages are resent as they were sent (cache markers aside).
    const sent = request1?.messages ?? [];
    expect(withoutCacheControl(request2?.messages.slice(0, sent.length - 1))).toEqual(
      withoutCacheControl(sent.slice(0, -1)),
    );
    const text2 = JSON.stringify(request2?.messages);
    expect(text2.split("Codename: HERON-77")).toHaveLength(2);
    expect(text2).toContain("Sprint note 1");
    expect(text2).toContain("Sprint note 2");
    // The prompt hook got the event on stdin, once per prompt.
    const prompts = (await readFile(join(p.cwd, "prompts.log"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(prompts.map((event) => [event.hook_event_name, event.prompt, event.session_id, event.cwd])).toEqual([
      ["UserPromptSubmit", "first question", sessionId, p.cwd],
      ["UserPromptSubmit", "second question", sessionId, p.cwd],
    ]);
  });

  it("PostToolUse runs after Write and Edit with tool_input and tool_response, and not for tools its matcher leaves out", async () => {
    const p = await project(
      [
        { content: [{ type: "tool_use", name: "Write", input: { file_path: "a.txt", content: "one\n" } }] },
        {
          content: [
            { type: "tool_use", name: "Edit", input: { file_path: "a.txt", old_string: "one", new_string: "two" } },
          ],
        },
        { content: [bash("echo hi")] },
        "Done.",
      ],
      {
        hooks: {
          PostToolUse: [
            {
              matcher: "Edit|Write",
              hooks: [hook('cat >> "$CLAUDE_PROJECT_DIR/post.log"; echo >> "$CLAUDE_PROJECT_DIR/post.log"')],
            },
          ],
        },
      },
    );
    const result = await runCli(["-p", "edit", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(await readFile(join(p.cwd, "a.txt"), "utf8")).toBe("two\n");
    const events = (await readFile(join(p.cwd, "post.log"), "utf8"))
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            hook_event_name: string;
            tool_name: string;
            tool_input: { file_path: string };
            tool_response: Record<string, unknown>;
          },
      );
    // Mutation caught: ignoring the matcher adds a Bash line; running before the tool breaks the order of files.
    // tool_response in Claude Code's per-tool shapes (FileWriteOutput, FileEditOutput of its sdk-tools.d.ts).
    expect(
      events.map((event) => [event.hook_event_name, event.tool_name, event.tool_input.file_path, event.tool_response]),
    ).toEqual([
      [
        "PostToolUse",
        "Write",
        "a.txt",
        {
          type: "create",
          filePath: join(p.cwd, "a.txt"),
          content: "one\n",
          structuredPatch: [],
          originalFile: null,
        },
      ],
      [
        "PostToolUse",
        "Edit",
        "a.txt",
        {
          filePath: join(p.cwd, "a.txt"),
          oldString: "one",
          newString: "two",
          originalFile: null,
          structuredPatch: [],
          userModified: false,
          replaceAll: false,
        },
      ],
    ]);
  });
});

describe("hooks that misbehave (issue 30)", () => {
  it("a hanging hook is stopped at its timeout with a notice, and the turn goes on", async () => {
    const p = await project(["Still answered."], {
      hooks: { UserPromptSubmit: [{ hooks: [hook("sleep 30", { timeout: 1 })] }] },
    });
    const result = await runCli(["-p", "hello"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Still answered.");
    expect(result.stderr).toContain('UserPromptSubmit hook "sleep 30" timed out after 1 s');
  });

  it("a hook that prints 10 MB is cut to 20,000 characters, with a notice", async () => {
    const p = await project(["Ok."], {
      hooks: { UserPromptSubmit: [{ hooks: [hook("head -c 10000000 /dev/zero | tr '\\0' x")] }] },
    });
    const result = await runCli(["-p", "hello"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("printed 10,000,000 characters");
    const sent = JSON.stringify(bodies(p.emulator)[0]?.messages);
    // Mutation caught: no cap sends all 10,000,000 x's (or the request fails).
    expect(sent).toContain(`${"x".repeat(20_000)}`);
    expect(sent).not.toContain(`${"x".repeat(20_001)}`);
  });
});
