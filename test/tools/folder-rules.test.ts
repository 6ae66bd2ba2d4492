/**
 * A rule that names a folder covers everything in it (docs/SETTINGS.md "Permission rules": "a matched folder
 * covers everything in it"), checked on real files through `runTool` in bypass mode, the mode where only deny
 * rules stand between the model and a file. Oracle: the file's own text on disk never comes back, and a
 * Write leaves no file.
 *
 * Mutation caught (scripts/mutation-check.mjs `folder-rule-ancestor-walk-off`): `pathRuleMatches` no longer
 * testing the path's ancestors, so `Read(./secrets)` stops covering `secrets/key.pem`.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readTool } from "../../src/tools/files/read-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

const KEY_TEXT = "-----BEGIN PRIVATE KEY----- folder-rule-guard-3141";
let workspace: string;

beforeEach(async () => {
  workspace = await makeTempDirectory("folder-rules");
  await mkdir(join(workspace, "secrets", "deep"), { recursive: true });
  await mkdir(join(workspace, "pkg", "secrets"), { recursive: true });
  await writeFile(join(workspace, "secrets", "key.pem"), `${KEY_TEXT}\n`);
  await writeFile(join(workspace, "secrets", "deep", "key.pem"), `${KEY_TEXT}\n`);
  await writeFile(join(workspace, "pkg", "secrets", "key.pem"), `${KEY_TEXT}\n`);
  await writeFile(join(workspace, "notes.txt"), "plain notes\n");
});
afterEach(async () => {
  await removeDirectory(workspace);
});

function bypass(deny: string[]) {
  return { mode: "bypassPermissions" as const, allow: [], deny };
}

describe("a folder rule covers what is inside the folder", () => {
  it.each([
    ["Read(./secrets)", "secrets/key.pem"],
    ["Read(./secrets)", "secrets/deep/key.pem"],
    ["Read(./secrets/)", "secrets/key.pem"],
    ["Read(secrets)", "pkg/secrets/key.pem"],
  ])("%s denies reading %s in bypass mode", async (rule, path) => {
    const output = await runTool(readTool, { file_path: path }, makeContext(workspace), bypass([rule]));
    const text = outputText(output.content);
    expect(output.isError).toBe(true);
    expect(text).not.toContain("folder-rule-guard-3141");
    expect(text).toContain(`deny rule "${rule}"`);
  });

  it("Edit(./generated) denies writing a new file inside the folder; the disk stays as it was", async () => {
    const output = await runTool(
      writeTool,
      { file_path: "generated/out.ts", content: "export {};\n" },
      makeContext(workspace),
      bypass(["Edit(./generated)"]),
    );
    expect(output.isError).toBe(true);
    expect(existsSync(join(workspace, "generated", "out.ts"))).toBe(false);
  });

  it("a file beside the folder is still read (the rule names only the folder)", async () => {
    const output = await runTool(
      readTool,
      { file_path: "notes.txt" },
      makeContext(workspace),
      bypass(["Read(./secrets)"]),
    );
    expect(output.isError).not.toBe(true);
    expect(outputText(output.content)).toContain("plain notes");
  });
});
