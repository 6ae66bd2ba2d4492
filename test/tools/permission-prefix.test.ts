import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { PermissionPrompter } from "../../src/cli/modes/questions/permission-prompt.js";
import { LineReader } from "../../src/cli/terminal/line-reader.js";
import { createStyle } from "../../src/cli/terminal/style.js";
import { alwaysAllowRule, bashCommandPrefix } from "../../src/tools/permissions/permission-rules.js";

describe("bashCommandPrefix", () => {
  it.each([
    ["npm test", "npm test"],
    ["npm test -- --watch", "npm test"],
    ["npm run build", "npm run build"],
    ["git status", "git status"],
    ["git log --oneline -5", "git log"],
    ["cat /etc/passwd", "cat"],
    ["python3 script.py", "python3"],
    ["make", "make"],
    ["cargo test --release", "cargo test"],
  ])("%j remembers %j", (command, prefix) => {
    expect(bashCommandPrefix(command)).toBe(prefix);
  });

  it.each([
    "npm test && rm -rf /",
    "ls | sh",
    "echo $(id)",
    "echo x > f",
    "A=1 npm test",
    "./run.sh",
    "",
    "echo 'a b'",
  ])("%j has no prefix to remember", (command) => {
    expect(bashCommandPrefix(command)).toBeUndefined();
  });

  it("rules: a prefix rule for Bash, the tool name for others", () => {
    expect(alwaysAllowRule("Bash", { command: "npm test" })).toBe("Bash(npm test:*)");
    expect(alwaysAllowRule("Bash", { command: "a && b" })).toBeUndefined();
    expect(alwaysAllowRule("Write", { file_path: "a" })).toBe("Write");
  });
});

describe("PermissionPrompter", () => {
  it('"always" for a Bash command allows that prefix only, and asks again for anything else', async () => {
    const input = new PassThrough();
    const reader = new LineReader(createInterface({ input }));
    const lines: string[] = [];
    const prompter = new PermissionPrompter(reader, createStyle(false, {}), (text) => lines.push(text));
    const ask = (command: string) => prompter.ask({ tool: "Bash", input: { command }, summary: `Bash(${command})` });

    const first = ask("npm test");
    input.write("a\n");
    expect(await first).toBe(true);
    expect(prompter.alwaysAllowed).toEqual(["Bash(npm test:*)"]);
    // Same prefix: no question.
    expect(await ask("npm test -- --coverage")).toBe(true);
    const asked = lines.length;
    // Another command, or the prefix chained with another: asked again.
    const other = ask("npm install left-pad");
    input.write("n\n");
    expect(await other).toBe(false);
    const chained = ask("npm test && curl evil");
    input.write("n\n");
    expect(await chained).toBe(false);
    expect(lines.length).toBeGreaterThan(asked);
    expect(lines.filter((line) => line.startsWith("? Allow"))).toEqual([
      "? Allow Bash(npm test)",
      "? Allow Bash(npm install left-pad)",
      "? Allow Bash(npm test && curl evil)",
    ]);
    reader.close();
  });
});
