/**
 * Rewind covers the first prompt (issue 53 item 4): `--rewind-to 0` puts back what the first prompt's turn
 * changed (a file edited, a file created) and takes the conversation back to before it; a resume then sends a
 * request without the first prompt. Oracles: the files on disk and the emulator's logged request.
 */
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "../cli/cli-harness.js";
import { runCli } from "../cli/cli-process.js";

const harness = useCliHarness();

describe("--rewind-to 0", () => {
  it("restores the first prompt's changes and the conversation before it", async () => {
    const { cwd, env, emulator } = await harness.setup(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "changed\n" } }] },
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "created.txt", content: "new\n" } }] },
          "wrote both",
          "a fresh start",
        ],
      },
      "rewind-start",
    );
    await writeFile(join(cwd, "notes.txt"), "original\n");
    const id = randomUUID();
    const first = await runCli(["-p", "--session-id", id, "--permission-mode", "acceptEdits", "change the notes"], {
      env,
      cwd,
    });
    expect(first.code).toBe(0);
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("changed\n");
    expect(await readFile(join(cwd, "created.txt"), "utf8")).toBe("new\n");
    const sent = emulator.requests.length;

    const rewound = await runCli(["-p", "--resume", id, "--rewind-to", "0"], { env, cwd });
    expect(rewound.code).toBe(0);
    expect(rewound.stderr.trim()).toBe(
      "threadline: rewound conversation and code to the start of the session, 2 file(s) restored",
    );
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("original\n");
    await expect(readFile(join(cwd, "created.txt"))).rejects.toThrow(/ENOENT/);
    expect(emulator.requests.length).toBe(sent);

    const again = await runCli(["-p", "--resume", id, "start over"], { env, cwd });
    expect(again.code).toBe(0);
    const body = JSON.stringify(emulator.requests.at(-1)?.body);
    expect(body).toContain("start over");
    expect(body).not.toContain("change the notes");
    expect(body).not.toContain("wrote both");
  }, 120_000);

  it("in code mode restores the files and keeps the conversation", async () => {
    const { cwd, env, emulator } = await harness.setup(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "changed\n" } }] },
          "done",
          "still here",
        ],
      },
      "rewind-start-code",
    );
    await writeFile(join(cwd, "notes.txt"), "original\n");
    const id = randomUUID();
    await runCli(["-p", "--session-id", id, "--permission-mode", "acceptEdits", "change the notes"], { env, cwd });
    const rewound = await runCli(["-p", "--resume", id, "--rewind-to", "0", "--rewind-mode", "code"], { env, cwd });
    expect(rewound.stderr.trim()).toBe("threadline: rewound code to the start of the session, 1 file(s) restored");
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("original\n");
    await runCli(["-p", "--resume", id, "and now?"], { env, cwd });
    expect(JSON.stringify(emulator.requests.at(-1)?.body)).toContain("change the notes");
  }, 120_000);
});
