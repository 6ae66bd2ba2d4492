/**
 * A tool describes itself (issue 54): what the rest of the system asks about a tool — its path rule, whether
 * it changes files, whether subagents get it, how the terminal shows it — is in the tool's own definition
 * (`Tool.traits`, src/tools/types.ts), looked up through the registry (src/tools/default-tools.ts). This test
 * reads src/ outside src/tools/ for tables keyed by built-in tool names: a list or set of two or more tool-name
 * strings, a record with two or more tool names as keys, or a switch with two or more `case "ToolName":`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

/** Claude Code's built-in tool names (and the older ones rules and transcripts still name), written out here. */
const TOOL_NAMES = [
  "Agent",
  "AskUserQuestion",
  "Bash",
  "CronCreate",
  "CronDelete",
  "CronList",
  "Edit",
  "EnterWorktree",
  "ExitPlanMode",
  "ExitWorktree",
  "Glob",
  "Grep",
  "ListAgents",
  "LS",
  "Monitor",
  "MultiEdit",
  "NotebookEdit",
  "Read",
  "REPL",
  "ScheduleWakeup",
  "SendMessage",
  "Snip",
  "Task",
  "TaskStop",
  "TodoWrite",
  "ToolSearch",
  "WebFetch",
  "WebSearch",
  "Workflow",
  "Write",
];

/**
 * Tables left where they are, each for a reason: compaction's own settings and placeholders (issue 54 item 3,
 * compaction through one door, owns src/compaction/ today), and a subagent type's chosen tools (data, as a custom
 * agent file's `tools:` line is, not a question about a tool).
 */
const KNOWN: readonly string[] = [
  join("compaction", "settings.ts"),
  join("compaction", "results", "cleared-placeholder.ts"),
  join("engine", "subagent-types.ts"),
];

const NAME = TOOL_NAMES.join("|");

/** The text without comments (block and line), so a comment naming tools is no table. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/[^\n]*/g, "$1");
}

/** The tool-name tables in one file's text, each as a short description. */
function toolTables(text: string): string[] {
  const code = withoutComments(text);
  const found: string[] = [];
  for (const match of code.matchAll(/\[([^[\]]*)\]/g)) {
    const names = new Set([...match[1]!.matchAll(new RegExp(`["'\`](${NAME})["'\`]`, "g"))].map((m) => m[1]));
    if (names.size >= 2) found.push(`list of ${[...names].join(", ")}`);
  }
  const keys = new Set([...code.matchAll(new RegExp(`^\\s*["']?(${NAME})["']?\\s*:`, "gm"))].map((m) => m[1]));
  if (keys.size >= 2) found.push(`record keyed by ${[...keys].join(", ")}`);
  const cases = new Set([...code.matchAll(new RegExp(`case\\s+["'](${NAME})["']\\s*:`, "g"))].map((m) => m[1]));
  if (cases.size >= 2) found.push(`switch on ${[...cases].join(", ")}`);
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("a tool describes itself", () => {
  it("finds the tables it looks for (and not a comment, a lone name or other strings)", () => {
    expect(toolTables('const FILE_EDIT_TOOLS = new Set(["Write", "Edit"]);')).toEqual(["list of Write, Edit"]);
    expect(toolTables('export const X: readonly string[] = [\n  "Agent",\n  "Snip",\n];')).toEqual([
      "list of Agent, Snip",
    ]);
    expect(toolTables("const GROUPED = {\n  Read: { verb: 'Read' },\n  Glob: { verb: 'Listed' },\n};")).toEqual([
      "record keyed by Read, Glob",
    ]);
    expect(toolTables('switch (name) {\n  case "Read":\n    return 1;\n  case "Bash":\n    return 2;\n}')).toEqual([
      "switch on Read, Bash",
    ]);
    expect(toolTables('/** Write and Edit: ["Write", "Edit"] */\nif (tool === "Bash") run();')).toEqual([]);
    expect(toolTables('const modes = ["default", "plan"];\nconst one = ["Read"];')).toEqual([]);
  });

  it("no table keyed by built-in tool names outside src/tools/ (the tools say it in Tool.traits)", () => {
    const tables = sourceFiles(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => file.split(sep)[0] !== "tools" && !KNOWN.includes(file))
      .flatMap((file) => toolTables(readFileSync(join(SRC, file), "utf8")).map((table) => `${file}: ${table}`));
    expect(tables).toEqual([]);
  });
});
