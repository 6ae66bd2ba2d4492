/**
 * The `threadline` command: subcommands (demo, emulator, inspect, sessions, export, import), then print or
 * interactive mode.
 * Modes are imported lazily so `--help` and the emulator stay quick and `-p` loads only what it runs.
 * Every failure ends here as one line: no stack traces, never a credential.
 */
import { Writable } from "node:stream";
import { getHeapSpaceStatistics } from "node:v8";
import { redactSecrets } from "../messages/index.js";
import { SecretEnvironment } from "../tools/index.js";
import { parseCliArgs, USAGE_EXIT_CODE, UsageError } from "./args.js";
import { type CliIo, processIo } from "./io.js";
import { DEMO_USAGE, mistypedSubcommand, STORE_COMMAND_USAGE, subcommandOf, wantsHelp } from "./subcommands.js";
import { USAGE, USAGE_HINT } from "./usage.js";
import { packageVersion } from "./version.js";

/** When "1", the CLI prints its peak RSS to stderr on exit (for benchmarks). */
export const REPORT_RSS_ENV = "THREADLINE_REPORT_RSS";

/** Runs the command; resolves to the exit code. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

/** `usage` on stdout when `rest` asks for help, else `run` (which loads its command lazily). */
async function helpOr(usage: string, rest: readonly string[], io: CliIo, run: () => Promise<number>): Promise<number> {
  if (wantsHelp(rest)) {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  return run();
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [, ...rest] = argv;
  const subcommand = subcommandOf(argv);
  switch (subcommand) {
    case "demo":
      return helpOr(DEMO_USAGE, rest, io, async () => (await import("./demo.js")).runDemo(rest, io));
    case "emulator": {
      const { runEmulatorCommand } = await import("@threadline/emulator");
      return runEmulatorCommand(rest);
    }
    case "sessions":
      return helpOr(STORE_COMMAND_USAGE.sessions, rest, io, async () =>
        (await import("./commands/sessions-command.js")).runSessionsCommand(rest, io),
      );
    case "export":
      return helpOr(STORE_COMMAND_USAGE.export, rest, io, async () =>
        (await import("./commands/export-command.js")).runExportCommand(rest, io),
      );
    case "import":
      return helpOr(STORE_COMMAND_USAGE.import, rest, io, async () =>
        (await import("./commands/import-command.js")).runImportCommand(rest, io),
      );
    case "mcp": {
      const { MCP_COMMAND_USAGE, runMcpCommand } = await import("./commands/mcp-command.js");
      return helpOr(MCP_COMMAND_USAGE, rest, io, () => runMcpCommand(rest, io));
    }
    case "inspect": {
      const { runInspect } = await import("./inspect/inspect.js");
      return runInspect(rest, { stdout: io.stdout, stderr: io.stderr, isTTY: io.stderr.isTTY === true, env: io.env });
    }
    case undefined:
      break;
    default: {
      const unknown: never = subcommand;
      throw new Error(`unhandled subcommand ${String(unknown)}`);
    }
  }
  const meant = mistypedSubcommand(argv);
  if (meant !== undefined) throw new UsageError(`unknown command "${argv[0]}"; did you mean \`${meant}\`?`);
  const cli = parseCliArgs(argv, io.env, io.cwd);
  for (const notice of cli.notices) io.stderr.write(`threadline: ${notice}\n`);
  if (cli.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (cli.version) {
    io.stdout.write(`${packageVersion()} (threadline)\n`);
    return 0;
  }
  // Settings files (and --settings) apply under the flags; their `env` joins the session's environment.
  const { applySettings } = await import("./settings-options.js");
  const session = applySettings(cli, io);
  if (cli.print) {
    const { runPrintMode } = await import("./modes/print/print-mode.js");
    return runPrintMode(session.cli, session.io);
  }
  const { runInteractive } = await import("./modes/interactive.js");
  // After a yes to the trust question the settings are read again, through the same (now open) gate.
  // Its problem lines were shown the first time: the reload reads quietly.
  const quiet: CliIo = { ...io, stderr: new Writable({ write: (_chunk, _encoding, done) => done() }) };
  return runInteractive(session.cli, session.io, () => {
    const again = applySettings(cli, quiet, session.cli.trustGate);
    return { cli: again.cli, io: { ...again.io, stderr: io.stderr } };
  });
}

/** Prints one line for any failure; usage errors point at `--help` and exit 2. */
export function reportFailure(error: unknown, io: CliIo): number {
  if (error instanceof UsageError) {
    io.stderr.write(`threadline: ${error.message} ${USAGE_HINT}\n`);
    return USAGE_EXIT_CODE;
  }
  // Every secret-named variable (secret-env.ts), plus the two keys even when they are short.
  const secrets = [io.env.ANTHROPIC_API_KEY, io.env.ANTHROPIC_AUTH_TOKEN]
    .filter((secret): secret is string => typeof secret === "string" && secret.length >= 4)
    .concat(new SecretEnvironment(io.env).values);
  io.stderr.write(`threadline: ${redactSecrets(oneLine(error), secrets)}\n`);
  return 1;
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n").find((part) => part.trim() !== "") ?? "unexpected error";
  return line.trim();
}

/** Entry for `bin/threadline`: runs, flushes stdout and stderr, then exits with the code. */
export async function run(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  // V8's memory settings were made by bin/threadline before this bundle loaded (src/cli/v8-flags.ts).
  const io = processIo();
  const fail = (error: unknown) => {
    process.exitCode = reportFailure(error, io);
    process.exit();
  };
  process.on("uncaughtException", fail);
  process.on("unhandledRejection", fail);
  const code = await main(argv, io);
  // For bench/cli-cold-start.ts and test/cli/start-up-work.e2e.test.ts: peak resident memory of the whole run (in
  // kilobytes) and the young generation it ended with.
  if (io.env[REPORT_RSS_ENV] === "1")
    io.stderr.write(`threadline: maxRSS ${process.resourceUsage().maxRSS} KB${newSpaceNote()}\n`);
  // Exit explicitly (idle keep-alive sockets must not hold the process), after the streams drain.
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(code);
}

/** The young generation's size at exit, as V8 reports it (the CLI's V8 flags keep it from growing). */
function newSpaceNote(): string {
  const space = getHeapSpaceStatistics().find((candidate) => candidate.space_name === "new_space");
  return space === undefined ? "" : `, new space ${Math.round(space.space_size / 1024)} KB`;
}

function drain(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (!stream.writableNeedDrain) resolve();
    else stream.once("drain", () => resolve());
  });
}
