import { describe, expect, it } from "vitest";
import { auditTranscript, runSoakSession, soakScenario } from "../../support/reliability/soak-session.js";

/** `npm test` size; bench/soak.ts runs the full 50 sessions. */
const SESSIONS = 6;

describe("fault soak (20 % of requests failing)", () => {
  it(`${SESSIONS} sessions of 20 tool steps all complete with exact transcripts and valid requests`, async () => {
    let faults = 0;
    for (let seed = 1; seed <= SESSIONS; seed++) {
      const report = await runSoakSession({ seed });
      expect(report, `seed ${seed}: ${report.terminalError ?? ""}`).toMatchObject({
        completed: true,
        invalidRequests: 0,
        stepsRemaining: 0,
        auditProblems: [],
        secretLeaks: [],
      });
      expect(report.toolCalls).toBeGreaterThanOrEqual(20);
      faults += report.faultsInjected;
    }
    // The soak proves nothing if no fault ever struck.
    expect(faults).toBeGreaterThanOrEqual(SESSIONS);
  });

  it("the audit catches a duplicated and a lost entry", () => {
    const scenario = soakScenario(2);
    const session = "s";
    const base = { sessionId: session, timestamp: new Date(0).toISOString(), parentUuid: null };
    const assistant = (uuid: string, block: Record<string, unknown>) =>
      ({
        ...base,
        uuid,
        type: "assistant",
        message: { id: "m", type: "message", role: "assistant", model: "x", content: [block], stop_reason: null },
      }) as never;
    const entries = [
      assistant("a1", { type: "text", text: "Step 1: working." }),
      assistant("a1", { type: "text", text: "Step 1: working." }),
    ];
    const problems = auditTranscript(entries, scenario);
    expect(problems.some((problem) => problem.includes("duplicate uuid a1"))).toBe(true);
    expect(problems.some((problem) => problem.startsWith("assistant text #2"))).toBe(true);
    expect(problems.some((problem) => problem.startsWith("tool call #1"))).toBe(true);
  });
});
