/**
 * V8 settings for print and interactive mode (issue 44: peak memory is what a fleet of agents pays for;
 * measurements in docs/PERFORMANCE.md, "Memory"). Not for the subcommands: the emulator's tokenizer is WebAssembly
 * that wants the top tier, and the others are short.
 *
 * bin/threadline applies them from their own small bundle entry (dist/bundle/v8-flags.js) before it loads the
 * CLI's bundle: loading and evaluating the bundle is where the young generation first grows, and V8 never gives
 * that memory back, so a flag set later in `run()` came too late.
 *
 * Node's own modules are loaded first (preloadBuiltins): Node ships a V8 code cache for each of them, made under
 * V8's default flags, and V8 rejects a cache made under other flags. Setting any flag at run time changes the hash
 * it checks, so every built-in module loaded afterwards was compiled from source (and its cache made again):
 * 77 of them in a `-p` run, undici among them (docs/PERFORMANCE.md, "Start-up").
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as util from "node:util";
import { setFlagsFromString } from "node:v8";
import { subcommandOf } from "./subcommands.js";

/** The flags, in the order they are set. */
export const CLI_V8_FLAGS: readonly string[] = [
  // Node's fetch parses HTTP with undici's llhttp, compiled to WebAssembly; V8's optimizing tier for it peaks at
  // ~25 MB of compiler memory in a tool session. The baseline tier parses these responses as well.
  "--liftoff-only",
  // The young generation starts at 1 MB per semi-space and doubles whenever a scavenge keeps much alive: the
  // bundle's evaluation alone took it to 8 MB, and both semi-spaces stay resident. Not growing it keeps them
  // small; what survives is promoted to the old space a little sooner. V8 reads this flag each time it would grow
  // the space, so setting it at run time takes effect (a heap size flag, read when the heap is set up, would not).
  "--semi-space-growth-factor=1",
  // No TurboFan for JavaScript (the interpreter and the baseline compiler still run it): its compilations are
  // malloc'd zones that peak in a tool session. Measured on the bench's 40-step session (five interleaved runs
  // each): peak RSS 81.8 → 72.5 MB, and less CPU (2.45 → 2.04 s): a session's hot code is I/O and JSON, whose
  // work is in C++; the per-turn pipeline at ten thousand entries (bench/pipeline-overhead.ts) was no slower.
  "--no-opt",
];

/**
 * Node's modules that a print-mode run loads (its process.moduleLoadList read at the first request and at exit),
 * named by the public module that brings each in. test/cli/start-up-work.e2e.test.ts holds the list complete:
 * V8's --profile-deserialization reports every rejected cache.
 */
const PRINT_MODE_BUILTINS: readonly string[] = [
  "node:assert",
  "node:child_process",
  "node:dgram",
  "node:fs/promises",
  "node:http",
  "node:http2",
  "node:https",
  "node:net",
  "node:os",
  "node:perf_hooks",
  "node:readline",
  "node:stream",
  "node:stream/promises",
  "node:string_decoder",
  "node:tls",
  "node:util/types",
  "node:vm",
  "node:worker_threads",
  "node:zlib",
];

/**
 * Loads PRINT_MODE_BUILTINS, and the modules behind Node's lazy getters, while V8's flags are still the defaults.
 * Returns what it read, so that no minifier drops the reads as unused.
 */
function preloadBuiltins(): readonly unknown[] {
  const load = createRequire(import.meta.url);
  for (const name of PRINT_MODE_BUILTINS) load(name);
  // Each of these getters loads a module on first use: undici (the SDK's Headers and fetch), fs streams, Web
  // Crypto, util.parseArgs and MIME types.
  return [globalThis.Headers, fs.ReadStream, crypto.webcrypto, util.parseArgs, util.MIMEType];
}

/** Sets CLI_V8_FLAGS when `argv` (without node and the script) runs print or interactive mode. */
export function applyCliV8Flags(argv: readonly string[]): void {
  if (subcommandOf(argv) !== undefined) return;
  preloadBuiltins();
  for (const flag of CLI_V8_FLAGS) setFlagsFromString(flag);
}
