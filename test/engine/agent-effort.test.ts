/**
 * Agent `effort` through the engine on the emulator over HTTP: a level the server declares for the subagent's
 * model (GET /v1/models/{id} `capabilities.effort`) is sent as `output_config.effort` on that subagent's requests
 * only; one it does not declare is dropped (never sent for the server to reject) and the tool result says so once;
 * a session that asks for no effort asks the Models API nothing. Oracles: the emulator's request log (bodies and
 * paths), literal lines, and the emulator's own effort table (claude-sonnet-4-6 takes low/medium/high/max, no
 * xhigh; claude-sonnet-4-5 takes none).
 */
import type { EmulatorRequest, ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { isSubagent, lastToolResult, use } from "../../support/scripted-requests.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

interface Seen {
  parent: EmulatorRequest[];
  subagent: EmulatorRequest[];
}

/** The parent calls Agent with `input` once (foreground), then ends; the subagent answers twice via a Glob. */
function scripted(input: Record<string, unknown>): { router: ScenarioStep; seen: Seen } {
  const seen: Seen = { parent: [], subagent: [] };
  const router: ScenarioStep = (request) => {
    if (isSubagent(request)) {
      seen.subagent.push(request);
      return seen.subagent.length === 1 ? use("Glob", { pattern: "*.md" }) : "EFFORT DONE";
    }
    seen.parent.push(request);
    return seen.parent.length === 1 ? use("Agent", input) : "Done.";
  };
  return { router, seen };
}

const outputConfig = (request: EmulatorRequest) => (request as { output_config?: unknown }).output_config;
const modelLookups = (harness: Harness) =>
  harness.emulator.requests.filter((entry) => entry.method === "GET" && entry.path.startsWith("/v1/models/"));

describe("Agent effort", () => {
  // Mutations caught: agent-effort-not-sent (the declared level never reaches the subagent's requests),
  // agent-effort-parent-too (the parent's requests carry the subagent's effort).
  it("a declared level is output_config.effort on each of the subagent's requests, never the parent's", async () => {
    const { router, seen } = scripted({ description: "Think hard", prompt: "look", effort: "high" });
    harness = await startHarness({ scenario: Array.from({ length: 6 }, () => router) });
    expect(turnEnd(await collect(harness.engine.submitMessage("delegate"))).reason).toBe("completed");
    expect(seen.subagent).toHaveLength(2);
    expect(seen.subagent[0]!.model).toBe("claude-sonnet-4-6");
    for (const request of seen.subagent) expect(outputConfig(request)).toEqual({ effort: "high" });
    for (const request of seen.parent) expect(outputConfig(request)).toBeUndefined();
    expect(lastToolResult(seen.parent[1]!)).toBe("EFFORT DONE");
    expect(modelLookups(harness).map((entry) => entry.path)).toEqual(["/v1/models/claude-sonnet-4-6"]);
  });

  // Mutation caught: agent-effort-unchecked (a level the model does not declare is sent; the emulator rejects it).
  it("a level the model does not declare is dropped, and the result says so once", async () => {
    const { router, seen } = scripted({ description: "Think harder", prompt: "look", effort: "xhigh" });
    harness = await startHarness({ scenario: Array.from({ length: 6 }, () => router) });
    expect(turnEnd(await collect(harness.engine.submitMessage("delegate"))).reason).toBe("completed");
    expect(seen.subagent).toHaveLength(2);
    for (const request of seen.subagent) expect(outputConfig(request)).toBeUndefined();
    expect(lastToolResult(seen.parent[1]!)).toBe(
      'EFFORT DONE\n\neffort "xhigh" was not sent: claude-sonnet-4-6 runs at its usual effort (the server declares only low, medium, high, max for it).',
    );
  });

  it("a model that declares no effort: dropped, named in the line", async () => {
    const { router, seen } = scripted({ description: "Think", prompt: "look", effort: "low" });
    harness = await startHarness({ scenario: Array.from({ length: 6 }, () => router) }, { model: "claude-sonnet-4-5" });
    expect(turnEnd(await collect(harness.engine.submitMessage("delegate"))).reason).toBe("completed");
    for (const request of seen.subagent) expect(outputConfig(request)).toBeUndefined();
    expect(lastToolResult(seen.parent[1]!)).toContain(
      'effort "low" was not sent: claude-sonnet-4-5 runs at its usual effort (the server declares no effort levels for it).',
    );
  });

  // Mutation caught: agent-effort-always-asks (the Models API is asked without any effort wanted).
  it("without effort nothing is asked of the Models API and no output_config is sent", async () => {
    const { router, seen } = scripted({ description: "Plain", prompt: "look" });
    harness = await startHarness({ scenario: Array.from({ length: 6 }, () => router) });
    expect(turnEnd(await collect(harness.engine.submitMessage("delegate"))).reason).toBe("completed");
    expect(modelLookups(harness)).toEqual([]);
    for (const request of [...seen.parent, ...seen.subagent]) expect(outputConfig(request)).toBeUndefined();
  });
});

describe("session effort (--effort, settings effortLevel)", () => {
  // Mutation caught: session-effort-not-set (the session's effort never reaches its requests).
  it("a declared level is on the session's requests and on a subagent on the same model, not on another model", async () => {
    const seen: Seen = { parent: [], subagent: [] };
    const router: ScenarioStep = (request) => {
      if (isSubagent(request)) {
        seen.subagent.push(request);
        return "SUB DONE";
      }
      seen.parent.push(request);
      if (seen.parent.length === 1) return use("Agent", { description: "Same model", prompt: "look" });
      if (seen.parent.length === 2) return use("Agent", { description: "Other model", prompt: "look", model: "haiku" });
      return "Done.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 8 }, () => router) }, { effort: "max" });
    const events = await collect(harness.engine.submitMessage("delegate twice"));
    expect(turnEnd(events).reason).toBe("completed");
    expect(seen.parent).toHaveLength(3);
    for (const request of seen.parent) expect(outputConfig(request)).toEqual({ effort: "max" });
    expect(seen.subagent.map((request) => [request.model, outputConfig(request)])).toEqual([
      ["claude-sonnet-4-6", { effort: "max" }],
      ["claude-haiku-5-5", undefined],
    ]);
    expect(events.filter((event) => event.type === "notice" && event.message.startsWith("effort"))).toEqual([]);
  });

  // Mutation caught: session-effort-notice-repeated (the dropped level is said at every turn, not once).
  it("an undeclared level is dropped; one warning says so, once per model", async () => {
    harness = await startHarness({ scenario: ["One.", "Two."] }, { effort: "xhigh" });
    const first = await collect(harness.engine.submitMessage("one"));
    const second = await collect(harness.engine.submitMessage("two"));
    const notices = [...first, ...second].filter((event) => event.type === "notice" && event.level === "warning");
    expect(notices.map((event) => (event.type === "notice" ? event.message : ""))).toEqual([
      'effort "xhigh" was not sent: claude-sonnet-4-6 runs at its usual effort (the server declares only low, medium, high, max for it).',
    ]);
    const bodies = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    expect(bodies).toHaveLength(2);
    for (const entry of bodies) expect((entry.body as { output_config?: unknown }).output_config).toBeUndefined();
    expect(modelLookups(harness)).toHaveLength(1);
  });
});
