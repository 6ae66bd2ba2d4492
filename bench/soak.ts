/**
 * Fault soak, full size: 50 scripted sessions of 20+ tool steps against the emulator with 20 % of requests
 * failing (429 with retry-after, 529, 500, mid-stream cut, error event after 200). Prints a line per session
 * and RESULT lines: sessions completed, audit problems (lost or duplicate entries), contract violations,
 * key leaks in the artifacts.
 *
 *   node --import tsx bench/soak.ts [--sessions 50] [--steps 20]
 */
import { runSoakSession } from "../support/reliability/soak-session.js";
import { reportResult } from "./lib/result.js";

/** Sessions in the full soak. */
export const DEFAULT_SESSIONS = 50;

function numberArgument(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

async function main(): Promise<void> {
  const sessions = numberArgument("--sessions", DEFAULT_SESSIONS);
  const toolSteps = numberArgument("--steps", 20);
  const totals = { completed: 0, requests: 0, faults: 0, invalid: 0, auditProblems: 0, leaks: 0, toolCalls: 0 };
  const started = performance.now();
  for (let seed = 1; seed <= sessions; seed++) {
    const report = await runSoakSession({ seed, toolSteps });
    if (report.completed) totals.completed++;
    totals.requests += report.messagesRequests;
    totals.faults += report.faultsInjected;
    totals.invalid += report.invalidRequests;
    totals.auditProblems += report.auditProblems.length;
    totals.leaks += report.secretLeaks.length;
    totals.toolCalls += report.toolCalls;
    const flag =
      report.completed && report.auditProblems.length === 0 && report.invalidRequests === 0 ? "ok  " : "FAIL";
    console.log(
      `${flag} session ${String(seed).padStart(2)}: ${report.messagesRequests} requests, ${report.faultsInjected} faults, ` +
        `${report.entriesOnDisk} entries, ${report.terminalReason}` +
        (report.auditProblems.length > 0 ? ` — ${report.auditProblems.slice(0, 3).join("; ")}` : ""),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${totals.completed}/${sessions} sessions completed; ${totals.faults} of ${totals.requests} requests faulted ` +
      `(${((100 * totals.faults) / Math.max(1, totals.requests)).toFixed(1)} %); ${totals.toolCalls} tool calls; ${seconds.toFixed(1)} s`,
  );
  const note = `${totals.faults}/${totals.requests} requests faulted`;
  reportResult({
    bench: "soak",
    metric: `sessions completed (of ${sessions}, 20 % faults)`,
    value: totals.completed,
    unit: "",
    target: `${sessions}`,
    note,
  });
  reportResult({
    bench: "soak",
    metric: "transcript entries lost or duplicated",
    value: totals.auditProblems,
    unit: "",
    target: "0",
  });
  reportResult({
    bench: "soak",
    metric: "contract-invalid requests seen by the emulator",
    value: totals.invalid,
    unit: "",
    target: "0",
  });
  reportResult({
    bench: "soak",
    metric: "artifacts containing the API key",
    value: totals.leaks,
    unit: "",
    target: "0",
  });
}

await main();
