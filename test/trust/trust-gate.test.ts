/**
 * The trust gate and the confinement of configuration files (src/trust/trust-gate.ts, confine.ts, docs/TRUST.md),
 * unit by unit, as Stryker mutates them (docs/MUTATION-TESTING.md). Their other tests are end-to-end (they run
 * dist/, which no mutant reaches). Oracles of their own: real folders, symlinks and record files on disk read
 * back as JSON, and the lines a person reads written here as literals.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { confinedPath } from "../../src/trust/confine.js";
import { createTrustGate, isYes, trustQuestionLines, withheldLine } from "../../src/trust/trust-gate.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("trust-gate");

/** A real (symlink-free) project folder and a threadline home beside it. */
async function layout(): Promise<{ base: string; cwd: string; home: string }> {
  const base = realpathSync(await tempDir());
  const cwd = join(base, "project");
  mkdirSync(cwd);
  return { base, cwd, home: join(base, "home") };
}

/** A `.claude.json` in Claude Code's own layout (2-space JSON, final newline). */
function writeClaudeJson(path: string, document: unknown): void {
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
}

describe("the trust gate: who is trusted", () => {
  it("an unrecorded folder is not trusted, and each thing asked is withheld with its kind, what and source", async () => {
    const { cwd, home } = await layout();
    const gate = createTrustGate({ cwd, home, mode: "print" });
    expect(gate.trusted).toBe(false);
    expect(gate.cwd).toBe(cwd);
    expect(gate.mayRun("hooks", "./guard.sh", ".claude/settings.json")).toBe(false);
    expect(gate.mayRun("env")).toBe(false);
    expect(gate.withheld()).toEqual([
      { kind: "hooks", what: "./guard.sh", source: ".claude/settings.json" },
      { kind: "env", what: "", source: "" },
    ]);
    expect(gate.withheldLine()).toBe(
      `folder ${cwd} is not trusted: withheld project hooks (./guard.sh); env. Trust it by answering yes in interactive mode, or run with --trust-folder`,
    );
  });

  it("--trust-folder trusts for the run without writing the record; `false` trusts nothing", async () => {
    const { cwd, home } = await layout();
    const flagged = createTrustGate({ cwd, home, mode: "print", trustFlag: true });
    expect(flagged.trusted).toBe(true);
    expect(flagged.mayRun("mcpServers", "dumper", ".mcp.json")).toBe(true);
    expect(flagged.withheld()).toEqual([]);
    expect(flagged.withheldLine()).toBeUndefined();
    expect(existsSync(join(home, "trusted-folders.json"))).toBe(false);
    expect(createTrustGate({ cwd, home, mode: "print", trustFlag: false }).trusted).toBe(false);
  });

  it("a folder in threadline's record is trusted (and one beside it is not)", async () => {
    const { base, cwd, home } = await layout();
    mkdirSync(join(base, "other"));
    mkdirSync(home);
    writeFileSync(
      join(home, "trusted-folders.json"),
      JSON.stringify({ folders: { [cwd]: { trustedAt: "2026-01-01T00:00:00.000Z" } } }),
    );
    expect(createTrustGate({ cwd, home, mode: "print" }).trusted).toBe(true);
    expect(createTrustGate({ cwd: join(base, "other"), home, mode: "print" }).trusted).toBe(false);
  });

  it("a folder Claude Code's record trusts is trusted only when that record is given", async () => {
    const { base, cwd, home } = await layout();
    const claudeJsonPath = join(base, ".claude.json");
    writeClaudeJson(claudeJsonPath, { projects: { [cwd]: { hasTrustDialogAccepted: true } } });
    expect(createTrustGate({ cwd, home, mode: "print", claudeJsonPath }).trusted).toBe(true);
    expect(createTrustGate({ cwd, home, mode: "print" }).trusted).toBe(false);
    writeClaudeJson(claudeJsonPath, { projects: { [cwd]: { hasTrustDialogAccepted: false } } });
    expect(createTrustGate({ cwd, home, mode: "print", claudeJsonPath }).trusted).toBe(false);
  });
});

describe("the trust gate: what it remembers", () => {
  it("the same item asked twice is remembered once; a different kind, what or source is another item", async () => {
    const { cwd, home } = await layout();
    const gate = createTrustGate({ cwd, home, mode: "print" });
    gate.mayRun("hooks", "a", "s1");
    gate.mayRun("hooks", "a", "s1");
    expect(gate.withheld()).toHaveLength(1);
    gate.mayRun("mcpServers", "a", "s1");
    expect(gate.withheld()).toHaveLength(2);
    gate.mayRun("hooks", "b", "s1");
    expect(gate.withheld()).toHaveLength(3);
    gate.mayRun("hooks", "a", "s2");
    expect(gate.withheld()).toHaveLength(4);
    gate.mayRun("hooks", "b", "s1");
    expect(gate.withheld().map((item) => `${item.kind}/${item.what}/${item.source}`)).toEqual([
      "hooks/a/s1",
      "mcpServers/a/s1",
      "hooks/b/s1",
      "hooks/a/s2",
    ]);
  });

  it("a yes writes both records and opens the gate; nothing asked after it is withheld", async () => {
    const { base, cwd, home } = await layout();
    const claudeJsonPath = join(base, ".claude.json");
    writeClaudeJson(claudeJsonPath, {});
    const gate = createTrustGate({ cwd, home, mode: "interactive", claudeJsonPath });
    expect(gate.mayRun("hooks", "./a.sh")).toBe(false);
    expect(gate.shouldAsk()).toBe(true);
    gate.trust();
    expect(gate.trusted).toBe(true);
    expect(gate.shouldAsk()).toBe(false);
    expect(gate.mayRun("hooks", "./b.sh")).toBe(true);
    expect(gate.withheld()).toEqual([{ kind: "hooks", what: "./a.sh", source: "" }]);
    expect(Object.keys(JSON.parse(readFileSync(join(home, "trusted-folders.json"), "utf8")).folders)).toEqual([cwd]);
    expect(JSON.parse(readFileSync(claudeJsonPath, "utf8"))).toEqual({
      projects: { [cwd]: { hasTrustDialogAccepted: true } },
    });
    expect(createTrustGate({ cwd, home, mode: "print" }).trusted).toBe(true);
  });

  it("a yes without Claude Code's record writes threadline's alone", async () => {
    const { cwd, home } = await layout();
    const gate = createTrustGate({ cwd, home, mode: "interactive" });
    gate.trust();
    expect(gate.trusted).toBe(true);
    expect(existsSync(join(home, "trusted-folders.json"))).toBe(true);
  });

  it("asks only in interactive mode, only untrusted, only once something was withheld", async () => {
    const { cwd, home } = await layout();
    const interactive = createTrustGate({ cwd, home, mode: "interactive" });
    expect(interactive.shouldAsk()).toBe(false);
    interactive.mayRun("statusLine", "./status.sh");
    expect(interactive.shouldAsk()).toBe(true);
    for (const mode of ["print", "library"] as const) {
      const gate = createTrustGate({ cwd, home, mode });
      gate.mayRun("statusLine", "./status.sh");
      expect(gate.shouldAsk()).toBe(false);
    }
    const flagged = createTrustGate({ cwd, home, mode: "interactive", trustFlag: true });
    flagged.mayRun("statusLine", "./status.sh");
    expect(flagged.shouldAsk()).toBe(false);
  });
});

describe("the lines a person reads", () => {
  it("the withheld line groups by kind, names each thing once, and says how to trust the folder", () => {
    const line = withheldLine("/w", [
      { kind: "hooks", what: "./a.sh", source: "x" },
      { kind: "mcpServers", what: "dumper", source: ".mcp.json" },
      { kind: "hooks", what: "./a.sh", source: "y" },
      { kind: "hooks", what: "./b.sh", source: "x" },
      { kind: "env", what: "", source: "" },
      { kind: "allowRules", what: "", source: "" },
      { kind: "allowRules", what: "Bash", source: "" },
    ]);
    expect(line).toBe(
      "folder /w is not trusted: withheld project hooks (./a.sh, ./b.sh); MCP servers (dumper); env; allow rules (Bash). Trust it by answering yes in interactive mode, or run with --trust-folder",
    );
    expect(withheldLine("/w", [])).toBeUndefined();
  });

  it("every kind has its own label", () => {
    const kinds = [
      "hooks",
      "mcpServers",
      "env",
      "apiKeyHelper",
      "commandShell",
      "pluginHooks",
      "pluginMcpServers",
      "statusLine",
      "allowRules",
      "permissionMode",
      "additionalDirectories",
    ] as const;
    const lines = trustQuestionLines(
      "/w",
      kinds.map((kind) => ({ kind, what: "", source: "" })),
    );
    expect(lines.slice(1, -1)).toEqual([
      "  hooks",
      "  MCP servers",
      "  env",
      "  apiKeyHelper",
      "  shell in skills/commands",
      "  plugin hooks",
      "  plugin MCP servers",
      "  status line command",
      "  allow rules",
      "  permission mode",
      "  additional directories",
    ]);
  });

  it("a long or multi-line command is shown on one line, cut after 59 characters past 60", () => {
    const sixty = "x".repeat(60);
    const sixtyOne = "y".repeat(61);
    expect(withheldLine("/w", [{ kind: "hooks", what: sixty, source: "" }])).toContain(`hooks (${sixty})`);
    expect(withheldLine("/w", [{ kind: "hooks", what: sixtyOne, source: "" }])).toContain(`hooks (${"y".repeat(59)}…)`);
    expect(withheldLine("/w", [{ kind: "hooks", what: "a\r\nb\n\nc\rd", source: "" }])).toContain("hooks (a b c d)");
  });

  it("the question lists each item with what and where, and the advice", () => {
    expect(
      trustQuestionLines("/w", [
        { kind: "hooks", what: "./a.sh\nrm -rf x", source: ".claude/settings.json" },
        { kind: "mcpServers", what: "dumper", source: "" },
        { kind: "env", what: "", source: ".claude/settings.json" },
      ]),
    ).toEqual([
      "This folder (/w) has configuration that runs code or grants permissions on your machine:",
      "  hooks: ./a.sh rm -rf x  (.claude/settings.json)",
      "  MCP servers: dumper",
      "  env  (.claude/settings.json)",
      "Only trust folders whose files you have read or whose authors you trust.",
    ]);
  });

  it("a yes is y or yes in any case with spaces around; anything else, or no answer, is a no", () => {
    for (const answer of ["y", "Y", "yes", "YES", "Yes", " y ", "\tyes\n"]) expect(isYes(answer)).toBe(true);
    for (const answer of [null, "", "n", "no", "ye", "yess", "yes please", "oh yes", "x y", "y x", "es"])
      expect(isYes(answer)).toBe(false);
  });
});

describe("configuration files confined like Read", () => {
  async function confineLayout(): Promise<{ base: string; root: string; outside: string }> {
    const base = realpathSync(await tempDir());
    const root = join(base, "root");
    const outside = join(base, "outside");
    mkdirSync(join(root, "skills"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, "skills", "SKILL.md"), "in\n");
    writeFileSync(join(outside, "SKILL.md"), "out\n");
    return { base, root, outside };
  }

  it("a file inside a root is given by its real path; the root itself is inside", async () => {
    const { root } = await confineLayout();
    writeFileSync(join(root, "..hidden"), "dots\n");
    expect(confinedPath(join(root, "skills", "SKILL.md"), [root])).toEqual({ real: join(root, "skills", "SKILL.md") });
    expect(confinedPath(join(root, "..hidden"), [root])).toEqual({ real: join(root, "..hidden") });
    expect(confinedPath(root, [root])).toEqual({ real: root });
    expect(confinedPath(join(root, "skills", "..", "skills", "SKILL.md"), ["/nowhere", root])).toEqual({
      real: join(root, "skills", "SKILL.md"),
    });
  });

  it("a symlink out of every root is refused with one line naming both paths", async () => {
    const { root, outside } = await confineLayout();
    symlinkSync(join(outside, "SKILL.md"), join(root, "skills", "link.md"));
    const link = join(root, "skills", "link.md");
    expect(confinedPath(link, [root])).toEqual({
      refused: `${link} refused: it leads to ${join(outside, "SKILL.md")}, outside the workspace and your config folders`,
    });
    expect(confinedPath(link, [root, outside])).toEqual({ real: join(outside, "SKILL.md") });
  });

  it("the folder above a root, and a sibling whose name starts with the root's, are outside it", async () => {
    const { base, root } = await confineLayout();
    mkdirSync(`${root}-two`);
    writeFileSync(join(`${root}-two`, "f"), "x");
    expect(confinedPath(base, [root])).toHaveProperty("refused");
    expect(confinedPath(join(`${root}-two`, "f"), [root])).toHaveProperty("refused");
  });

  it("a root given through a symlink is resolved through it", async () => {
    const { base, root } = await confineLayout();
    symlinkSync(root, join(base, "root-link"));
    expect(confinedPath(join(root, "skills", "SKILL.md"), [join(base, "root-link")])).toEqual({
      real: join(root, "skills", "SKILL.md"),
    });
  });

  it("a path that does not exist is missing, not refused", async () => {
    const { root } = await confineLayout();
    expect(confinedPath(join(root, "absent.md"), [root])).toEqual({ missing: true });
    symlinkSync(join(root, "gone"), join(root, "dangling"));
    expect(confinedPath(join(root, "dangling"), [root])).toEqual({ missing: true });
  });
});
