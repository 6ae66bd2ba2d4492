/**
 * `threadline emulator [options]`: runs the emulator until SIGINT or SIGTERM (see EMULATOR_HELP).
 */
import { parseArgs } from "node:util";
import type { EmulatorOptions } from "./options.js";
import { startEmulator } from "./server.js";
import {
  type CompatibleUsage,
  DEFAULT_COMPATIBLE_USAGE,
  DEFAULT_EMULATOR_MODE,
  type EmulatorMode,
} from "./wire/compatible.js";

/** Exit code for bad flags. */
export const USAGE_EXIT_CODE = 2;

/** What `threadline emulator --help` prints. */
export const EMULATOR_HELP = `Usage: threadline emulator [options]

A local stand-in for the Anthropic Messages API on 127.0.0.1 (POST /v1/messages, /v1/messages/count_tokens,
GET /v1/models). By default it behaves like the public API: it accepts what the pinned SDK's request types
define and rejects everything else with the API's 400 wording.

Options:
  --port N           port to listen on (default 0: any free port; the URL is printed)
  --scenario FILE    scripted turns and faults (JSON; see packages/emulator/src/model/scenario.ts)
  --log FILE         append one JSON record per request: headers (keys scrubbed), body, violations,
                     validation mode and announced features
  --lenient          log contract violations without rejecting the request
  --cache-editing    accept cache_edits blocks and cache_reference (emulator-only) and announce it with
                     the response header x-emulator-features: cache-editing
  --seed N           seed for ids and chunk splits (default: from the clock, so ids differ per run)
  --mode MODE        public (default: the first-party API's contract) or compatible (behaves like
                     llama-server: ignores cache_control and unknown fields, OpenAI-style errors)
  --usage KIND       compatible mode's usage: counted (default), zero, or zero-while-streaming
  --context-window N context window for every model (default: the model table's)
  --token-ratio X    multiply every token count (the Claude tokenizer's) by X to stand in for a server
                     whose tokenizer counts more (e.g. 2, 4, 10); default 1
  -h, --help         print this help

Point a client at it with ANTHROPIC_BASE_URL=<printed URL> and any API key.`;

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
        "cache-editing": { type: "boolean", default: false },
        seed: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        mode: { type: "string", default: DEFAULT_EMULATOR_MODE },
        usage: { type: "string", default: DEFAULT_COMPATIBLE_USAGE },
        "context-window": { type: "string" },
        "token-ratio": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      write(EMULATOR_HELP);
      return 0;
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new Error(`--port must be 0..65535, got ${values.port}`);
    if (!isMode(values.mode)) throw new Error(`--mode must be public or compatible, got ${values.mode}`);
    if (!isUsage(values.usage))
      throw new Error(`--usage must be counted, zero or zero-while-streaming, got ${values.usage}`);
    options = {
      port,
      lenient: values.lenient,
      cacheEditing: values["cache-editing"],
      mode: values.mode,
      compatibleUsage: values.usage,
    };
    if (values.seed !== undefined) {
      const seed = Number(values.seed);
      if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
      options.seed = seed;
    }
    if (values["context-window"] !== undefined) {
      const window = Number(values["context-window"]);
      if (!Number.isInteger(window) || window < 1)
        throw new Error(`--context-window must be a positive integer, got ${values["context-window"]}`);
      options.contextWindow = window;
    }
    if (values["token-ratio"] !== undefined) {
      const ratio = Number(values["token-ratio"]);
      if (!Number.isFinite(ratio) || ratio <= 0)
        throw new Error(`--token-ratio must be a positive number, got ${values["token-ratio"]}`);
      options.tokenRatio = ratio;
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
  const mode = [
    options.lenient ? "lenient (violations logged, not rejected)" : "strict",
    emulator.features.length > 0 ? `announcing ${emulator.features.join(", ")}` : "public API",
    ...(options.tokenRatio !== undefined && options.tokenRatio !== 1 ? [`token counts ×${options.tokenRatio}`] : []),
  ].join(", ");
  write(`threadline emulator listening on ${emulator.url} (${mode})`);
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
