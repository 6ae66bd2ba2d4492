import { describe, expect, it } from "vitest";
import { isReadOnlyCommand } from "../../src/tools/bash-read-only.js";

describe("isReadOnlyCommand", () => {
  it.each([
    "ls -la",
    "cat package.json",
    "git status",
    "git log --oneline -5",
    "git diff HEAD~1",
    "grep -rn foo src | head -20",
    "pwd && ls",
    "wc -l src/index.ts; ls",
    "find . -name '*.ts'",
  ])("treats %j as read-only", (command) => {
    expect(isReadOnlyCommand(command)).toBe(true);
  });

  it.each([
    "rm -rf build",
    "echo hi > file.txt",
    "cat a >> b",
    "ls & rm x",
    "ls && npm install",
    "cat $(rm x)",
    "cat `rm x`",
    "git commit -m x",
    "git push",
    "git -c core.pager=evil log",
    "git diff --output=patch.txt",
    "find . -delete",
    "find . -exec rm {} ;",
    "sed -i s/a/b/ file",
    "grep 'a|b;rm' file",
    "cat <<EOF\nx\nEOF",
    "",
  ])("treats %j as not read-only", (command) => {
    expect(isReadOnlyCommand(command)).toBe(false);
  });
});
