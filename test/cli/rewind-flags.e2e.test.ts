/**
 * `--rewind-to` / `--rewind-mode` in print mode through the built CLI (docs/REWIND.md): a saved session is
 * rewound without a request, the file comes back, and a prompt that is not there is one line and exit 1.
 */
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { buildOnce } from "./build-once.js";
import { cliEnv, runCli } from "./cli-process.js";

let emulator: Emulator | undefined;
beforeAll(() => buildOnce());
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe("--rewind-to in print mode", () => {
  it("rewinds a saved session's code and conversation without sending anything", async () => {
    emulator = await startEmulator({
      scenario: [
        "first answer",
        { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "second\n" } }] },
        "wrote it",
      ],
    });
    const cwd = await makeTempDir("rewind-cwd");
    const home = await makeTempDir("rewind-home");
    await writeFile(join(cwd, "notes.txt"), "original\n");
    const env = cliEnv(emulator.url, home);
    const id = randomUUID();
    expect((await runCli(["-p", "--session-id", id, "one"], { env, cwd })).code).toBe(0);
    const second = await runCli(["-p", "--resume", id, "--permission-mode", "acceptEdits", "two"], { env, cwd });
    expect(second.code).toBe(0);
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("second\n");
    const sent = emulator.requests.length;

    const missing = await runCli(["-p", "--resume", id, "--rewind-to", "9"], { env, cwd });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toEqual([
      "threadline: --rewind-to: no prompt 9: this conversation has 2 prompt(s); nothing changed",
    ]);

    const rewound = await runCli(["-p", "--resume", id, "--rewind-to", "1", "--rewind-mode", "both"], { env, cwd });
    expect(rewound.code).toBe(0);
    expect(rewound.stderr.trim()).toBe("threadline: rewound conversation and code to prompt 1, 1 file(s) restored");
    expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("original\n");
    expect(emulator.requests.length).toBe(sent);
  }, 120_000);
});
