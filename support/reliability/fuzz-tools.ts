/**
 * Fuzzing tool inputs as a model might send them: wrong types, missing fields, paths outside the workspace
 * (plain, `..`, absolute, through symlinks), binary files. Everything goes through `runTool`, which must
 * resolve (never throw) with a result the API accepts, and nothing outside the workspace may change.
 */
import { mkdir, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { contentText } from "../../src/messages/index.js";
import { bashTool, defaultTools, type PermissionPolicy, runTool } from "../../src/tools/index.js";
import type { AnyTool, ToolContext, ToolOutput } from "../../src/tools/types.js";
import { makeTempDir } from "../temp-dir.js";

export const BYPASS: PermissionPolicy = { mode: "bypassPermissions", allow: [], deny: [] };

export interface FuzzWorkspace {
  root: string;
  workspace: string;
  outside: string;
  /** Paths a model might use to reach outside the workspace. */
  escapes: string[];
  close(): Promise<void>;
}

/** A workspace with text and binary files, plus symlinks that lead out of it to a sibling directory. */
export async function makeFuzzWorkspace(): Promise<FuzzWorkspace> {
  const root = await realpath(await makeTempDir("fuzz-tools"));
  const workspace = join(root, "workspace");
  const outside = join(root, "outside");
  await mkdir(join(workspace, "src"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(workspace, "src", "text.ts"), "export const answer = 42;\n// TODO: more\n");
  const binary = Buffer.alloc(4096);
  for (let index = 0; index < binary.length; index++) binary[index] = (index * 7919) % 256;
  await writeFile(join(workspace, "binary.bin"), binary);
  await writeFile(join(workspace, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]));
  await writeFile(join(outside, "secret.txt"), "outside the workspace\n");
  await symlink(join(outside, "secret.txt"), join(workspace, "escape-file"));
  await symlink(outside, join(workspace, "escape-dir"));
  await symlink(join(outside, "not-yet.txt"), join(workspace, "dangling"));
  const escapes = [
    "../outside/secret.txt",
    join(outside, "secret.txt"),
    join(outside, "new.txt"),
    "escape-file",
    "escape-dir/secret.txt",
    "escape-dir/new.txt",
    "dangling",
    "src/../../outside/secret.txt",
    "/etc/passwd",
    "..",
    "escape-dir",
  ];
  return { root, workspace, outside, escapes, close: () => rm(root, { recursive: true, force: true }) };
}

/** Every file under `directory` with its bytes, to prove nothing outside changed. */
export async function snapshotDirectory(directory: string): Promise<Map<string, string>> {
  const snapshot = new Map<string, string>();
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    const file = join(entry.parentPath, entry.name);
    snapshot.set(file, entry.isFile() ? (await readFile(file)).toString("base64") : "(dir)");
  }
  return snapshot;
}

export function context(workspace: string, additionalDirectories: string[] = []): ToolContext {
  return {
    cwd: workspace,
    additionalDirectories,
    signal: new AbortController().signal,
    toolUseId: "toolu_fuzz",
    onProgress: () => {},
  };
}

/** What the API requires of a result: error results are non-empty text. Returns a complaint, or undefined. */
export function resultProblem(output: ToolOutput): string | undefined {
  if (output.isError === true) {
    if (typeof output.content !== "string") return "error result is not text";
    if (output.content.trim() === "") return "error result is empty";
  }
  if (typeof output.content !== "string" && !Array.isArray(output.content)) return "content is neither text nor blocks";
  return undefined;
}

const FIELD_NAMES = [
  "file_path",
  "content",
  "old_string",
  "new_string",
  "replace_all",
  "offset",
  "limit",
  "pattern",
  "path",
  "glob",
  "output_mode",
  "-A",
  "-n",
  "head_limit",
  "unknown_field",
];

/** Inputs shaped like tool inputs, with fields missing, of the wrong type, or pointing at odd paths. */
export function toolInputArbitrary(paths: readonly string[]): fc.Arbitrary<unknown> {
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom(...paths, "binary.bin", "image.png", "src/text.ts", "src", ".", "", "\u0000", "a\nb"),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
  );
  const shaped = fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 5 });
  // Well-typed inputs aimed at odd places (binary files, escapes, new folders), so tools really run.
  const path = fc.oneof(
    fc.constantFrom(...paths, "binary.bin", "image.png", "src/text.ts", "src", "new/dir/file.txt"),
    fc.string({ maxLength: 12 }),
  );
  const small = fc.string({ maxLength: 20 });
  const wellTyped = fc.oneof(
    fc.record({ file_path: path, offset: fc.nat(50), limit: fc.nat(50) }, { requiredKeys: ["file_path"] }),
    fc.record({ file_path: path, content: small }),
    fc.record(
      { file_path: path, old_string: small, new_string: small, replace_all: fc.boolean() },
      {
        requiredKeys: ["file_path", "old_string", "new_string"],
      },
    ),
    fc.record({ pattern: small, path }, { requiredKeys: ["pattern"] }),
    fc.record(
      { pattern: fc.constantFrom("*", "**/*", "*.bin", "src/*.ts", "../*", "/etc/*"), path },
      {
        requiredKeys: ["pattern"],
      },
    ),
  );
  return fc.oneof(
    { arbitrary: shaped, weight: 3 },
    { arbitrary: wellTyped, weight: 4 },
    { arbitrary: fc.anything(), weight: 1 },
  );
}

/** Bash gets only inputs whose `command` is not a string: random commands must never reach a shell. */
export function bashInputArbitrary(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.record({ command: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string()), fc.boolean()) }),
    fc.record({ timeout: fc.integer(), description: fc.string() }),
    fc.constantFrom(null, 0, "ls", [], {}),
  );
}

/**
 * Property: any tool, any input → `runTool` resolves with an API-valid result, and the directory outside the
 * workspace is byte-for-byte unchanged afterwards.
 */
export async function fuzzToolInputs(numRuns: number, seed?: number): Promise<{ succeeded: number; refused: number }> {
  const fixture = await makeFuzzWorkspace();
  const tally = { succeeded: 0, refused: 0 };
  try {
    const before = await snapshotDirectory(fixture.outside);
    const tools = defaultTools().filter((tool) => tool.name !== bashTool.name);
    const toolArbitrary = fc.constantFrom(...tools);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(toolArbitrary, toolInputArbitrary(fixture.escapes)),
          fc.tuple(fc.constant<AnyTool>(bashTool), bashInputArbitrary()),
        ),
        async ([tool, input]) => {
          const output = await runTool(tool, input, context(fixture.workspace), BYPASS);
          if (output.isError === true) tally.refused++;
          else tally.succeeded++;
          const problem = resultProblem(output);
          if (problem !== undefined) throw new Error(`${tool.name}(${JSON.stringify(input)}): ${problem}`);
        },
      ),
      { numRuns, ...(seed !== undefined ? { seed } : {}) },
    );
    const after = await snapshotDirectory(fixture.outside);
    if (JSON.stringify([...after]) !== JSON.stringify([...before]))
      throw new Error(`the directory outside the workspace changed: ${[...after.keys()].join(", ")}`);
    return tally;
  } finally {
    await fixture.close();
  }
}

/** Every way out of the workspace, for every file tool: each must come back as a refusal. */
export async function escapeAttempts(
  fixture: FuzzWorkspace,
  additionalDirectories: string[] = [],
): Promise<Array<{ tool: string; path: string; output: ToolOutput }>> {
  const outcomes: Array<{ tool: string; path: string; output: ToolOutput }> = [];
  const inputs: Record<string, (path: string) => unknown> = {
    Read: (path) => ({ file_path: path }),
    Write: (path) => ({ file_path: path, content: "written by a fuzzer" }),
    Edit: (path) => ({ file_path: path, old_string: "outside", new_string: "EDITED" }),
    Grep: (path) => ({ pattern: "outside", path }),
    Glob: (path) => ({ pattern: "*", path }),
  };
  for (const tool of defaultTools()) {
    const build = inputs[tool.name];
    if (build === undefined) continue;
    for (const path of fixture.escapes) {
      const output = await runTool(tool, build(path), context(fixture.workspace, additionalDirectories), BYPASS);
      outcomes.push({ tool: tool.name, path, output });
    }
  }
  return outcomes;
}

/** Text of a result, for assertions. */
export function outputText(output: ToolOutput): string {
  return typeof output.content === "string" ? output.content : contentText(output.content);
}
