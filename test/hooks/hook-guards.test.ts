/**
 * Two hook guards an audit (issue 45) found untested, each checked by its effect, not by the hook runner's
 * own state: a PreToolUse hook's JSON `permissionDecision: "deny"` keeps the call from running (oracle: the
 * file the call would have written is not on disk, and the model reads the hook's reason), and a hook process
 * never sees this process's own secrets (oracle: the environment the hook wrote to a file).
 *
 * Mutations caught (scripts/mutation-check.mjs):
 * - `hook-deny-ignored`: the hook runner skipping a `deny` decision (the Write runs in bypass mode);
 * - `hook-env-process-secrets`: hooks given `{...process.env, ...toolEnv}` (ANTHROPIC_API_KEY reaches the hook).
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HooksSettings } from "../../src/settings/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

/** A key in this process's own environment, as a person's shell would hold it. */
const PROCESS_KEY = "sk-ant-api03-hook-guard-process-secret-7Qx9";

let harness: Harness | undefined;
let savedKey: string | undefined;
beforeAll(() => {
  savedKey = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = PROCESS_KEY;
});
afterAll(() => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function hooks(event: keyof HooksSettings, command: string, matcher = ""): HooksSettings {
  return { [event]: [{ matcher, hooks: [{ command, source: "test" }] }] };
}

describe("hook guards, by their effect", () => {
  it("a PreToolUse hook's JSON deny stops the call in bypass mode; the model reads its reason", async () => {
    const deny =
      'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no writes in this folder"}}\'';
    harness = await startHarness(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "made.txt", content: "written" } }] },
          "ok",
        ],
      },
      { permission: { mode: "bypassPermissions" }, hooks: hooks("PreToolUse", deny, "Write") },
    );
    const end = turnEnd(await collect(harness.engine.submitMessage("write it")));
    expect(end.reason).toBe("completed");
    // Oracle: the disk. Mutation caught: a deny decision ignored (the Write runs).
    expect(existsSync(join(harness.workspace, "made.txt"))).toBe(false);
    const posts = harness.emulator.requests.filter((record) => record.path === "/v1/messages");
    const last = JSON.stringify((posts.at(-1)!.body as { messages: unknown[] }).messages.at(-1));
    expect(last).toContain("no writes in this folder");
    expect(last).toContain('"is_error":true');
  });

  it("a hook never gets this process's secrets, only the tools' environment and CLAUDE_PROJECT_DIR", async () => {
    harness = await startHarness(
      { scenario: ["ok"] },
      {
        // A settings file's env (tools and hooks get it) holding one plain and one secret-shaped name.
        toolEnv: { PROJECT_COLOR: "teal", DEPLOY_TOKEN: "deploy-token-from-settings-51" },
        hooks: hooks("UserPromptSubmit", 'env > "$CLAUDE_PROJECT_DIR/hook-env.txt"'),
      },
    );
    await collect(harness.engine.submitMessage("hello"));
    // Oracle: the environment the hook process itself wrote to disk.
    const env = await readFile(join(harness.workspace, "hook-env.txt"), "utf8");
    expect(env).toContain("PROJECT_COLOR=teal");
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${harness.workspace}`);
    // Mutation caught: hooks given {...process.env, ...toolEnv} (the process's own key comes back).
    expect(env).not.toContain(PROCESS_KEY);
    expect(env).not.toMatch(/^ANTHROPIC_API_KEY=/m);
    expect(env).not.toContain("deploy-token-from-settings-51");
  });
});
