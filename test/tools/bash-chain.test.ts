/**
 * Chained Bash commands under allow rules (issue 40 item 6): a chain is allowed when every part is allowed by
 * some rule (or is read-only); deny rules match any part; substitutions and subshells are never allowed part by
 * part. Oracles are literal commands and decisions.
 */
import { describe, expect, it } from "vitest";
import { checkPermission, type PermissionPolicy } from "../../src/tools/permissions/permissions.js";
import { splitBashChain } from "../../src/tools/shell/bash-chain.js";
import { bashTool } from "../../src/tools/shell/bash-tool.js";

const policy = (overrides: Partial<PermissionPolicy> = {}): PermissionPolicy => ({
  mode: "default",
  allow: ["Bash(git add:*)", "Bash(git commit:*)"],
  deny: [],
  ...overrides,
});

const decide = async (command: string, overrides: Partial<PermissionPolicy> = {}) =>
  (await checkPermission(bashTool, { command }, policy(overrides))).behavior;

describe("splitBashChain", () => {
  it("splits on &&, ||, ; and | outside quotes", () => {
    expect(splitBashChain('git add x && git commit -m "a && b; c | d"')).toEqual([
      "git add x",
      'git commit -m "a && b; c | d"',
    ]);
    expect(splitBashChain("a || b ; c | d;")).toEqual(["a", "b", "c", "d"]);
    expect(splitBashChain("git commit -m 'it''s $HOME'")).toEqual(["git commit -m 'it''s $HOME'"]);
  });

  it("refuses substitutions, subshells, redirections, backgrounding and empty parts", () => {
    for (const command of [
      "git add $(cat list)",
      "git add `cat list`",
      'git commit -m "$(whoami)"',
      "(git add x) && git commit -m y",
      "{ git add x; }",
      "git add x > out",
      "git add x & git commit -m y",
      "git add x &&",
      "&& git add x",
      "git add x\ngit commit -m y",
      "git add 'x",
      "git add x\\; rm y",
      "git add $FILES",
    ])
      expect(splitBashChain(command), command).toBeUndefined();
  });
});

describe("chained commands and permission rules", () => {
  it("allows a chain whose every part an allow rule covers", async () => {
    expect(await decide("git add x && git commit -m y")).toBe("allow");
    expect(await decide('git add a b; git commit -m "fix: chained rules"')).toBe("allow");
    // A read-only part needs no rule of its own.
    expect(await decide("git status && git add x")).toBe("allow");
  });

  it("does not allow a chain with a part no rule covers", async () => {
    expect(await decide("git add x && git push")).toBe("deny");
    expect(await decide("git add x && rm -rf /tmp/y")).toBe("deny");
    expect(await decide("git add x | sh")).toBe("deny");
  });

  it("never allows substitutions or subshells part by part", async () => {
    expect(await decide("git add x && git commit -m $(rm -rf y)")).toBe("deny");
    expect(await decide("git add x && git commit -m `rm -rf y`")).toBe("deny");
    expect(await decide("(git add x) && git commit -m y")).toBe("deny");
  });

  it("a deny rule matching any part denies the chain", async () => {
    const decision = await checkPermission(
      bashTool,
      { command: "git add x && git commit -m y" },
      policy({ deny: ["Bash(git commit:*)"] }),
    );
    expect(decision.behavior).toBe("deny");
    expect(decision.behavior === "deny" && decision.message).toContain('deny rule "Bash(git commit:*)"');
  });

  it("an ask rule matching any part asks", async () => {
    let asked = "";
    const decision = await checkPermission(
      bashTool,
      { command: "git add x && git commit -m y" },
      policy({
        askRules: ["Bash(git commit:*)"],
        ask: async (request) => {
          asked = request.summary;
          return false;
        },
      }),
    );
    expect(decision.behavior).toBe("deny");
    expect(asked).toBe("Bash(git add x && git commit -m y)");
  });
});
