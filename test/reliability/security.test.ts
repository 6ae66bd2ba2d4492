import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startEmulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { AnthropicProvider } from "../../src/provider/index.js";
import { escapeAttempts, makeFuzzWorkspace, outputText } from "../../support/reliability/fuzz-tools.js";
import {
  fakeSecretKey,
  filesContaining,
  runSoakSession,
  SECRET_MARKER,
} from "../../support/reliability/soak-session.js";
import { makeTempDir } from "../../support/temp-dir.js";

describe("security", () => {
  it("no API key in any transcript, emulator log or event log of a faulted session", async () => {
    const report = await runSoakSession({ seed: 99, toolSteps: 20, keep: true });
    try {
      expect(report.completed).toBe(true);
      expect(report.faultsInjected).toBeGreaterThan(0);
      expect(report.secretLeaks).toEqual([]);
      // The grep does find a key when one is there (so the empty list above means something).
      await writeFile(join(report.artifacts, "planted.log"), `oops ${fakeSecretKey(99)}\n`);
      expect(await filesContaining(report.artifacts, [fakeSecretKey(99)])).toEqual([
        join(report.artifacts, "planted.log"),
      ]);
    } finally {
      await rm(report.artifacts, { recursive: true, force: true });
    }
  });

  it("a rejected key does not appear in the error, the transcript or the event stream", async () => {
    const key = fakeSecretKey(7);
    const emulator = await startEmulator({ scenario: ["never reached"], apiKey: "sk-ant-the-right-key-000000" });
    const home = await makeTempDir("sec");
    try {
      const engine = new QueryEngine({
        cwd: home,
        home,
        provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: key, sleep: async () => {} }),
      });
      const seen: string[] = [];
      for await (const event of engine.submitMessage("hello")) seen.push(JSON.stringify(event));
      await engine.close();
      const end = JSON.parse(seen.at(-1) ?? "{}") as { type?: string; reason?: string; error?: string };
      expect(end).toMatchObject({ type: "turn_end", reason: "error" });
      expect(end.error).toMatch(/401|auth/i);
      expect(seen.join("\n")).not.toContain(SECRET_MARKER);
      const transcript = await readFile(engine.transcriptPath ?? "", "utf8");
      expect(transcript).toContain("hello");
      expect(transcript).not.toContain(SECRET_MARKER);
    } finally {
      await emulator.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it("file tools refuse every path leaving the workspace, symlinks included, unless the directory is allowed", async () => {
    const fixture = await makeFuzzWorkspace();
    try {
      const refused = await escapeAttempts(fixture);
      const accepted = refused.filter((attempt) => attempt.output.isError !== true);
      expect(accepted.map((attempt) => `${attempt.tool} ${attempt.path}`)).toEqual([]);
      expect(await readFile(join(fixture.outside, "secret.txt"), "utf8")).toBe("outside the workspace\n");
      // With the outside directory allowed, the same symlinks work.
      const allowed = await escapeAttempts(fixture, [fixture.outside]);
      const read = allowed.find((attempt) => attempt.tool === "Read" && attempt.path === "escape-file");
      expect(read?.output.isError).not.toBe(true);
      expect(outputText(read!.output)).toContain("outside the workspace");
      const write = allowed.find((attempt) => attempt.tool === "Write" && attempt.path === "escape-dir/new.txt");
      expect(write?.output.isError).not.toBe(true);
      expect(await readFile(join(fixture.outside, "new.txt"), "utf8")).toBe("written by a fuzzer");
    } finally {
      await fixture.close();
    }
  });

  it("the emulator binds only loopback", async () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "example.com"])
      await expect(startEmulator({ host })).rejects.toThrow(/loopback/);
    const emulator = await startEmulator({});
    try {
      expect(new URL(emulator.url).hostname).toBe("127.0.0.1");
    } finally {
      await emulator.close();
    }
  });
});
