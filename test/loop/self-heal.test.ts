import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { capabilitiesWithout, decideSelfHeal, featuresOfInput } from "../../src/loop/recovery/self-heal.js";
import { ProviderError, type UnsupportedInput } from "../../src/provider/index.js";
import {
  type AssembledRequest,
  CACHE_EDITING_BETA,
  CONTEXT_MANAGEMENT_BETA,
  type RequestSettings,
  type ServerFeature,
  withoutServerFeatures,
} from "../../src/request/index.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

function request(body: Partial<AssembledRequest["body"]>, betas: string[] = [], json?: string): AssembledRequest {
  const full = { model: "m", max_tokens: 10, messages: [], ...body };
  return { body: full, betas, json: json ?? JSON.stringify(full) };
}

function refused(unsupported: UnsupportedInput): ProviderError {
  return new ProviderError("unsupported_input", "400 invalid_request_error: refused", { status: 400, unsupported });
}

/** Each self-healed field: the refusal, a request that used it, and the feature switched off. */
const HEALED: ReadonlyArray<readonly [string, UnsupportedInput, AssembledRequest, ServerFeature]> = [
  [
    "cache_reference on a tool_result",
    { kind: "field", path: "messages.2.content.0.cache_reference" },
    request({}, [CACHE_EDITING_BETA], '{"messages":[{"content":[{"cache_reference":"toolu_1"}]}]}'),
    "cache_editing",
  ],
  [
    "a cache_edits block",
    { kind: "block_type", type: "cache_edits", path: "messages.4.content.1" },
    request({}, [], '{"messages":[{"content":[{"type":"cache_edits"}]}]}'),
    "cache_editing",
  ],
  [
    "the cache-editing beta",
    { kind: "beta", names: [CACHE_EDITING_BETA] },
    request({}, [CACHE_EDITING_BETA]),
    "cache_editing",
  ],
  [
    "context_management",
    { kind: "field", path: "context_management" },
    request({ context_management: { edits: [] } }, [CONTEXT_MANAGEMENT_BETA]),
    "context_management",
  ],
  [
    "the context-management beta",
    { kind: "beta", names: [CONTEXT_MANAGEMENT_BETA] },
    request({}, [CONTEXT_MANAGEMENT_BETA]),
    "context_management",
  ],
  ["thinking", { kind: "field", path: "thinking" }, request({ thinking: { type: "adaptive" } }), "thinking"],
  ["metadata", { kind: "field", path: "metadata" }, request({ metadata: { user_id: "u" } }), "metadata"],
  ["tool_choice", { kind: "field", path: "tool_choice" }, request({ tool_choice: { type: "auto" } }), "tool_choice"],
  [
    "an unknown beta",
    { kind: "beta", names: ["fancy-2099-01-01"] },
    request({}, ["fancy-2099-01-01"]),
    "beta:fancy-2099-01-01",
  ],
];

describe("self-healing decisions", () => {
  it.each(HEALED)("%s switches its feature off", (_name, input, sent, feature) => {
    const decision = decideSelfHeal(refused(input), sent, new Set());
    expect(decision?.features).toEqual([feature]);
    expect(decision?.notice.split("\n")).toHaveLength(1);
    // Once off, the same refusal is never healed again: no loop.
    expect(decideSelfHeal(refused(input), sent, new Set([feature]))).toBeUndefined();
  });

  it("a refusal of something the request did not send is not healed", () => {
    expect(decideSelfHeal(refused({ kind: "field", path: "thinking" }), request({}), new Set())).toBeUndefined();
  });

  it("a required field or a block path is never dropped", () => {
    expect(featuresOfInput({ kind: "field", path: "max_tokens" })).toEqual([]);
    expect(featuresOfInput({ kind: "field", path: "messages.0.content.0.text" })).toEqual([]);
  });

  it("settings without each feature leave it out and never send its beta", () => {
    const settings: RequestSettings = {
      model: "m",
      systemPrompt: [],
      tools: [],
      cacheEditing: true,
      contextManagement: { edits: [] },
      thinking: { type: "adaptive" },
      metadata: { user_id: "u" },
      cacheTtl: "1h",
    };
    const off = withoutServerFeatures(
      settings,
      new Set<ServerFeature>(["cache_editing", "context_management", "thinking", "metadata", "cache_ttl_1h"]),
    );
    expect(off.cacheEditing).toBe(false);
    expect(off.contextManagement).toBeUndefined();
    expect(off.thinking).toBeUndefined();
    expect(off.metadata).toBeUndefined();
    expect(off.cacheTtl).toBe("5m");
    expect(off.omitBetas).toContain(CACHE_EDITING_BETA);
    expect(withoutServerFeatures(settings, new Set())).toBe(settings);
    expect(capabilitiesWithout({ cacheEdits: true, contextManagement: true }, new Set(["cache_editing"]))).toEqual({
      cacheEdits: false,
      contextManagement: true,
    });
  });
});

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

describe("a server declared to edit the cache that refuses it (the public API on loopback)", () => {
  it("heals once, finishes the session, records the switch, and a resume agrees", async () => {
    const steps = 12;
    // Declared, not announced: THREADLINE_SERVER_PROFILE=emulator pointed at a server with the public contract.
    const declared = { profile: "emulator" };
    const harness = await startHarness(
      { scenario: readEachFileScenario(sourceFileNames(steps)), cacheEditing: false },
      { model: "claude-sonnet-4-6", contextWindow: 40_000 },
      declared,
    );
    harnesses.push(harness);
    await writeSourceFiles(harness.workspace, steps, 6_000);
    const events = await collect(harness.engine.submitMessage("Read every module, one at a time."));
    expect(turnEnd(events).reason).toBe("completed");
    const notices = events.filter((event) => event.type === "notice" && /does not accept/.test(event.message));
    expect(notices).toHaveLength(1);
    const rejected = harness.emulator.requests.filter(
      (record) => record.path === "/v1/messages" && record.status === 400,
    );
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.error?.message).toMatch(/cache_reference|cache_edits/);
    const after = harness.emulator.requests.filter(
      (record) => (record.messagesRequest ?? 0) > (rejected[0]?.messagesRequest ?? 0),
    );
    for (const record of after) {
      const json = JSON.stringify(record.body);
      expect(json).not.toContain("cache_reference");
      expect(json).not.toContain("cache_edits");
    }
    const records = harness.engine.timeline.entries.filter((entry) => entry.type === "feature-off");
    expect(records.map((entry) => (entry.type === "feature-off" ? entry.feature : ""))).toEqual(["cache_editing"]);

    await harness.engine.close();
    const resumed = await QueryEngine.resume(harness.engine.transcriptPath ?? "", {
      cwd: harness.workspace,
      home: harness.home,
      provider: fastProvider(harness.emulator.url, declared),
      permission: { mode: "bypassPermissions" },
      contextWindow: 40_000,
    });
    const before = harness.emulator.requests.length;
    const more = await collect(resumed.engine.submitMessage("And a summary, please."));
    await resumed.engine.close();
    expect(turnEnd(more).reason).toBe("completed");
    for (const record of harness.emulator.requests.slice(before)) {
      expect(record.status).toBe(200);
      expect(JSON.stringify(record.body)).not.toContain("cache_reference");
    }
  });
});
