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

const EMULATOR_SRC = resolve(SRC, "../packages/emulator/src");
const EMULATOR_PACKAGE = JSON.parse(readFileSync(resolve(EMULATOR_SRC, "../package.json"), "utf8")) as {
  dependencies?: Record<string, string>;
};

/** Imports of emulator files that leave the package or name a package it does not declare, as "file -> specifier". */
function emulatorReachesOut(edges: readonly { file: string; specifier: string }[]): string[] {
  const declared = new Set([...Object.keys(EMULATOR_PACKAGE.dependencies ?? {}), "@anthropic-ai/sdk"]);
  return edges
    .filter(({ file, specifier }) => {
      if (specifier.startsWith("node:")) return false;
      if (specifier.startsWith(".")) return relative(EMULATOR_SRC, resolve(dirname(file), specifier)).startsWith("..");
      const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
      return !declared.has(name);
    })
    .map(({ file, specifier }) => `${relative(EMULATOR_SRC, file)} -> ${specifier}`);
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

/** A file of the loop's stages: `loop/stages/stage-*.ts` (or the `.js` an import names). */
function isStageFile(path: string): boolean {
  const room = join("loop", "stages");
  return dirname(path) === room && /^stage-[^/\\]+\.(ts|js)$/.test(path.slice(room.length + 1));
}

/** Imports from one loop stage file into another, as "file -> target". */
function stageToStage(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((edge) => isStageFile(edge.file) && isStageFile(edge.target))
    .map((edge) => `${edge.file} -> ${edge.target}`);
}

/** The names `text` exports as values (functions, classes, constants), by its `export` keywords. */
function exportedValues(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/export (?:async )?(?:function\*?|class|const|let) (\w+)/g)].map((match) => match[1]!),
  );
}

/**
 * Local names `file`'s text binds to values imported from `target` (src-relative, .ts): static imports (not
 * `import type`, not `type X` entries) and destructured dynamic imports, whose specifier lands on `target` or on
 * its folder's index.ts re-exporting it; only names `target` itself exports. Returns the text without those
 * import statements too, so a use is not the import itself.
 */
function valueImports(file: string, text: string, target: string): { names: string[]; rest: string } {
  const targetText = readFileSync(join(SRC, target), "utf8");
  const exported = exportedValues(targetText);
  const folderIndex = join(folderOf(target), "index.ts");
  const reexported = `./${relative(folderOf(target), target).replace(/\.ts$/, ".js")}`;
  const lands = (specifier: string): boolean => {
    const landed = relative(SRC, resolve(dirname(join(SRC, file)), specifier)).replace(/\.js$/, ".ts");
    if (landed === target) return true;
    return landed === folderIndex && readFileSync(join(SRC, folderIndex), "utf8").includes(`"${reexported}"`);
  };
  const names: string[] = [];
  let rest = text;
  const statement =
    /import\s+(type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["'];?|const\s*\{([^}]*)\}\s*=\s*await\s+import\(\s*["']([^"']+)["']\s*\);?/g;
  for (const match of text.matchAll(statement)) {
    const specifier = match[3] ?? match[5]!;
    if (match[1] !== undefined || !specifier.startsWith(".") || !lands(specifier)) continue;
    rest = rest.replace(match[0], "");
    for (const part of (match[2] ?? match[4]!).split(",")) {
      const entry = part.trim();
      if (entry === "" || entry.startsWith("type ")) continue;
      const [imported, local] = entry.split(/\s+as\s+|\s*:\s*/).map((name) => name.trim());
      if (exported.has(imported!)) names.push(local ?? imported!);
    }
  }
  return { names, rest };
}

/** Whether `file` calls into `target`: calls, constructs or calls a static method of a value it imports from it. */
function callsInto(file: string, target: string): boolean {
  const { names, rest } = valueImports(file, readFileSync(join(SRC, file), "utf8"), target);
  return names.some((name) =>
    new RegExp(`(?:\\bnew\\s+${name}\\b|\\b${name}\\s*\\(|\\b${name}\\.\\w+\\s*\\()`).test(rest),
  );
}

/**
 * The walk from a session flag to the file written (docs/ARCHITECTURE.md, "Where a session lives"): the file
 * that parses the flag, then each file that hands it on. A stop is one file; a step is a call the source
 * shows: the stop calls (or constructs, or calls a static method of) a value it imports from the next stop,
 * statically or by a destructured dynamic import, a folder's index.ts counting as the files it re-exports;
 * type-only imports are no step. The second stop calls the first (which parses the flag for it). The problems
 * with a walk, one line each: more than six stops, a top folder entered again after it was left, a step the
 * source does not show.
 */
function walkProblems(walk: readonly string[], steps: (file: string, target: string) => boolean = callsInto): string[] {
  const problems: string[] = [];
  if (walk.length > MAX_SESSION_WALK_STOPS) problems.push(`${walk.length} stops (at most ${MAX_SESSION_WALK_STOPS})`);
  const left = new Set<string>();
  for (let index = 1; index < walk.length; index++) {
    const from = folderOf(walk[index - 1]!);
    const to = folderOf(walk[index]!);
    if (from !== to) left.add(from);
    if (left.has(to)) problems.push(`back to ${to}/ at ${walk[index]}`);
  }
  if (walk.length > 1 && !steps(walk[1]!, walk[0]!)) problems.push(`${walk[1]} does not call ${walk[0]}`);
  for (let index = 1; index + 1 < walk.length; index++) {
    if (!steps(walk[index]!, walk[index + 1]!)) problems.push(`${walk[index]} does not call ${walk[index + 1]}`);
  }
  return problems;
}

/** At most this many files from a session flag to the file written (issue 43). */
const MAX_SESSION_WALK_STOPS = 6;

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

  it("every folder imports only the floors below it (docs/ARCHITECTURE.md)", () => {
    const upward = EDGES.filter((edge) => {
      const from = folderOf(edge.file);
      const to = folderOf(edge.target);
      if (from === to) return false;
      const fromFloor = FLOORS[from];
      const toFloor = FLOORS[to];
      if (fromFloor === undefined || toFloor === undefined) return true; // a new folder must be placed
      return toFloor >= fromFloor;
    }).map((edge) => `${edge.file} -> ${edge.target}`);
    expect(upward).toEqual([]);
  });

  // Guards: the emulator judges the client from outside (docs/ARCHITECTURE.md, "The emulator package"): nothing
  // of packages/emulator reaches into src/ or names the client's package; only node:, its own files and its
  // declared dependencies. Mutation caught: scripts/mutation-check.mjs "emulator-imports-client".
  it("packages/emulator imports nothing of the client's src/ (only node:, its own files, its dependencies)", () => {
    const synthetic = [
      { file: join(EMULATOR_SRC, "billing", "x.ts"), specifier: "../../../../src/messages/index.js" },
      { file: join(EMULATOR_SRC, "x.ts"), specifier: "threadline" },
      { file: join(EMULATOR_SRC, "x.ts"), specifier: "./ruler.js" },
      { file: join(EMULATOR_SRC, "x.ts"), specifier: "@anthropic-ai/tokenizer" },
    ];
    expect(emulatorReachesOut(synthetic)).toEqual([
      `${join("billing", "x.ts")} -> ../../../../src/messages/index.js`,
      `x.ts -> threadline`,
    ]);
    const edges = sourceFiles(EMULATOR_SRC).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(SPECIFIER)]
        .map((match) => ({ file, specifier: match[1]! }))
        // Prose ("… from $0.10 …" in a comment) is not a module specifier.
        .filter(({ specifier }) => /^[@\w./:-]+$/.test(specifier)),
    );
    expect(edges.length).toBeGreaterThan(50);
    expect(emulatorReachesOut(edges)).toEqual([]);
    // And the client takes the emulator only where it ships it: the CLI (demo, `threadline emulator`, inspect's
    // what-if replay) and the library entry.
    const clientUses = sourceFiles(SRC).filter((file) => readFileSync(file, "utf8").includes('"@threadline/emulator"'));
    expect(
      clientUses.map((file) => relative(SRC, file)).filter((file) => folderOf(file) !== "cli" && file !== "index.ts"),
    ).toEqual([]);
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
  // `./stage-recover.js` into loop/stages/stage-assemble.ts again (its over-window path calling the overflow chain).
  it("no loop/stages/stage-*.ts imports another stage; query.ts routes between them", () => {
    const stages = join("loop", "stages");
    const synthetic = [
      { file: join(stages, "stage-a.ts"), target: join(stages, "stage-b.js") },
      { file: join(stages, "stage-a.ts"), target: join("loop", "turn-state.js") },
      { file: join("loop", "query.ts"), target: join(stages, "stage-b.js") },
      { file: join("loop", "stage-c.ts"), target: join(stages, "stage-b.js") },
      { file: join("compaction", "collapse", "stage-collapses.ts"), target: join(stages, "stage-b.js") },
    ];
    expect(stageToStage(synthetic)).toEqual([`${join(stages, "stage-a.ts")} -> ${join(stages, "stage-b.js")}`]);
    expect(stageToStage(EDGES)).toEqual([]);
    // The rule sees the stages it checks: query.ts imports all five.
    const routed = EDGES.filter((edge) => edge.file === join("loop", "query.ts") && isStageFile(edge.target));
    expect(routed.map((edge) => edge.target).sort()).toEqual(
      ["assemble", "compact", "decide", "recover", "stream"].map((name) => join("loop", "stages", `stage-${name}.js`)),
    );
  });

  // Guards: one owner for where a session lives. `--resume`/`--session-id`/`--continue` reach the JSONL store in
  // at most six files, never re-entering a folder (it once took twelve, crossing engine/ and transcript/ three
  // times), and engine/ holds none of the stores. Mutation caught: `JsonlTranscriptStore` imported into
  // engine/subagent.ts again (scripts/mutation-check.mjs "engine-opens-a-store"); the synthetic walks below fail
  // on a folder entered twice and on a seventh stop.
  it("from a session flag to the file written: at most six stops, no folder entered twice; engine/ opens no store", () => {
    const synthetic = [
      { file: join("cli", "main.ts"), target: join("cli", "args.js") },
      { file: join("cli", "main.ts"), target: join("engine", "x.js") },
      { file: join("engine", "x.ts"), target: join("transcript", "y.js") },
      { file: join("transcript", "y.ts"), target: join("engine", "z.js") },
    ];
    const back = ["cli/args.ts", "cli/main.ts", "engine/x.ts", "transcript/y.ts", "engine/z.ts"].map((path) =>
      path.split("/").join(sep),
    );
    const step = (file: string, target: string) =>
      synthetic.some((edge) => edge.file === file && edge.target.replace(/\.js$/, ".ts") === target);
    expect(walkProblems(back, step)).toEqual([`back to engine/ at ${join("engine", "z.ts")}`]);
    const long = ["a", "b", "c", "d", "e", "f", "g"].map((name) => join("cli", `${name}.ts`));
    expect(walkProblems(long, () => true)[0]).toBe("7 stops (at most 6)");
    // A stop that only imports the next one's types is no step: print mode takes `CliOptions` from args.ts as a
    // type, and calls nothing there.
    expect(
      walkProblems([
        join("cli", "session-flags.ts"),
        join("cli", "modes", "print", "print-mode.ts"),
        join("cli", "args.ts"),
      ]),
    ).toEqual([`${join("cli", "modes", "print", "print-mode.ts")} does not call ${join("cli", "args.ts")}`]);
    const walks = ["print/print-mode", "interactive"].map((mode) =>
      [
        "cli/args.ts",
        "cli/main.ts",
        `cli/modes/${mode}.ts`,
        "cli/session-flags.ts",
        "sessions/session-manager.ts",
        "transcript/jsonl-transcript-store.ts",
      ].map((path) => path.split("/").join(sep)),
    );
    for (const walk of walks) expect(walkProblems(walk)).toEqual([]);
    const stores =
      /\b(JsonlTranscriptStore|PgSessionDatabase|DeferredTranscriptStore|parseStoreUrl|sessionFileIn|projectKeyDir)\b/;
    const inEngine = sourceFiles(join(SRC, "engine")).filter((path) => stores.test(readFileSync(path, "utf8")));
    expect(inEngine.map((path) => relative(SRC, path))).toEqual([]);
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
  // threadline's home folder: the one rule transcripts, settings and memory places share.
  home: 0,
  timeline: 1,
  // Trusted folders and the gate for a project's own code (docs/TRUST.md): settings, memory and cli ask it.
  trust: 1,
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
  // Claude Code plugins: folders of commands, agents, skills, hooks and MCP servers (docs/PLUGINS.md).
  plugins: 4,
  // Where a session lives (the session manager): above the stores it opens, below the engine that runs it.
  sessions: 3,
  // File checkpoints for rewind (docs/REWIND.md): wrap tools, keep blobs; the engine owns them.
  checkpoints: 3,
  loop: 4,
  engine: 5,
  cli: 6,
  "index.ts": 7,
};
