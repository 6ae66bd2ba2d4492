/**
 * The design's one-way floors, checked on the source: every relative import (type-only ones included) of
 * every file under src/, resolved to the folder it lands in.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

/** Files in import circles (each circle sorted, as one "a -> b -> …" line), by Tarjan's strongly connected components. */
function importCircles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const target = edge.target.replace(/\.js$/, ".ts");
    next.set(edge.file, [...(next.get(edge.file) ?? []), target]);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || next.get(file)?.includes(file)) circles.push(members.sort().join(" -> "));
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** Imports from outside a top folder that has an `index.ts` into any other file of it, as "file -> target". */
function pastIndex(edges: readonly ImportEdge[], hasIndex: (folder: string) => boolean): string[] {
  return edges
    .filter((edge) => {
      const to = folderOf(edge.target);
      if (folderOf(edge.file) === to || !edge.target.includes(sep) || !hasIndex(to)) return false;
      return edge.target !== join(to, "index.js") && edge.target !== join(to, "index.ts");
    })
    .map((edge) => `${edge.file} -> ${edge.target}`);
}

/** A file of the loop's stages: `loop/stage-*.ts` (or the `.js` an import names). */
function isStageFile(path: string): boolean {
  return dirname(path) === "loop" && /^stage-[^/\\]+\.(ts|js)$/.test(path.slice("loop".length + 1));
}

/** Imports from one loop stage file into another, as "file -> target". */
function stageToStage(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((edge) => isStageFile(edge.file) && isStageFile(edge.target))
    .map((edge) => `${edge.file} -> ${edge.target}`);
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

  // Guards: no two files import each other, directly or round a loop (type-only imports included: a type circle
  // is a design circle). Mutation caught: importing `./live-region.js` into cli/terminal/text.ts (which live-region imports).
  it("no import circle anywhere in src/ (every folder, present and future)", () => {
    const synthetic = [
      { file: join("a", "x.ts"), target: join("a", "y.js") },
      { file: join("a", "y.ts"), target: join("a", "x.js") },
      { file: join("a", "z.ts"), target: join("a", "x.js") },
    ];
    expect(importCircles(synthetic)).toEqual([`${join("a", "x.ts")} -> ${join("a", "y.ts")}`]);
    expect(importCircles(EDGES)).toEqual([]);
  });

  // Guards: a folder with an index.ts is entered through it, so its files can move inside it freely. Mutation
  // caught: importing `../../messages/usage.js` from a cli/ file instead of `../../messages/index.js`.
  it("no import from another folder goes past that folder's index.ts", () => {
    const synthetic = [
      { file: join("cli", "a.ts"), target: join("messages", "usage.js") },
      { file: join("cli", "b.ts"), target: join("messages", "index.js") },
      { file: join("cli", "c.ts"), target: join("engine", "x.js") },
      { file: join("cli", "d.ts"), target: "index.js" },
    ];
    expect(pastIndex(synthetic, (folder) => folder === "messages")).toEqual([
      `${join("cli", "a.ts")} -> ${join("messages", "usage.js")}`,
    ]);
    expect(pastIndex(EDGES, (folder) => existsSync(join(SRC, folder, "index.ts")))).toEqual([]);
  });

  // Guards: the loop's stages are peers (docs/ARCHITECTURE.md "One turn"): a stage returns what happened and
  // loop/query.ts routes it, so no stage file calls into another. Mutation caught: importing
  // `./stage-recover.js` into loop/stage-assemble.ts again (its over-window path calling the overflow chain).
  it("no loop/stage-*.ts imports another loop/stage-*.ts; query.ts routes between them", () => {
    const synthetic = [
      { file: join("loop", "stage-a.ts"), target: join("loop", "stage-b.js") },
      { file: join("loop", "stage-a.ts"), target: join("loop", "turn-state.js") },
      { file: join("loop", "query.ts"), target: join("loop", "stage-b.js") },
      { file: join("compaction", "collapse", "stage-collapses.ts"), target: join("loop", "stage-b.js") },
    ];
    expect(stageToStage(synthetic)).toEqual([`${join("loop", "stage-a.ts")} -> ${join("loop", "stage-b.js")}`]);
    expect(stageToStage(EDGES)).toEqual([]);
    // The rule sees the stages it checks: query.ts imports all five.
    const routed = EDGES.filter((edge) => edge.file === join("loop", "query.ts") && isStageFile(edge.target));
    expect(routed.map((edge) => edge.target).sort()).toEqual(
      ["assemble", "compact", "decide", "recover", "stream"].map((name) => join("loop", `stage-${name}.js`)),
    );
  });

  // Guards: the public entry names what it exports, so a new export is a decision. Mutation caught: writing
  // `export * from "./messages/index.js"` back into src/index.ts.
  it("src/index.ts exports by name, never export *", () => {
    const entry = readFileSync(join(SRC, "index.ts"), "utf8");
    expect(entry).toMatch(/export \{/);
    expect(entry.match(/export (type )?\*/g) ?? []).toEqual([]);
  });

  // Guards: what the code relies on is written in this repository. Mutation caught: a comment citing
  // "PIPELINE §4" (the old outside document) instead of "docs/PIPELINE.md §4".
  it("comments cite the project's own docs/ pages (PIPELINE, INVARIANTS, API-CONTRACT), and those pages exist", () => {
    const outside = sourceFiles(SRC).flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => /\b(PIPELINE|DESIGN|INVARIANTS|API-CONTRACT)\b/.test(line))
        .filter((line) => !/docs\/(PIPELINE|INVARIANTS|API-CONTRACT)\.md/.test(line))
        .map((line) => `${relative(SRC, path)}: ${line.trim()}`),
    );
    expect(outside).toEqual([]);
    for (const page of ["PIPELINE.md", "INVARIANTS.md", "API-CONTRACT.md", "ARCHITECTURE.md"]) {
      expect(existsSync(join(SRC, "..", "docs", page))).toBe(true);
    }
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
  // MCP clients: their tools are ordinary `Tool`s; below engine/, never importing cli/.
  mcp: 3,
  // The user's world: memory files, skills and commands (they become attachments and a tool).
  memory: 3,
  loop: 4,
  engine: 5,
  cli: 6,
  "index.ts": 7,
};
