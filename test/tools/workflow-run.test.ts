/**
 * A Workflow run's own limits, with the session's runner replaced by a counting one (the injection seam the engine
 * fills with the subagent runner): at most 50 agent() calls per run, and the notification's value capped at 20,000
 * characters with the whole of it in result.json. Oracles: literals, the runner's call count, the file on disk.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentRunner } from "../../src/tools/agents/agent-run.js";
import { PositionalReplay, WorkflowRunStore } from "../../src/tools/agents/workflow-cache.js";
import { runWorkflow } from "../../src/tools/agents/workflow-run.js";
import { parseWorkflowScript } from "../../src/tools/agents/workflow-script.js";
import { makeTempDir } from "../../support/temp-dir.js";

async function run(source: string, runner: AgentRunner) {
  const parsed = parseWorkflowScript(source);
  if ("error" in parsed) throw new Error(parsed.error);
  const store = new WorkflowRunStore(await makeTempDir("wf"), "wf_testrun1");
  const outcome = await runWorkflow({
    runId: "wf_testrun1",
    meta: parsed.meta,
    body: parsed.body,
    args: null,
    store,
    replay: new PositionalReplay(new Map()),
    run: runner,
    signal: new AbortController().signal,
    toolUseId: "toolu_test",
  });
  return { outcome, store };
}

function countingRunner(): { runner: AgentRunner; calls: () => number } {
  let calls = 0;
  const runner: AgentRunner = async (request) => {
    calls++;
    return {
      agentId: `a${calls}`,
      transcriptPath: undefined,
      subagentType: "general-purpose",
      status: "completed",
      text: `done ${request.prompt}`,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, requests: 1 },
      toolUseCount: 0,
    };
  };
  return { runner, calls: () => calls };
}

describe("runWorkflow limits", () => {
  // Mutation caught: workflow-max-agents-unbounded (a runaway loop starts as many subagents as it asks for).
  it("refuses the 51st agent() call of a run; 50 subagents ran", async () => {
    const { runner, calls } = countingRunner();
    const { outcome } = await run(
      "export const meta = { name: 'loop', description: 'too many' }\nfor (let i = 0; i < 60; i++) await agent('n' + i)\n",
      runner,
    );
    expect(calls()).toBe(50);
    expect(outcome.status).toBe("failed");
    expect(outcome.notification).toContain(
      '<summary>Workflow "loop" failed: agent() called more than 50 times in one run; the rest were refused',
    );
  });

  // Mutation caught: workflow-result-uncapped (the whole value goes into the notification).
  it("caps the notification's value at 20,000 characters; result.json holds all of it", async () => {
    const { runner } = countingRunner();
    const { outcome, store } = await run(
      "export const meta = { name: 'big', description: 'a long value' }\nreturn 'x'.repeat(30000)\n",
      runner,
    );
    const result = /<result>([\s\S]*)<\/result>/.exec(outcome.notification)?.[1] ?? "";
    // The JSON string is 30,002 characters (its quotes): 20,000 shown, 10,002 named.
    expect(result).toBe(
      `"${"x".repeat(19_999)}\n[… 10002 more characters; the whole result is in ${store.resultPath}]`,
    );
    expect(JSON.parse(readFileSync(store.resultPath, "utf8"))).toBe("x".repeat(30_000));
  });
});
