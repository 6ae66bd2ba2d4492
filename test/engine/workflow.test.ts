/**
 * The Workflow tool through the engine on the emulator over HTTP: a script's agents are subagents (counted in the
 * emulator's log), its returned value arrives in a `<task-notification>`, a resumed run replays cached agent()
 * calls positionally, a broken script is one precise line, TaskStop stops a run and its agents, at most 4 agents
 * run together, saved workflows load from `.claude/workflows` only in a trusted folder, plan mode refuses it, and
 * its schema is Claude Code 2.1.328's. Oracles: the emulator's logged requests, files on disk, literals.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EmulatorRequest, ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { createWorkflowTool } from "../../src/tools/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { eventually, isSubagent, lastToolResult, use } from "../../support/scripted-requests.js";

let harness: Harness | undefined;
const releases: Array<() => void> = [];
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await harness?.close();
  harness = undefined;
});

/** The subagent's task: the text of its first user message. */
function promptOf(request: EmulatorRequest): string {
  const content = request.messages[0]?.content;
  if (typeof content === "string") return content;
  return (content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

const runIdIn = (text: string) => /Run ID: (wf_[a-z0-9]+)/.exec(text)?.[1] ?? "";
const scriptPathIn = (text: string) => /Script saved at: (\S+)/.exec(text)?.[1] ?? "";

/** Waits until the background task `id` is no longer running. */
async function settled(id: string): Promise<boolean> {
  return eventually(() => harness!.engine.toolRuntime.background?.get(id)?.state !== "running", 20_000);
}

/**
 * A parent that calls Workflow with `input`, waits for the run to end, then makes one more request (which must
 * carry the notification); `answer` answers each subagent request.
 */
function workflowSession(
  input: Record<string, unknown>,
  answer: (prompt: string) => string | Promise<string>,
): { router: ScenarioStep; parent: EmulatorRequest[]; subagents: string[] } {
  const parent: EmulatorRequest[] = [];
  const subagents: string[] = [];
  const router: ScenarioStep = async (request) => {
    if (isSubagent(request)) {
      subagents.push(promptOf(request));
      return answer(promptOf(request));
    }
    parent.push(request);
    if (parent.length === 1) return use("Workflow", input);
    if (parent.length === 2) {
      const id = runIdIn(lastToolResult(request));
      if (id !== "") await settled(id);
      return use("Read", { file_path: "README.md" });
    }
    return "Done.";
  };
  return { router, parent, subagents };
}

const steps = (router: ScenarioStep, count = 40) => Array.from({ length: count }, () => router);
/** The last `<task-notification>` a request carries, as text. */
const notificationOf = (request: EmulatorRequest | undefined): string => {
  const text = JSON.stringify(request?.messages ?? []);
  const start = text.lastIndexOf("<task-notification>");
  return start < 0 ? "" : JSON.parse(`"${text.slice(start, text.indexOf("</task-notification>", start) + 20)}"`);
};

const REVIEW_SCRIPT = `export const meta = {
  name: 'review-changes',
  description: 'Review two dimensions, verify each finding',
  phases: [{ title: 'Review' }, { title: 'Verify' }],
}
const FINDINGS = { type: 'object', required: ['findings'], properties: { findings: { type: 'array' } } }
const results = await pipeline(
  args.dimensions,
  d => agent('review ' + d, { label: 'review:' + d, phase: 'Review', schema: FINDINGS }),
  review => parallel(review.findings.map(f => () =>
    agent('verify ' + f, { label: 'verify:' + f, phase: 'Verify' }).then(v => ({ finding: f, verdict: v }))
  ))
)
return { confirmed: results.flat() }
`;

describe("Workflow", () => {
  // Mutations caught: workflow-schema-no-retry (a bad JSON answer fails the agent at once),
  // workflow-notification-no-result (the value is not in the notification).
  it("runs a pipeline + parallel + schema script as subagents; the notification carries its returned value", async () => {
    const session = workflowSession({ script: REVIEW_SCRIPT, args: { dimensions: ["bugs", "perf"] } }, (prompt) => {
      if (prompt.startsWith("review bugs")) return '{"findings": ["b1", "b2"]}';
      if (prompt.startsWith("review perf"))
        return prompt.includes("An earlier attempt") ? '```json\n{"findings": ["p1"]}\n```' : "Found one: p1.";
      return `real:${/^verify (\S+)/.exec(prompt)?.[1]}`;
    });
    harness = await startHarness({ scenario: steps(session.router) }, { workflow: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("use a workflow to review"))).reason).toBe("completed");

    const launch = lastToolResult(session.parent[1]!);
    expect(launch).toContain('Workflow "review-changes" launched in the background.');
    const id = runIdIn(launch);
    expect(id).toMatch(/^wf_[a-z0-9-]{6,}$/);
    expect(readFileSync(scriptPathIn(launch), "utf8")).toBe(REVIEW_SCRIPT);
    // 2 reviews + 1 retry of the answer that was not JSON + 3 verifications.
    expect(session.subagents.length).toBe(6);
    // A compatible server declares no structured outputs: the schema is asked for in the prompt only.
    expect(JSON.stringify(harness.emulator.requests.map((entry) => entry.body))).not.toContain("output_config");
    expect(session.subagents.filter((prompt) => prompt.includes("An earlier attempt")).length).toBe(1);
    expect(session.subagents.filter((prompt) => prompt.startsWith("review bugs"))[0]).toContain(
      '"required":["findings"]',
    );
    expect(session.subagents.filter((prompt) => prompt.startsWith("verify")).sort()).toEqual([
      "verify b1",
      "verify b2",
      "verify p1",
    ]);
    const notification = notificationOf(session.parent[2]);
    expect(notification).toContain(`<task-id>${id}</task-id>`);
    expect(notification).toContain("<status>completed</status>");
    expect(notification).toContain('<summary>Workflow "review-changes" completed (5 agents run, 0 from the cache');
    const result = /<result>([\s\S]*)<\/result>/.exec(notification)?.[1] ?? "";
    expect(JSON.parse(result)).toEqual({
      confirmed: [
        { finding: "b1", verdict: "real:b1" },
        { finding: "b2", verdict: "real:b2" },
        { finding: "p1", verdict: "real:p1" },
      ],
    });
  });

  // Mutation caught: workflow-structured-outputs-off (a server that declares structured outputs is not asked for them).
  it("where the server declares structured outputs, a schema agent's requests carry output_config.format", async () => {
    const schema = { type: "object", required: ["answer"], properties: { answer: { type: "string" } } };
    const session = workflowSession(
      {
        script: `export const meta = { name: 'structured', description: 'one schema agent, one plain' }
const shaped = await agent('shaped answer', { schema: ${JSON.stringify(schema)} })
const plain = await agent('plain answer')
return { shaped, plain }
`,
      },
      (prompt) => (prompt.startsWith("shaped") ? '{"answer": "42"}' : "forty-two"),
    );
    harness = await startHarness(
      { scenario: steps(session.router) },
      { workflow: true },
      {
        capabilities: { structuredOutputs: true },
      },
    );
    await collect(harness.engine.submitMessage("structured"));
    const bodies = harness.emulator.requests
      .filter((entry) => entry.path === "/v1/messages")
      .map((entry) => entry.body as EmulatorRequest & { output_config?: unknown });
    const subagentBodies = bodies.filter((body) => isSubagent(body));
    expect(subagentBodies.map((body) => body.output_config)).toEqual([
      { format: { type: "json_schema", schema } },
      undefined,
    ]);
    expect(bodies.filter((body) => !isSubagent(body)).every((body) => body.output_config === undefined)).toBe(true);
    expect(notificationOf(session.parent[2])).toContain('"shaped": {\n    "answer": "42"\n  }');
  });

  // Mutations caught: workflow-resume-ignores-cache (every call runs again), workflow-resume-past-mismatch (calls
  // after the changed one still come from the cache).
  it("resumeFromRunId replays agent() calls up to the first changed one; that one and every later one run again", async () => {
    const script = (second: string) => `export const meta = { name: 'three-steps', description: 'three in a row' }
const first = await agent('step one')
const second = await agent('${second}')
const third = await agent('step three')
return [first, second, third]
`;
    const parent: EmulatorRequest[] = [];
    const subagents: string[] = [];
    let firstId = "";
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        subagents.push(promptOf(request));
        return `did: ${promptOf(request)}`;
      }
      parent.push(request);
      if (parent.length === 1) return use("Workflow", { script: script("step two") });
      if (parent.length === 2) {
        const launch = lastToolResult(request);
        firstId = runIdIn(launch);
        await settled(firstId);
        // The model edits the saved script (the second call changed) and runs it again from the file.
        writeFileSync(scriptPathIn(launch), script("step two, changed"));
        return use("Workflow", { scriptPath: scriptPathIn(launch), resumeFromRunId: firstId });
      }
      if (parent.length === 3) {
        await settled(runIdIn(lastToolResult(request)));
        return use("Read", { file_path: "README.md" });
      }
      return "Done.";
    };
    harness = await startHarness({ scenario: steps(router) }, { workflow: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("run it twice"))).reason).toBe("completed");
    expect(subagents.slice(0, 3)).toEqual(["step one", "step two", "step three"]);
    // The resumed run asked the model only for the changed call and the one after it.
    expect(subagents.slice(3)).toEqual(["step two, changed", "step three"]);
    const notification = notificationOf(parent[3]);
    expect(notification).toContain("(2 agents run, 1 from the cache of the resumed run)");
    expect(JSON.parse(/<result>([\s\S]*)<\/result>/.exec(notification)?.[1] ?? "")).toEqual([
      "did: step one",
      "did: step two, changed",
      "did: step three",
    ]);
  });

  // Mutation caught: workflow-error-no-line (the failure line does not say where in the script).
  it("a syntax error or a throw is one precise line; agent results finished before a throw are kept", async () => {
    const broken = `export const meta = { name: 'broken', description: 'does not parse' }
const a = 1
const b = ;
`;
    const first = workflowSession({ script: broken }, () => "never");
    harness = await startHarness({ scenario: steps(first.router) }, { workflow: true });
    await collect(harness.engine.submitMessage("run the broken one"));
    const syntax = notificationOf(first.parent[2]);
    expect(syntax).toContain("<status>failed</status>");
    expect(syntax).toContain("<summary>Workflow \"broken\" failed: SyntaxError: Unexpected token ';' (script line 3)");
    expect(first.subagents).toEqual([]);
    await harness.close();

    const throwing = `export const meta = { name: 'thrower', description: 'throws after one agent' }
const kept = await agent('collect facts', { label: 'facts' })
if (kept) {
  throw new Error('no verdict for ' + kept)
}
`;
    const second = workflowSession({ script: throwing }, () => "FACTS");
    harness = await startHarness({ scenario: steps(second.router) }, { workflow: true });
    await collect(harness.engine.submitMessage("run the throwing one"));
    const thrown = notificationOf(second.parent[2]);
    expect(thrown).toContain('<summary>Workflow "thrower" failed: no verdict for FACTS (script line 4)');
    const launch = lastToolResult(second.parent[1]!);
    const agents = JSON.parse(readFileSync(path.join(path.dirname(scriptPathIn(launch)), "agents.json"), "utf8"));
    expect(agents).toMatchObject([{ position: 0, label: "facts", status: "completed", result: "FACTS" }]);
  });

  it("a script without its meta line is refused at once; nothing runs", async () => {
    const session = workflowSession({ script: "const x = await agent('hi')\nreturn x\n" }, () => "never");
    harness = await startHarness({ scenario: steps(session.router) }, { workflow: true });
    await collect(harness.engine.submitMessage("run"));
    expect(lastToolResult(session.parent[1]!)).toBe(
      "Workflow script refused: a workflow script must begin with `export const meta = { name, description, phases }`; nothing was started.",
    );
    expect(session.subagents).toEqual([]);
  });

  // Mutations caught: workflow-stop-ignores-signal (the agents never see the stop: TaskStop waits on requests that
  // are never answered).
  it("TaskStop stops a running workflow and cancels its agents' requests", { timeout: 30_000 }, async () => {
    const held = new Promise<void>((resolve) => releases.push(resolve));
    let arrived = 0;
    let id = "";
    const parent: EmulatorRequest[] = [];
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        arrived++;
        await held; // answered only when the test ends: only cancellation ends these
        return "too late";
      }
      parent.push(request);
      if (parent.length === 1)
        return use("Workflow", {
          script: `export const meta = { name: 'slow-pair', description: 'two agents that wait' }
return await parallel([() => agent('wait one'), () => agent('wait two')])
`,
        });
      if (parent.length === 2) {
        id = runIdIn(lastToolResult(request));
        await eventually(() => arrived === 2);
        return use("ToolSearch", { query: "select:TaskStop" });
      }
      if (parent.length === 3) return use("TaskStop", { task_id: id });
      if (parent.length === 4) return use("Read", { file_path: "README.md" });
      return "Stopped.";
    };
    harness = await startHarness({ scenario: steps(router) }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("start and stop"))).reason).toBe("completed");
    expect(lastToolResult(parent[3]!)).toBe(`Successfully stopped task: ${id} (workflow slow-pair)`);
    expect(harness.engine.toolRuntime.background?.get(id)?.state).toBe("stopped");
    const subagentsFolder = harness.engine.transcriptPath!.replace(/\.jsonl$/, "/subagents");
    const sidechains = readdirSync(subagentsFolder).map((file) =>
      readFileSync(path.join(subagentsFolder, file), "utf8"),
    );
    expect(sidechains.length).toBe(2);
    for (const sidechain of sidechains) expect(sidechain).toContain("[Request interrupted by user]");
    expect(JSON.stringify(parent.at(-1)!.messages)).not.toContain("<task-notification>");
  });

  // Mutations caught: workflow-concurrency-unbounded (all 6 at once), workflow-concurrency-serial (one at a time).
  it("parallel() runs at most 4 subagents at once", async () => {
    let inFlight = 0;
    let most = 0;
    const session = workflowSession(
      {
        script: `export const meta = { name: 'fan-out', description: 'six at once' }
return await parallel([1, 2, 3, 4, 5, 6].map(n => () => agent('part ' + n)))
`,
      },
      async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Long enough that all the agents allowed to start have started while this one is held.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        inFlight--;
        return "ok";
      },
    );
    harness = await startHarness({ scenario: steps(session.router) }, { workflow: true });
    await collect(harness.engine.submitMessage("fan out"));
    expect(session.subagents.length).toBe(6);
    expect(most).toBe(4);
    expect(notificationOf(session.parent[2])).toContain("<status>completed</status>");
  });

  const SAVED = `export const meta = { name: 'saved-one', description: 'a saved workflow' }
return await agent('saved task for ' + args.topic)
`;

  // Mutation caught: workflow-untrusted-project-loaded (the project's workflow runs in an untrusted folder).
  it("name loads .claude/workflows/<name>.js in a trusted folder and is refused in an untrusted one", async () => {
    const trusted = workflowSession({ name: "saved-one", args: { topic: "caching" } }, () => "saved done");
    harness = await startHarness({ scenario: steps(trusted.router) }, { workflow: true, projectCodeTrusted: true });
    mkdirSync(path.join(harness.workspace, ".claude", "workflows"), { recursive: true });
    writeFileSync(path.join(harness.workspace, ".claude", "workflows", "saved-one.js"), SAVED);
    await collect(harness.engine.submitMessage("run saved-one"));
    expect(trusted.subagents).toEqual(["saved task for caching"]);
    expect(notificationOf(trusted.parent[2])).toContain('<result>"saved done"</result>');
    await harness.close();

    const untrusted = workflowSession({ name: "saved-one", args: { topic: "caching" } }, () => "never");
    harness = await startHarness({ scenario: steps(untrusted.router) }, { workflow: true, projectCodeTrusted: false });
    const file = path.join(harness.workspace, ".claude", "workflows", "saved-one.js");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, SAVED);
    await collect(harness.engine.submitMessage("run saved-one"));
    expect(lastToolResult(untrusted.parent[1]!)).toBe(
      `The project's workflow "saved-one" (${file}) is project code and this folder is not trusted; nothing was started. Trust the folder (--trust-folder, or accept the trust question) to run it.`,
    );
    expect(untrusted.subagents).toEqual([]);
  });

  it("an unknown name lists the saved workflows", async () => {
    const session = workflowSession({ name: "nope" }, () => "never");
    harness = await startHarness({ scenario: steps(session.router) }, { workflow: true });
    mkdirSync(path.join(harness.workspace, ".claude", "workflows"), { recursive: true });
    writeFileSync(path.join(harness.workspace, ".claude", "workflows", "saved-one.js"), SAVED);
    await collect(harness.engine.submitMessage("run nope"));
    expect(lastToolResult(session.parent[1]!)).toBe(
      'No workflow named "nope" in .claude/workflows or ~/.claude/workflows; nothing was started. Available: saved-one.',
    );
  });

  // Mutation caught: workflow-read-only (the tool claims to be read-only, so plan mode lets it run).
  it("plan mode refuses Workflow: no subagent runs", async () => {
    const session = workflowSession({ script: REVIEW_SCRIPT, args: { dimensions: ["bugs"] } }, () => "never");
    harness = await startHarness({ scenario: steps(session.router) }, { workflow: true, permission: { mode: "plan" } });
    await collect(harness.engine.submitMessage("plan it"));
    expect(lastToolResult(session.parent[1]!)).toContain("Plan mode:");
    expect(session.subagents).toEqual([]);
  });

  it("is in the tools block (not deferred) of a Claude Code tool-set session; a subagent's tools leave it out", async () => {
    const session = workflowSession(
      { script: "export const meta = { name: 'one', description: 'd' }\nreturn await agent('x')\n" },
      () => "x",
    );
    harness = await startHarness({ scenario: steps(session.router) }, { deferredTools: true });
    await collect(harness.engine.submitMessage("go"));
    const names = (request: EmulatorRequest | undefined) =>
      (request?.tools ?? []).map((tool) => (tool as { name: string }).name);
    expect(names(session.parent[0])).toContain("Workflow");
    expect(names(session.parent[0])).toContain("Agent");
    const subagentRequest = harness.emulator.requests
      .map((entry) => entry.body as EmulatorRequest)
      .find((body) => body !== undefined && isSubagent(body));
    expect(subagentRequest).toBeDefined();
    expect(names(subagentRequest)).not.toContain("Workflow");
  });

  it("has Claude Code 2.1.328's input schema, from the recorded fixture", () => {
    const fixture = JSON.parse(readFileSync("test/fixtures/claude-code-tools.json", "utf8")) as {
      tools: Array<{ name: string; input_schema: unknown }>;
    };
    const theirs = fixture.tools.find((tool) => tool.name === "Workflow")?.input_schema;
    const tool = createWorkflowTool({
      run: async () => {
        throw new Error("not run");
      },
      sessionDirectory: () => undefined,
      cwd: ".",
      userHome: ".",
      projectCodeTrusted: true,
    });
    expect(z.toJSONSchema(tool.inputSchema)).toEqual(theirs);
  });
});
