/**
 * What every end-to-end CLI test file shares: the CLI built once, at most one emulator per test, and temp
 * directories (a private THREADLINE_HOME, a working directory), all closed and removed after each test.
 */
import { rm } from "node:fs/promises";
import { type Emulator, type EmulatorOptions, startEmulator } from "@threadline/emulator";
import { afterEach, beforeAll } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { buildOnce } from "./build-once.js";
import { cliEnv } from "./cli-process.js";

/** A private home and working directory, and the CLI's environment against the test's emulator. */
export interface CliSetup {
  emulator: Emulator;
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface CliHarness {
  /** Starts the test's emulator; it is closed after the test. */
  startEmulator(options: EmulatorOptions): Promise<Emulator>;
  /** The emulator the running test started, if it started one. */
  readonly emulator: Emulator | undefined;
  /** A new directory `threadline-<purpose>-XXXXXX` under the system temp dir; removed after the test. */
  tempDir(purpose: string): Promise<string>;
  /** An emulator, `<purpose>-home` and `<purpose>-cwd` temp directories, and `cliEnv` for them. */
  setup(options: EmulatorOptions, purpose: string): Promise<CliSetup>;
}

/** Registers the build and the per-test clean-up; call once at the top of a test file. */
export function useCliHarness(): CliHarness {
  let emulator: Emulator | undefined;
  const directories: string[] = [];
  beforeAll(() => buildOnce());
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
    for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
  });
  const harness: CliHarness = {
    async startEmulator(options) {
      emulator = await startEmulator(options);
      return emulator;
    },
    get emulator() {
      return emulator;
    },
    async tempDir(purpose) {
      const directory = await makeTempDir(purpose);
      directories.push(directory);
      return directory;
    },
    async setup(options, purpose) {
      const server = await harness.startEmulator(options);
      const home = await harness.tempDir(`${purpose}-home`);
      const cwd = await harness.tempDir(`${purpose}-cwd`);
      return { emulator: server, home, cwd, env: cliEnv(server.url, home) };
    },
  };
  return harness;
}
