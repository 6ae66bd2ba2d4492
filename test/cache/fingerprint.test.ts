import { describe, expect, it } from "vitest";
import { changedDimensions, type Fingerprint, fingerprintRequest } from "../../src/cache/index.js";
import { BASH_TOOL, makeRequest, READ_TOOL, SYSTEM } from "./request-fixture.js";

function changed(before: Fingerprint, after: Fingerprint): string[] {
  return changedDimensions(before, after);
}

describe("fingerprintRequest", () => {
  const base = fingerprintRequest(makeRequest({}, ["b-one", "a-two"]));

  it("is stable for the same request and ignores the growing message tail", () => {
    const again = fingerprintRequest(
      makeRequest({ messages: [{ role: "user", content: "a different turn" }] }, ["b-one", "a-two"]),
    );
    expect(again).toEqual(base);
  });

  it("a system text change moves only the system dimension", () => {
    const edited = [SYSTEM[0]!, { ...SYSTEM[1]!, text: "Environment: linux\nCwd: /elsewhere" }];
    const after = fingerprintRequest(makeRequest({ system: edited }, ["b-one", "a-two"]));
    expect(changed(base, after)).toEqual(["system"]);
  });

  it("moving cache_control moves only the layout dimension", () => {
    const moved = [
      { ...SYSTEM[0]!, cache_control: { type: "ephemeral" as const } },
      { type: "text" as const, text: SYSTEM[1]!.text },
    ];
    const after = fingerprintRequest(makeRequest({ system: moved }, ["b-one", "a-two"]));
    expect(changed(base, after)).toEqual(["cacheLayout"]);
  });

  it("one tool's description moves tools and that tool's hash only", () => {
    const read = { ...READ_TOOL, description: "Reads any file." };
    const after = fingerprintRequest(makeRequest({ tools: [read, BASH_TOOL] }, ["b-one", "a-two"]));
    expect(changed(base, after)).toEqual(["tools"]);
    expect(after.perTool.Read).not.toBe(base.perTool.Read);
    expect(after.perTool.Bash).toBe(base.perTool.Bash);
  });

  it("beta order and duplicates are irrelevant, a new beta is not", () => {
    expect(fingerprintRequest(makeRequest({}, ["a-two", "b-one", "a-two"]))).toEqual(base);
    const after = fingerprintRequest(makeRequest({}, ["a-two", "b-one", "c-three"]));
    expect(changed(base, after)).toEqual(["betas"]);
  });

  it("model, thinking and extra body fields are separate dimensions", () => {
    const model = fingerprintRequest(makeRequest({ model: "claude-opus-4-5" }, ["b-one", "a-two"]));
    expect(changed(base, model)).toEqual(["model"]);
    const thinking = fingerprintRequest(
      makeRequest({ thinking: { type: "enabled", budget_tokens: 2048 } }, ["b-one", "a-two"]),
    );
    expect(changed(base, thinking)).toEqual(["thinking"]);
    const choice = fingerprintRequest(makeRequest({ tool_choice: { type: "any" } }, ["b-one", "a-two"]));
    expect(changed(base, choice)).toEqual(["extraBody"]);
  });

  it("a tool's cache_control is layout, not tools", () => {
    const marked = { ...BASH_TOOL, cache_control: { type: "ephemeral" as const } };
    const after = fingerprintRequest(makeRequest({ tools: [READ_TOOL, marked] }, ["b-one", "a-two"]));
    expect(changed(base, after)).toEqual(["cacheLayout"]);
  });
});
