import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestMatch, editDistance } from "../../src/cli/did-you-mean.js";
import { mistypedSubcommand, wantsHelp } from "../../src/cli/subcommands.js";

describe("editDistance", () => {
  it("counts an adjacent transposition as one edit", () => {
    expect(editDistance("inpsect", "inspect")).toBe(1);
    expect(editDistance("emulatr", "emulator")).toBe(1);
    expect(editDistance("", "demo")).toBe(4);
  });

  it("is a symmetric distance that is zero only for equal strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, b) === 0).toBe(a === b);
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });

  it("suggests nothing for short or distant words", () => {
    expect(closestMatch("do", ["demo"])).toBeUndefined();
    expect(closestMatch("--verbsoe", ["--verbose", "--version"])).toBe("--verbose");
    expect(closestMatch("--frobnicate", ["--verbose"])).toBeUndefined();
  });
});

describe("a typo'd subcommand or a prompt", () => {
  it.each([
    [["inpsect", "x.jsonl"], "inspect"],
    [["inspetc", "--json", "/tmp/a.jsonl"], "inspect"],
    [["dmeo"], "demo"],
    [["emulatro", "--port", "0"], "emulator"],
    [["emualtor", "--help"], "emulator"],
  ])("%j is a typo of %s", (argv, meant) => {
    expect(mistypedSubcommand(argv)).toBe(meant);
  });

  it.each([
    [["inspect the failing test"]],
    [["inspects", "the", "logs"]],
    [["do", "x.jsonl"]],
    [["fix", "the", "bug"]],
    [["-p", "inpsect", "x.jsonl"]],
    [[]],
  ])("%j is a prompt", (argv) => {
    expect(mistypedSubcommand(argv)).toBeUndefined();
  });

  it("--help counts only before --", () => {
    expect(wantsHelp(["--port", "0", "-h"])).toBe(true);
    expect(wantsHelp(["--", "--help"])).toBe(false);
  });
});
