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

  it("every folder imports only the floors below it (docs/ARCHITECTURE.md), and the emulator only messages/", () => {
    const upward = EDGES.filter((edge) => {
      const from = folderOf(edge.file);
      const to = folderOf(edge.target);
      if (from === to) return false;
      if (from === "emulator") return to !== "messages";
      // The emulator is a tool the CLI and the library ship (demo, `threadline emulator`), not a floor.
      if (to === "emulator") return from !== "cli" && from !== "index.ts";
      const fromFloor = FLOORS[from];
      const toFloor = FLOORS[to];
      if (fromFloor === undefined || toFloor === undefined) return true; // a new folder must be placed
      return toFloor >= fromFloor;
    }).map((edge) => `${edge.file} -> ${edge.target}`);
    expect(upward).toEqual([]);
  });

  it("no provider file makes a timeline entry: providers yield neutral events, the loop records", () => {
    const calls = sourceFiles(join(SRC, "provider")).flatMap((path) =>
      [...readFileSync(path, "utf8").matchAll(/\bcreate\w*Entry\s*\(/g)].map((m) => `${relative(SRC, path)}: ${m[0]}`),
    );
    expect(calls).toEqual([]);
  });
});

/**
 * The floors, lowest first: a folder may import its own floor's neighbours only where listed below it. Same
 * number = siblings that never import each other's folder (checked by the floor test: `toFloor >= fromFloor`).
 */
const FLOORS: Record<string, number> = {
  messages: 0,
  timeline: 1,
  request: 2,
  transcript: 2,
  tools: 2,
  settings: 2,
  cache: 3,
  provider: 3,
  compaction: 3,
  hooks: 3,
  // The user's world: memory files, skills and commands (they become attachments and a tool).
  memory: 3,
  loop: 4,
  engine: 5,
  cli: 6,
  "index.ts": 7,
};
