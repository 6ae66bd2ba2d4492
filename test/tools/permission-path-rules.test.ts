/**
 * The path specifiers of `Read(...)`/`Edit(...)` rules (src/tools/permissions/permission-path-rules.ts,
 * docs/SETTINGS.md), unit by unit, as Stryker mutates them (docs/MUTATION-TESTING.md). Oracles of their own: the
 * paths a rule must and must not cover, written here as literals for a fixed scope (no file system needed).
 */
import { describe, expect, it } from "vitest";
import {
  pathRuleFamily,
  pathRuleMatches,
  type RuleScope,
  searchesFolder,
  searchReaches,
  searchWithin,
  toolCallPath,
} from "../../src/tools/permissions/permission-path-rules.js";

const SCOPE: RuleScope = { cwd: "/p/work", root: "/p", home: "/h" };

function covers(specifier: string, yes: string[], no: string[], scope: RuleScope = SCOPE): void {
  for (const path of yes) expect(pathRuleMatches(specifier, path, scope), `${specifier} covers ${path}`).toBe(true);
  for (const path of no) expect(pathRuleMatches(specifier, path, scope), `${specifier} leaves ${path}`).toBe(false);
}

describe("where a path specifier starts", () => {
  it("`//path` is from the filesystem root", () => {
    covers("//etc/passwd", ["/etc/passwd"], ["/p/work/etc/passwd", "/p/etc/passwd", "/etc/passwd2"]);
    covers("//etc/", ["/etc/hosts", "/etc/ssh/sshd_config", "/etc"], ["/etcetera", "/p/work/etc/hosts"]);
  });

  it("`~/path` and `~` are from the home folder; `~name` is an ordinary name", () => {
    covers("~/.ssh/**", ["/h/.ssh/id_rsa"], ["/p/work/.ssh/id_rsa", "/h/.sshx/id_rsa", "/p/h/.ssh/id_rsa"]);
    covers("~", ["/h/anything", "/h"], ["/hx/anything", "/p/work/h"]);
    covers("~backup", ["/p/work/~backup", "/p/work/deep/~backup/x"], ["/h/backup", "/h"]);
  });

  it("`/path` is from the settings file's project root, or the working directory when none is given", () => {
    covers("/src/**", ["/p/src/a.ts"], ["/p/work/src/a.ts", "/src/a.ts"]);
    covers("/src/**", ["/p/work/src/a.ts"], ["/p/src/a.ts"], { cwd: "/p/work", home: "/h" });
  });

  it("`./path` and `path` with a slash are from the working directory, at that place only", () => {
    covers("./secrets/**", ["/p/work/secrets/key"], ["/p/work/sub/secrets/key", "/p/secrets/key"]);
    covers("src/*.ts", ["/p/work/src/a.ts"], ["/p/work/lib/src/a.ts", "/p/work/src/a.js"]);
    covers("  ./secrets/**  ", ["/p/work/secrets/key"], ["/p/work/other/key"]);
  });

  it("a name with no slash before its end matches at any depth below the working directory, and a folder covers its contents", () => {
    covers(
      "*.env",
      ["/p/work/prod.env", "/p/work/a/b/prod.env"],
      ["/p/prod.env", "/elsewhere/prod.env", "/p/work/prod.envy"],
    );
    covers("secrets/", ["/p/work/secrets", "/p/work/secrets/key", "/p/work/a/secrets/key"], ["/p/work/secretsx/key"]);
    covers("./secrets", ["/p/work/secrets/key", "/p/work/a/secrets/key"], ["/p/secrets/key"]);
    covers("secrets//", ["/p/work/a/secrets/key"], ["/p/secrets/key"]);
  });

  it("a working directory holding glob characters is taken literally", () => {
    const scope = { cwd: "/p/w[1]{a,b}*?", home: "/h" };
    covers("./a.txt", ["/p/w[1]{a,b}*?/a.txt"], ["/p/w1a*?/a.txt", "/p/w1/a.txt", "/p/wx{a,b}xx/a.txt"], scope);
    covers("//x/**", ["/x/y"], ["/p/w[1]{a,b}*?/x/y"], scope);
  });

  it("a folder named from the filesystem root covers what is in it, at every depth, and nothing beside it", () => {
    covers("//a", ["/a", "/a/b/c"], ["/b/a", "/ab", "/"]);
  });
});

describe("searches (Grep, Glob) against deny and allow rules", () => {
  it("a deny rule reaches a search from a folder above, inside or at what it names, and no other", () => {
    expect(searchReaches("./secrets/**", "/p/work", SCOPE)).toBe(true);
    expect(searchReaches("./secrets/**", "/p/work/secrets", SCOPE)).toBe(true);
    expect(searchReaches("./secrets/**", "/p/work/secrets/sub", SCOPE)).toBe(true);
    expect(searchReaches("./secrets/**", "/p", SCOPE)).toBe(true);
    expect(searchReaches("./secrets/**", "/p/work/other", SCOPE)).toBe(false);
    expect(searchReaches("./secrets/**", "/p/work/secretsx", SCOPE)).toBe(false);
    expect(searchReaches("//etc/**", "/", SCOPE)).toBe(true);
    expect(searchReaches("//**", "/anything", SCOPE)).toBe(true);
    expect(searchReaches("~/.ssh/**", "/h", SCOPE)).toBe(true);
    expect(searchReaches("/src/**", "/p", SCOPE)).toBe(true);
  });

  it("a name at any depth denies only searches from a folder it matches", () => {
    expect(searchReaches("*.env", "/p/work", SCOPE)).toBe(false);
    expect(searchReaches("*.env", "/p/work/config.env", SCOPE)).toBe(true);
    expect(searchReaches("secrets/", "/p/work", SCOPE)).toBe(false);
    expect(searchReaches("secrets/", "/p/work/a/secrets/deeper", SCOPE)).toBe(true);
  });

  it("an allow rule covers a search only when everything below its folder is allowed and the search starts inside it", () => {
    expect(searchWithin("./src/**", "/p/work/src", SCOPE)).toBe(true);
    expect(searchWithin("./src/**", "/p/work/src/sub", SCOPE)).toBe(true);
    expect(searchWithin("./src/**", "/p/work", SCOPE)).toBe(false);
    expect(searchWithin("./src/**", "/p/work/srcx", SCOPE)).toBe(false);
    expect(searchWithin("./src/*.ts", "/p/work/src", SCOPE)).toBe(false);
    expect(searchWithin("*.ts", "/p/work/src", SCOPE)).toBe(false);
    expect(searchWithin("./src", "/p/work/src/sub", SCOPE)).toBe(true);
  });
});

describe("the path a tool call touches", () => {
  it("a file tool's path, relative to the working directory or absolute, normalized", () => {
    expect(toolCallPath("Read", { file_path: "a/../b.txt" }, "/p/work")).toBe("/p/work/b.txt");
    expect(toolCallPath("Read", { file_path: "/x/./y/../z.txt" }, "/p/work")).toBe("/x/z.txt");
    expect(toolCallPath("Edit", { file_path: "e.txt" }, "/p/work")).toBe("/p/work/e.txt");
    expect(toolCallPath("NotebookEdit", { notebook_path: "n.ipynb" }, "/p/work")).toBe("/p/work/n.ipynb");
  });

  it("a search without a path starts in the working directory; a file tool without one names none", () => {
    expect(toolCallPath("Grep", { pattern: "x" }, "/p/work")).toBe("/p/work");
    expect(toolCallPath("Glob", { pattern: "*", path: "src" }, "/p/work")).toBe("/p/work/src");
    expect(toolCallPath("Read", {}, "/p/work")).toBeUndefined();
    expect(toolCallPath("Read", { file_path: "" }, "/p/work")).toBeUndefined();
    expect(toolCallPath("Read", { file_path: 7 }, "/p/work")).toBeUndefined();
    expect(toolCallPath("Read", null, "/p/work")).toBeUndefined();
    expect(toolCallPath("Read", "a.txt", "/p/work")).toBeUndefined();
    expect(toolCallPath("Bash", { file_path: "a.txt" }, "/p/work")).toBeUndefined();
    expect(toolCallPath("NoSuchTool", { file_path: "a.txt" }, "/p/work")).toBeUndefined();
    expect(toolCallPath("Grep", "x", "/p/work")).toBeUndefined();
    expect(toolCallPath("Grep", null, "/p/work")).toBeUndefined();
  });

  it("which tools each rule covers, and which tools search a folder", () => {
    expect([...(pathRuleFamily("Read") ?? [])].sort()).toEqual(["Glob", "Grep", "Read"]);
    expect([...(pathRuleFamily("Edit") ?? [])].sort()).toEqual(["Edit", "NotebookEdit", "Write"]);
    expect(pathRuleFamily("Write")).toEqual(["Write"]);
    expect(pathRuleFamily("Bash")).toBeUndefined();
    expect(pathRuleFamily("constructor")).toBeUndefined();
    expect(searchesFolder("Grep")).toBe(true);
    expect(searchesFolder("Glob")).toBe(true);
    expect(searchesFolder("Read")).toBe(false);
    expect(searchesFolder("NoSuchTool")).toBe(false);
    expect(searchesFolder("Bash")).toBe(false);
  });
});
