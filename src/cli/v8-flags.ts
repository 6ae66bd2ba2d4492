/**
 * V8 settings for print and interactive mode (issue 44: peak memory is what a fleet of agents pays for;
 * measurements in docs/PERFORMANCE.md, "Memory"). Not for the subcommands: the emulator's tokenizer is WebAssembly
 * that wants the top tier, and the others are short.
 *
 * bin/threadline applies them from their own small bundle entry (dist/bundle/v8-flags.js) before it loads the
 * CLI's bundle: loading and evaluating the bundle is where the young generation first grows, and V8 never gives
 * that memory back, so a flag set later in `run()` came too late.
 */
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

/** Sets CLI_V8_FLAGS when `argv` (without node and the script) runs print or interactive mode. */
export function applyCliV8Flags(argv: readonly string[]): void {
  if (subcommandOf(argv) !== undefined) return;
  for (const flag of CLI_V8_FLAGS) setFlagsFromString(flag);
}
