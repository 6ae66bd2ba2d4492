/**
 * The design's one-way floors, checked on the source: every relative import (type-only ones included) of
 * every file under src/, resolved to the folder it lands in.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Static imports, re-exports and dynamic imports: the module specifier of each. */
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*["']([^"']+)["']/g;

interface ImportEdge {
  /** The importing file, relative to src/. */
  file: string;
  /** The imported file, relative to src/. */
  target: string;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every relative import of `source` (a file's text at `path`), resolved against src/. */
function importsOf(path: string, source: string): ImportEdge[] {
  const file = relative(SRC, path);
  return [...source.matchAll(SPECIFIER)]
    .map((match) => match[1]!)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({ file, target: relative(SRC, resolve(dirname(path), specifier)) }));
}

const EDGES: ImportEdge[] = sourceFiles(SRC).flatMap((path) => importsOf(path, readFileSync(path, "utf8")));

/** The top folder under src/ a src-relative path is in (`compaction/collapse/x.ts` → `compaction`). */
function folderOf(path: string): string {
  return path.split(sep)[0]!;
}

/** Imports from files in `from` into files in `to`, as "file -> target" lines. */
function crossings(from: string, to: string): string[] {
  return EDGES.filter((edge) => folderOf(edge.file) === from && folderOf(edge.target) === to).map(
    (edge) => `${edge.file} -> ${edge.target}`,
  );
}

describe("import rules", () => {
  it("sees the imports it checks (compaction imports messages/, request/ imports messages/)", () => {
    expect(EDGES.length).toBeGreaterThan(100);
    expect(crossings("compaction", "messages").length).toBeGreaterThan(0);
    expect(crossings("request", "messages").length).toBeGreaterThan(0);
    // A multi-line type-only import is seen too.
    const edges = importsOf(
      join(SRC, "compaction", "x.ts"),
      'import type {\n  A,\n  B,\n} from "../provider/types.js";',
    );
    expect(edges).toEqual([{ file: join("compaction", "x.ts"), target: join("provider", "types.js") }]);
  });

  it("compaction never imports the provider (it runs side requests through its ForkRunner)", () => {
    expect(crossings("compaction", "provider")).toEqual([]);
  });

  it("request never imports tools: tools/ sits above request/, so the two folders form no cycle", () => {
    expect(crossings("request", "tools")).toEqual([]);
  });
});
