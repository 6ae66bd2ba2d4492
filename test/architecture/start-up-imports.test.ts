/**
 * Two import habits that keep a -p session's start-up memory down (docs/PERFORMANCE.md), checked on the source:
 * - zod is imported as a namespace (`import * as z from "zod"`): one named `import { z }` anywhere makes the
 *   bundle keep zod's whole `z` object, its 40 locales included (~450 KB against ~105 KB of parsed code);
 * - `yaml` is imported statically only by memory/yaml-parse.ts, which nothing imports statically: front matter
 *   loads it when a file has some.
 * - the libraries only some sessions use (pdf-lib for a PDF read, turndown for a fetched page, marked and diff
 *   for the terminal, pg for a database store) are imported with `await import(...)` where they are used, or
 *   as types only: a static value import puts them in every start's bundle (issue 44: pdf-lib and turndown
 *   with its DOM were ~750 KB of the ~1.8 MB parsed before a `-p` request).
 * Mutations applied once: `import { z } from "zod"` restored in src/settings/parse-settings-file.ts, and
 * `import { parse } from "yaml"` restored in src/memory/front-matter.ts, and a static import of ./yaml-parse.js
 * there; each fails its test naming the file. `import { PDFDocument } from "pdf-lib"` restored in
 * src/tools/files/read-documents.ts fails the last test (mutation entry `pdf-lib-loaded-at-start`).
 *
 * And one habit of module top levels: the transcript schemas (read only by a resume or an import) and the stream
 * event schemas (read only once a response arrives) are built on first use. zod 4 constructs a schema when it is
 * declared, and these three modules' ~200 constructions ran in every start before its first request. Checked on
 * TypeScript's syntax tree: no call runs at those modules' top level (a `new Set(...)` is no call, a zod schema is
 * one, and so is a builder called at load).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each static import statement's bindings and specifier, per file relative to src/. */
function staticImports(): { file: string; bindings: string; specifier: string }[] {
  const statement = /^(?:import|export)\s+(?:type\s+)?([^;]*?)\s+from\s+["']([^"']+)["'];?/gm;
  return sourceFiles(SRC).flatMap((path) =>
    [...readFileSync(path, "utf8").matchAll(statement)].map((match) => ({
      file: relative(SRC, path),
      bindings: match[1] ?? "",
      specifier: match[2] ?? "",
    })),
  );
}

describe("start-up imports", () => {
  it("zod is imported as a namespace everywhere", () => {
    const zod = staticImports().filter((edge) => edge.specifier === "zod");
    expect(zod.length).toBeGreaterThan(0);
    expect(zod.filter((edge) => edge.bindings !== "* as z").map((edge) => edge.file)).toEqual([]);
  });

  it("yaml is imported statically only by a module that is itself loaded lazily", () => {
    const edges = staticImports();
    expect(edges.filter((edge) => edge.specifier === "yaml").map((edge) => edge.file)).toEqual([
      "memory/yaml-parse.ts",
    ]);
    expect(edges.filter((edge) => edge.specifier.endsWith("/yaml-parse.js")).map((edge) => edge.file)).toEqual([]);
  });

  it("pdf-lib, turndown, marked, diff and pg are never imported statically as values", () => {
    const statement = /^import\s+(type\s+)?[^;]*?\s+from\s+["']([^"']+)["'];?/gm;
    const lazy = new Set(["pdf-lib", "turndown", "marked", "diff", "pg"]);
    const eager = sourceFiles(SRC).flatMap((path) =>
      [...readFileSync(path, "utf8").matchAll(statement)]
        .filter((match) => match[1] === undefined && lazy.has(match[2] ?? ""))
        .map((match) => `${relative(SRC, path)}: ${match[2]}`),
    );
    expect(eager).toEqual([]);
  });

  it("the transcript and stream-event schemas are built on first use: no call at those modules' top level", () => {
    const lazy = ["transcript/entry-schema.ts", "transcript/claude-code-schema.ts", "provider/stream-events.ts"];
    const calls = lazy.flatMap((file) => {
      const text = readFileSync(join(SRC, file), "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const found: string[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node)) return; // runs when called, not when the module loads
        if (ts.isCallExpression(node)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          found.push(`${file}:${line}: ${node.expression.getText(source)}(…)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      return found;
    });
    expect(calls).toEqual([]);
  });
});
