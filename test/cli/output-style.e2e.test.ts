/**
 * `outputStyle` through the built CLI against the emulator, as Claude Code's output styles change its system prompt
 * (https://code.claude.com/docs/en/output-styles): a custom style's text at the end of the system prompt, the
 * coding instructions kept only with `keep-coding-instructions: true`, the instructions for efficient output
 * dropped under any style; a built-in style by name; an unknown name is one line; `/output-style` saves the choice
 * and it applies from /clear, never mid-session (the prefix stays byte-stable). Oracle: the emulator's logged
 * requests (their `system` text) and the settings file on disk.
 * Mutations (scripts/mutation-check.mjs): output-style-not-applied, output-style-keeps-coding,
 * output-style-mid-session.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

const PIRATE = "Answer every question like a pirate, ending with arr.";
const CODING = "Prefer Read, Grep and Glob for";
const EFFICIENT = "Keep answers short and concrete.";

/** The `system` text of each main request, in order. */
function systems(server: Emulator): string[] {
  return server.requests
    .filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))
    .map((request) => request.body as { system?: unknown; tools?: unknown[] })
    .filter((body) => Array.isArray(body.tools))
    .map((body) => JSON.stringify(body.system));
}

async function project(
  settings: Record<string, unknown>,
  styleFrontMatter = "name: Pirate\ndescription: Talks like a pirate",
) {
  const setup = await harness.setup({ scenario: ["Ahoy.", "Again.", "Third."] }, "threadline-style-");
  await mkdir(join(setup.cwd, ".claude", "output-styles"), { recursive: true });
  await writeFile(join(setup.cwd, ".claude", "settings.json"), JSON.stringify(settings));
  await writeFile(
    join(setup.cwd, ".claude", "output-styles", "pirate.md"),
    `---\n${styleFrontMatter}\n---\n${PIRATE}\n`,
  );
  return setup;
}

describe("output styles", () => {
  // Mutation caught: the style never reaching the engine (output-style-not-applied: no style text in the request).
  it("a custom style's text ends the system prompt; coding and efficient-output instructions are left out", async () => {
    const { cwd, env, emulator } = await project({ outputStyle: "Pirate" });
    const result = await runCli(["-p", "hello"], { cwd, env });
    expect(result.code).toBe(0);
    const [system] = systems(emulator);
    expect(system).toContain("# Output Style: Pirate");
    expect(system).toContain(PIRATE);
    expect(system).not.toContain(CODING);
    expect(system).not.toContain(EFFICIENT);
    // The Snip tool's mechanics stay under every style.
    expect(system).toContain("Snip tool");
  });

  // Mutation caught: keep-coding-instructions ignored (output-style-keeps-coding).
  it("keep-coding-instructions: true keeps the coding instructions", async () => {
    const { cwd, env, emulator } = await project(
      { outputStyle: "pirate" },
      "name: Pirate\nkeep-coding-instructions: true",
    );
    expect((await runCli(["-p", "hello"], { cwd, env })).code).toBe(0);
    const [system] = systems(emulator);
    expect(system).toContain(PIRATE);
    expect(system).toContain(CODING);
    expect(system).not.toContain(EFFICIENT);
  });

  it("a built-in style by name (Explanatory); an unknown name is one line and the default prompt", async () => {
    const built = await project({ outputStyle: "Explanatory" });
    expect((await runCli(["-p", "hello"], { cwd: built.cwd, env: built.env })).code).toBe(0);
    const [system] = systems(built.emulator);
    expect(system).toContain("# Output Style: Explanatory");
    expect(system).toContain("Insight");
    expect(system).toContain(CODING);
    await built.emulator.close();
    const unknown = await project({ outputStyle: "Shanty" });
    const result = await runCli(["-p", "hello"], { cwd: unknown.cwd, env: unknown.env });
    expect(result.code).toBe(0);
    expect(result.stderr.match(/outputStyle "Shanty" is not a style/g)).toHaveLength(1);
    expect(systems(unknown.emulator)[0]).toContain(EFFICIENT);
    expect(systems(unknown.emulator)[0]).not.toContain("Output Style");
  });

  // Mutation caught: /output-style applied to the open session (output-style-mid-session: the second request's
  // system prompt changes, breaking the cached prefix).
  it("/output-style saves the choice; it applies from /clear, not mid-session", async () => {
    const { cwd, env, emulator } = await project({});
    const input = "hello\n/output-style pirate\nagain\n/clear\nthird\n";
    const result = await runCli([], { cwd, env, input });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("It applies from /clear or the next session");
    const local = JSON.parse(await readFile(join(cwd, ".claude", "settings.local.json"), "utf8")) as unknown;
    expect(local).toEqual({ outputStyle: "Pirate" });
    const [first, second, third] = systems(emulator);
    expect(second).toBe(first);
    expect(first).not.toContain(PIRATE);
    expect(third).toContain(PIRATE);
  });
});
