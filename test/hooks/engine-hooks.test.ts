/**
 * Hooks through the library (issue 30): a UserPromptSubmit block keeps the prompt from the model, a PreToolUse
 * `updatedInput` changes what runs and its `allow` skips the question, Notification hears a permission question.
 * Real shell hooks, the engine over HTTP against the emulator.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HooksSettings } from "../../src/settings/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function hooks(event: keyof HooksSettings, command: string, matcher = ""): HooksSettings {
  return { [event]: [{ matcher, hooks: [{ command, source: "test" }] }] };
}

function messagesRequests(h: Harness) {
  return h.emulator.requests.filter((record) => record.path === "/v1/messages");
}

describe("hooks in the engine", () => {
  it("a UserPromptSubmit hook that exits 2 keeps the prompt from the model and from the transcript", async () => {
    harness = await startHarness(
      { scenario: ["never sent"] },
      { hooks: hooks("UserPromptSubmit", 'echo "No deploys on Fridays." >&2; exit 2') },
    );
    const events = await collect(harness.engine.submitMessage("deploy to production"));
    const end = turnEnd(events);
    expect(end.reason).toBe("hook_blocked");
    expect(end.error).toBe("UserPromptSubmit hook blocked the prompt: No deploys on Fridays.");
    // Mutation caught: appending the prompt before the hook runs records (and later sends) it anyway.
    expect(messagesRequests(harness)).toHaveLength(0);
    expect(JSON.stringify(harness.engine.timeline.entries)).not.toContain("deploy to production");
  });

  it("PreToolUse updatedInput changes the command that runs, and its allow skips a question nobody could answer", async () => {
    const rewrite =
      'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo rewritten-by-hook"}}}\'';
    harness = await startHarness(
      { scenario: [{ content: [{ type: "tool_use", name: "Bash", input: { command: "echo original" } }] }, "ok"] },
      { permission: { mode: "default" }, hooks: hooks("PreToolUse", rewrite, "Bash") },
    );
    const events = await collect(harness.engine.submitMessage("run it"));
    expect(turnEnd(events).reason).toBe("completed");
    const body = messagesRequests(harness).at(-1)?.body as { messages: unknown[] } | undefined;
    const last = JSON.stringify(body?.messages.at(-1));
    // Mutation caught: ignoring updatedInput runs "echo original"; ignoring allow leaves it denied (default mode, no ask).
    expect(last).toContain("rewritten-by-hook");
    expect(last).not.toContain("Permission denied");
  });

  it("Notification hooks hear each permission question with its message", async () => {
    let asked = 0;
    harness = await startHarness(
      { scenario: [{ content: [{ type: "tool_use", name: "Bash", input: { command: "touch made.txt" } }] }, "ok"] },
      {
        permission: {
          mode: "default",
          ask: async () => {
            asked++;
            return true;
          },
        },
        hooks: hooks("Notification", 'cat > "$CLAUDE_PROJECT_DIR/notification.json"', "permission_prompt"),
      },
    );
    await collect(harness.engine.submitMessage("make it"));
    await harness.engine.idle();
    expect(asked).toBe(1);
    // The hook is not waited for: give it the moment it needs to write.
    let text = "";
    for (let attempt = 0; attempt < 100 && text === ""; attempt++) {
      text = await readFile(join(harness.workspace, "notification.json"), "utf8").catch(() => "");
      if (text === "") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(JSON.parse(text)).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message: "threadline needs your permission to use Bash(touch made.txt)",
    });
  });
});
