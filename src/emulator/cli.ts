/**
 * `threadline emulator [--port N] [--scenario FILE] [--log FILE] [--lenient]`: runs the emulator until
 * SIGINT or SIGTERM.
 */
import { parseArgs } from "node:util";
import type { EmulatorOptions } from "./options.js";
import { startEmulator } from "./server.js";

/** Exit code for bad flags. */
export const USAGE_EXIT_CODE = 2;

export interface EmulatorCommandIo {
  /** Where the listening line goes. Default process.stdout. */
  write?: (line: string) => void;
  /** Where a bad-flag error goes. Default process.stderr. */
  writeError?: (line: string) => void;
  /** Resolves when the server should stop. Default: the first SIGINT or SIGTERM. */
  until?: Promise<unknown>;
}

/** `threadline emulator --help`. */
export const EMULATOR_USAGE = `Usage: threadline emulator [--port N] [--scenario FILE] [--log FILE] [--lenient]

Serves a local Anthropic Messages API emulator until Ctrl-C; point ANTHROPIC_BASE_URL at the URL it prints
(no key needed).

Options:
  --port <n>         Port on 127.0.0.1 (default 0: any free port)
  --scenario <file>  Scenario JSON: scripted turns and injected faults
  --log <file>       Append one JSON line per request to this file
  --lenient          Accept requests the strict validator would reject
  -h, --help         Show this help`;

/** Parses flags, serves until a signal (or `io.until`), and returns the exit code (2 for bad flags). */
export async function runEmulatorCommand(argv: string[], io: EmulatorCommandIo = {}): Promise<number> {
  const write = io.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const writeError = io.writeError ?? ((line: string) => process.stderr.write(`${line}\n`));
  let options: EmulatorOptions;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        port: { type: "string", default: "0" },
        scenario: { type: "string" },
        log: { type: "string" },
        lenient: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      write(EMULATOR_USAGE);
      return 0;
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new Error(`--port must be 0..65535, got ${values.port}`);
    options = { port, lenient: values.lenient };
    if (values.scenario !== undefined) options.scenarioFile = values.scenario;
    if (values.log !== undefined) options.logPath = values.log;
  } catch (error) {
    writeError(`threadline emulator: ${(error as Error).message}`);
    return USAGE_EXIT_CODE;
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    writeError(`threadline emulator: ${(error as Error).message}`);
    return 1;
  }
  write(`threadline emulator listening on ${emulator.url}`);
  await (io.until ?? untilSignal());
  await emulator.close();
  return 0;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
