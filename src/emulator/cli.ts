/**
 * `threadline emulator [--port N] [--scenario FILE] [--log FILE] [--lenient] [--mode public|compatible]
 * [--usage counted|zero|zero-while-streaming] [--context-window N]`: runs the emulator until SIGINT or SIGTERM.
 */
import { parseArgs } from "node:util";
import {
  type CompatibleUsage,
  DEFAULT_COMPATIBLE_USAGE,
  DEFAULT_EMULATOR_MODE,
  type EmulatorMode,
} from "./compatible.js";
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
        mode: { type: "string", default: DEFAULT_EMULATOR_MODE },
        usage: { type: "string", default: DEFAULT_COMPATIBLE_USAGE },
        "context-window": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    });
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new Error(`--port must be 0..65535, got ${values.port}`);
    if (!isMode(values.mode)) throw new Error(`--mode must be public or compatible, got ${values.mode}`);
    if (!isUsage(values.usage))
      throw new Error(`--usage must be counted, zero or zero-while-streaming, got ${values.usage}`);
    options = { port, lenient: values.lenient, mode: values.mode, compatibleUsage: values.usage };
    if (values["context-window"] !== undefined) {
      const window = Number(values["context-window"]);
      if (!Number.isInteger(window) || window < 1)
        throw new Error(`--context-window must be a positive integer, got ${values["context-window"]}`);
      options.contextWindow = window;
    }
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

function isMode(value: string): value is EmulatorMode {
  return value === "public" || value === "compatible";
}

function isUsage(value: string): value is CompatibleUsage {
  return value === "counted" || value === "zero" || value === "zero-while-streaming";
}
