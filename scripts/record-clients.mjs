#!/usr/bin/env node
/**
 * Dev script: records whole sessions of real clients (a prompt answered with a tool call, the tool's result,
 * then a resumed session with a second tool call), as fixtures the emulator must accept.
 *
 *   node scripts/record-clients.mjs [--clients-dir DIR] [--only claude,pi,opencode] [--max N] [--dry-run]
 *
 * 1. Installs Claude Code, pi and opencode with npm into a temporary folder (or DIR, reused when present).
 *    They are never dependencies of threadline.
 * 2. Starts `threadline emulator --lenient --log FILE` (from dist/: run `npm run build` first).
 * 3. Runs each client twice, non-interactively, with a fake key and ANTHROPIC_BASE_URL at the emulator: a first
 *    prompt, then the same session resumed (`--continue`) with a second prompt. When
 *    `unshare -rn` works, emulator and clients run in a private network namespace with only loopback, so no
 *    client can reach any other host (telemetry, update checks, model lists).
 * 4. Writes the first N `POST /v1/messages*` bodies per client (both runs) to test/fixtures/real-clients/, with the
 *    headers the emulator logged (keys scrubbed) and the violations the default emulator found.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FIXTURES = join(ROOT, "test", "fixtures", "real-clients");
const FAKE_KEY = "sk-ant-api03-fake-recording-key-not-a-secret";
/** Seconds each client may run before it is stopped (the emulator answers at once; clients may retry). */
const CLIENT_TIMEOUT_SECONDS = 90;

/** What each client is asked; the emulator's scenario answers with a read of notes.txt, then a text reply. */
const PROMPT = "What does notes.txt say?";
/** The second prompt, in the resumed session; answered with a read of todo.txt, then a text reply. */
const RESUME_PROMPT = "And what does todo.txt say?";

const CLIENTS = {
  claude: {
    package: "@anthropic-ai/claude-code",
    bin: "claude",
    args: (prompt, resume) => [...(resume ? ["--continue"] : []), "-p", prompt, "--output-format", "json"],
    env: {
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
    },
    readTool: (file) => ({ name: "Read", input: { file_path: file } }),
    setup: () => {},
  },
  pi: {
    package: "@mariozechner/pi-coding-agent",
    bin: "pi",
    args: (prompt, resume) => [...(resume ? ["--continue"] : []), "--provider", "anthropic", "-p", prompt],
    env: {},
    readTool: (file) => ({ name: "read", input: { path: file } }),
    // pi takes a base URL for a built-in provider from ~/.pi/agent/models.json (docs/models.md).
    setup: (home, url) => {
      const dir = join(home, ".pi", "agent");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: url } } }));
    },
  },
  opencode: {
    package: "opencode-ai",
    bin: "opencode",
    // `--continue` belongs to the `run` subcommand.
    args: (prompt, resume) => [
      "run",
      ...(resume ? ["--continue"] : []),
      "--model",
      "anthropic/claude-sonnet-4-6",
      prompt,
    ],
    env: { OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_MODELS_FETCH: "1" },
    readTool: (file) => ({ name: "read", input: { filePath: file } }),
    // opencode passes provider options to @ai-sdk/anthropic; baseURL set in its config file.
    setup: (_home, url, workspace) => {
      writeFileSync(
        join(workspace, "opencode.json"),
        JSON.stringify({
          $schema: "https://opencode.ai/config.json",
          provider: { anthropic: { options: { baseURL: `${url}/v1`, apiKey: FAKE_KEY } } },
        }),
      );
    },
  },
};

const { values } = parseArgs({
  options: {
    "clients-dir": { type: "string" },
    only: { type: "string" },
    max: { type: "string", default: "20" },
    "dry-run": { type: "boolean", default: false },
    "in-namespace": { type: "boolean", default: false },
  },
});
const names = (values.only ?? Object.keys(CLIENTS).join(",")).split(",").filter((name) => name in CLIENTS);
const max = Number(values.max);

if (!values["in-namespace"]) {
  const clientsDir = values["clients-dir"] ?? mkdtempSync(join(tmpdir(), "threadline-clients-"));
  install(clientsDir, names);
  const args = [fileURLToPath(import.meta.url), "--in-namespace", "--clients-dir", clientsDir, "--max", String(max)];
  args.push("--only", names.join(","));
  if (values["dry-run"]) args.push("--dry-run");
  const isolated = spawnSync("unshare", ["-rn", "true"]).status === 0;
  if (!isolated) console.log("unshare -rn is not available: clients run on the host network (loopback URL only).");
  const command = isolated ? "unshare" : process.execPath;
  const commandArgs = isolated
    ? ["-rn", "sh", "-c", 'ip link set lo up 2>/dev/null; exec "$0" "$@"', process.execPath, ...args]
    : args;
  const result = spawnSync(command, commandArgs, { stdio: "inherit" });
  process.exit(result.status ?? 1);
}

await record(values["clients-dir"], names);

function install(dir, clientNames) {
  const packages = clientNames.map((name) => CLIENTS[name].package);
  const missing = packages.filter((name) => !existsSync(join(dir, "node_modules", name, "package.json")));
  if (missing.length === 0) return;
  console.log(`installing ${missing.join(", ")} into ${dir}`);
  if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), '{"private":true}\n');
  const result = spawnSync("npm", ["install", "--no-audit", "--no-fund", ...missing], { cwd: dir, stdio: "inherit" });
  if (result.status !== 0) console.log(`npm install failed (${result.status}); recording what is installed`);
}

async function record(clientsDir, clientNames) {
  const work = mkdtempSync(join(tmpdir(), "threadline-record-"));
  const summary = [];
  for (const name of clientNames) summary.push(await runClient(name, clientsDir, work));
  console.log("\nclient     version      requests  accepted-by-default-emulator  status");
  for (const row of summary) {
    console.log(
      `${row.name.padEnd(10)} ${String(row.version).padEnd(12)} ${String(row.requests).padStart(8)}  ${String(row.accepted).padStart(28)}  ${row.status}`,
    );
  }
  rmSync(work, { recursive: true, force: true });
}

/** Starts `threadline emulator --lenient` with `scenarioPath`; resolves with its URL and process. */
async function startEmulator(logPath, scenarioPath) {
  const args = [join(ROOT, "bin", "threadline"), "emulator", "--lenient", "--log", logPath, "--scenario", scenarioPath];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolveUrl, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const match = text.match(/listening on (http:\/\/\S+)/);
      if (match) resolveUrl(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`emulator exited ${code}`)));
  });
  return { url, child };
}

async function runClient(name, clientsDir, work) {
  const client = CLIENTS[name];
  const packageJson = join(clientsDir, "node_modules", client.package, "package.json");
  const version = existsSync(packageJson) ? JSON.parse(readFileSync(packageJson, "utf8")).version : "missing";
  const bin = join(clientsDir, "node_modules", ".bin", client.bin);
  if (!existsSync(bin)) return { name, version, requests: 0, accepted: 0, status: `not installed (${bin})` };
  const home = join(work, `${name}-home`);
  const workspace = join(work, `${name}-workspace`);
  mkdirSync(home, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const notes = join(workspace, "notes.txt");
  writeFileSync(notes, "The build runs with `npm test`.\n");
  const todo = join(workspace, "todo.txt");
  writeFileSync(todo, "Ship the release notes.\n");
  const scenarioPath = join(work, `${name}-scenario.json`);
  const readTurn = (file, text) => ({
    content: [
      { type: "text", text },
      { type: "tool_use", ...client.readTool(file) },
    ],
  });
  // Side requests (titles, topics, token counts) may take scenario steps too; the trailing texts answer them.
  const scenario = {
    turns: [
      readTurn(notes, "Reading it."),
      "It says the build runs with npm test.",
      readTurn(todo, "Reading the todo list."),
      "It says to ship the release notes.",
      "Done.",
      "Done.",
      "Done.",
      "Done.",
    ],
  };
  writeFileSync(scenarioPath, JSON.stringify(scenario));
  const logPath = join(work, `${name}-emulator.jsonl`);
  const emulator = await startEmulator(logPath, scenarioPath);
  const url = emulator.url;
  client.setup(home, url, workspace);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    TERM: "dumb",
    CI: "1",
    ANTHROPIC_API_KEY: FAKE_KEY,
    ANTHROPIC_BASE_URL: url,
    ...client.env,
  };
  const started = Date.now();
  const first = await runOnce(bin, client.args(PROMPT, false), workspace, env);
  const resumed = await runOnce(bin, client.args(RESUME_PROMPT, true), workspace, env);
  const result = first.code === 0 ? resumed : first;
  emulator.child.kill("SIGTERM");
  const entries = readLog(logPath)
    .filter((entry) => entry.method === "POST" && entry.path.startsWith("/v1/messages") && entry.body !== undefined)
    .slice(0, max);
  const status =
    result.code === 0
      ? `exit 0 in ${Math.round((Date.now() - started) / 1000)} s`
      : `exit ${result.code ?? result.signal}: ${result.output.trim().split("\n").slice(-2).join(" | ").slice(0, 160)}`;
  let accepted = 0;
  // A new recording replaces the client's old fixtures whole (their count changes from client version to version).
  if (!values["dry-run"] && existsSync(FIXTURES)) {
    for (const file of readdirSync(FIXTURES)) if (file.startsWith(`${name}-`)) rmSync(join(FIXTURES, file));
  }
  entries.forEach((entry, index) => {
    if (entry.violations.length === 0) accepted++;
    const fixture = {
      client: name,
      package: client.package,
      version,
      recorded: "by scripts/record-clients.mjs against threadline emulator --lenient",
      method: entry.method,
      path: entry.path,
      headers: entry.headers ?? {},
      violationsWhenRecorded: entry.violations.map((violation) => violation.message),
      body: entry.body,
    };
    const file = join(FIXTURES, `${name}-${String(index + 1).padStart(2, "0")}.json`);
    if (!values["dry-run"]) {
      mkdirSync(FIXTURES, { recursive: true });
      writeFileSync(file, `${JSON.stringify(fixture, null, 2)}\n`);
    }
    for (const violation of fixture.violationsWhenRecorded.slice(0, 3))
      console.log(`  ${name}#${index + 1}: ${violation}`);
  });
  return { name, version, requests: entries.length, accepted, status };
}

/** Runs the client once; resolves with its exit and output (killed after CLIENT_TIMEOUT_SECONDS). */
function runOnce(bin, args, cwd, env) {
  return new Promise((resolveRun) => {
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), CLIENT_TIMEOUT_SECONDS * 1000);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, output });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolveRun({ code: -1, signal: null, output: String(error) });
    });
  });
}

function readLog(path) {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}
