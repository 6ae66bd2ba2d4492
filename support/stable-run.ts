/**
 * The same bytes on every run, for benchmarks whose tables CI re-runs (bench/check-fresh.ts). The emulator counts
 * with a real tokenizer, for which two random strings of one length are not the same number of tokens, so
 * everything random or dated that reaches a request must repeat:
 * - temp paths (the workspace is in the system prompt): a counter, under /tmp itself (support/temp-dir.ts);
 * - uuids: entry uuids become the Snip tool's `[id:xxxxxx]` tags in every user message, so `crypto.randomUUID`
 *   is replaced for the process by uuids hashed from a counter (the same sequence each run, still v4-shaped);
 * - the date in the system prompt: the harness's clock runs from a fixed day (`stableClock`), at real speed, so
 *   time-based rules still see real gaps.
 * Two stable runs at once would share paths; benches run one at a time.
 */
import crypto, { createHash } from "node:crypto";
import { syncBuiltinESMExports } from "node:module";

/** The day a stable run's sessions start on (any fixed day; this one is when the tables were first fixed). */
const STABLE_DAY = Date.UTC(2026, 11, 2, 9, 0, 0);

let started: number | undefined;

/** Make this process's temp paths, uuids and session dates repeat from run to run. Call once, first thing. */
export function stableRun(): void {
  if (started !== undefined) return;
  started = Date.now();
  process.env.THREADLINE_STABLE_TEMP = "1";
  let count = 0;
  crypto.randomUUID = (() => {
    count++;
    const hex = createHash("sha256").update(`threadline-stable-${count}`).digest("hex");
    // Version 4, variant 10xx: the shape randomUUID gives, so nothing that checks the shape notices.
    const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }) as typeof crypto.randomUUID;
  // ESM `import { randomUUID } from "node:crypto"` bindings follow the default export only after this.
  syncBuiltinESMExports();
}

/** In a stable run, a clock that starts on STABLE_DAY and runs at real speed; otherwise undefined. */
export function stableClock(): (() => Date) | undefined {
  const origin = started;
  if (origin === undefined) return undefined;
  return () => new Date(STABLE_DAY + (Date.now() - origin));
}
