/**
 * A hook that sends itself to the background (issue 57 item 2): a command hook whose first stdout line is
 * `{"async": true, "asyncTimeout": ms}` — the security-guidance plugin's SessionStart hook does this while it builds
 * a virtualenv — is not waited for, as in Claude Code; what it prints after that line reaches the next prompt, and
 * the line itself is never context. An `asyncRewake` hook runs in the background too, and its exit-2 finding goes
 * to the model after its `rewakeMessage`. Oracles: a marker file the hook writes after the runner has returned,
 * and literal texts. Mutations: hook-async-announcement-waited, hook-rewake-finding-dropped.
 */
import { existsSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HookRunner } from "../../src/hooks/index.js";
import { makeTempDir } from "../../support/temp-dir.js";

async function hookScript(dir: string, text: string): Promise<string> {
  const path = join(dir, "hook.sh");
  await writeFile(path, text);
  await chmod(path, 0o755);
  return `bash ${path}`;
}

describe("hooks that go to the background", () => {
  it('a first line {"async": true} stops the wait; the later output is the next prompt\'s context', async () => {
    const dir = await makeTempDir("hook-async-line");
    const marker = join(dir, "finished.txt");
    const command = await hookScript(
      dir,
      `echo '{"async": true, "asyncTimeout": 20000}'
sleep 2
echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "LATE-CONTEXT-41"}}'
touch ${JSON.stringify(marker)}
`,
    );
    const runner = new HookRunner({
      hooks: { SessionStart: [{ matcher: "", hooks: [{ command, source: "test", timeoutSeconds: 10 }] }] },
      projectDir: dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      sessionId: "s",
    });
    const outcome = await runner.run("SessionStart", { source: "startup" }, "startup");
    // Returned before the hook finished: it had not written its marker, and said nothing yet.
    expect(existsSync(marker)).toBe(false);
    expect(outcome.ran).toBe(0);
    expect(outcome.context).toEqual([]);
    await runner.asyncIdle();
    expect(existsSync(marker)).toBe(true);
    const results = runner.takeAsyncResults();
    expect(results).toEqual([{ event: "SessionStart", context: ["LATE-CONTEXT-41"], notices: [] }]);
  });

  it("a hook whose first line is other JSON is waited for, as before", async () => {
    const dir = await makeTempDir("hook-async-line");
    const command = await hookScript(dir, `echo '{"async": false}'\necho plain\n`);
    const runner = new HookRunner({
      hooks: { SessionStart: [{ matcher: "", hooks: [{ command, source: "test" }] }] },
      projectDir: dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      sessionId: "s",
    });
    const outcome = await runner.run("SessionStart", { source: "startup" }, "startup");
    expect(outcome.ran).toBe(1);
  });

  it("asyncRewake: an exit-2 finding reaches the model after the rewake message; the person gets the summary", async () => {
    const dir = await makeTempDir("hook-rewake");
    const command = await hookScript(dir, `sleep 1\necho "FINDING: token in config.js" >&2\nexit 2\n`);
    const runner = new HookRunner({
      hooks: {
        Stop: [
          {
            matcher: "",
            hooks: [
              {
                command,
                source: "test",
                async: true,
                rewake: { message: "Background review says:", summary: "Review found issues" },
              },
            ],
          },
        ],
      },
      projectDir: dir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      sessionId: "s",
    });
    const outcome = await runner.run("Stop", { stop_hook_active: false });
    expect(outcome.block).toBeUndefined();
    await runner.asyncIdle();
    expect(runner.takeAsyncResults()).toEqual([
      {
        event: "Stop",
        context: ["Background review says:\nFINDING: token in config.js"],
        notices: [`Stop hook "${command}": Review found issues`],
      },
    ]);
  });
});
