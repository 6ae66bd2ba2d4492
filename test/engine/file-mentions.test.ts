/**
 * `@path` in a prompt attaches that text file (issue 57), read through the session's Read tool under its
 * permission policy. The oracle is the request body the emulator received: the file's own literal lines are
 * in it, a denied file's are not, and a word that names no file attaches nothing.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmulatorRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Every text block of the first request's messages, joined: what the model read. */
function firstBody(h: Harness): string {
  const record = h.emulator.requests.find((each) => each.path === "/v1/messages");
  const messages = (record!.body as EmulatorRequest).messages as Array<{ content: string | Array<{ text?: string }> }>;
  return messages
    .flatMap(
      (message): Array<string | { text?: string }> =>
        typeof message.content === "string" ? [message.content] : message.content,
    )
    .map((block) => (typeof block === "string" ? block : (block.text ?? "")))
    .join("\n");
}

describe("@file mentions", () => {
  it("attaches a mentioned text file, trailing punctuation dropped, each file once; other words stay text", async () => {
    harness = await startHarness({ scenario: ["It greets."] });
    await mkdir(join(harness.workspace, "src"), { recursive: true });
    await writeFile(join(harness.workspace, "src", "app.js"), "const marker = 'APP-LINE-ONE';\n");
    const prompt =
      "explain @src/app.js, then @src/app.js again; also @nothing-here and mail me@example.com, see @README.md.";
    expect(turnEnd(await collect(harness.engine.submitMessage(prompt))).reason).toBe("completed");
    const body = firstBody(harness);
    const file = join(harness.workspace, "src", "app.js");
    expect(body).toContain(`Called the Read tool with the following input: ${JSON.stringify({ file_path: file })}`);
    expect(body).toContain("APP-LINE-ONE");
    // The sentence's full stop is not part of the name. Mutation caught: trailing punctuation kept.
    expect(body).toContain("A tiny project.");
    // Each file once, though app.js is mentioned twice. Mutation caught: the duplicate check dropped.
    expect(body.split("Called the Read tool").length - 1).toBe(2);
    // The person's words are sent as typed.
    expect(body).toContain(prompt);
  });

  it("a deny rule holds: the file's content is not sent, the model is told it was not read", async () => {
    harness = await startHarness(
      { scenario: ["Cannot."] },
      { permission: { mode: "bypassPermissions", allow: [], deny: ["Read(./secret.txt)"] } },
    );
    await writeFile(join(harness.workspace, "secret.txt"), "TOKEN-VALUE-77\n");
    expect(turnEnd(await collect(harness.engine.submitMessage("show @secret.txt"))).reason).toBe("completed");
    const body = firstBody(harness);
    expect(body).not.toContain("TOKEN-VALUE-77");
    expect(body).toContain("The Read tool did not read it");
  });

  it("a custom command's turn (fileMentions: false, its @files inlined already) attaches nothing more", async () => {
    harness = await startHarness({ scenario: ["Done."] });
    const turn = harness.engine.submitMessage("summarise @README.md", { fileMentions: false });
    expect(turnEnd(await collect(turn)).reason).toBe("completed");
    expect(firstBody(harness)).not.toContain("Called the Read tool");
  });

  it("a prompt with no mention of a file sends no attachment", async () => {
    harness = await startHarness({ scenario: ["Hi."] });
    expect(turnEnd(await collect(harness.engine.submitMessage("hello @someone"))).reason).toBe("completed");
    expect(firstBody(harness)).not.toContain("Called the Read tool");
  });
});
