import { describe, expect, it } from "vitest";
import { contextManagementTrigger, runCompactionTiers } from "../../src/compaction/index.js";
import { apiViewWithErrors } from "../../src/timeline/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";
import { compactionInput, PUBLIC_API_CAPABILITIES, thresholdsAt } from "./compaction-input.js";

describe("microcompact, public context_management path", () => {
  it("sends clear_tool_uses_20250919 with trigger, keep, clear_at_least and exclude_tools", async () => {
    const builder = new TimelineBuilder();
    builder.user("Hello.");
    builder.round("Read", "text");
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: PUBLIC_API_CAPABILITIES,
        settings: { serverClearToolUses: true },
        toolNames: ["Read", "Bash", "Agent", "Snip", "TodoWrite"],
      }),
    );
    expect(output.contextManagement).toEqual({
      edits: [
        {
          type: "clear_tool_uses_20250919",
          trigger: { type: "input_tokens", value: 100_000 },
          keep: { type: "tool_uses", value: 5 },
          clear_at_least: { type: "input_tokens", value: 2_000 },
          exclude_tools: ["Agent", "Snip", "Task", "TodoWrite"],
        },
      ],
    });
    expect(output.cacheEditing).toBe(false);
    expect(output.newCacheEdits).toEqual([]);
    expect(output.records).toEqual([]);
    expect(JSON.stringify(output.messages)).toBe(JSON.stringify(apiViewWithErrors(builder.entries)));
  });

  it("is byte-stable from turn to turn", async () => {
    const builder = new TimelineBuilder();
    builder.user("Hello.");
    builder.round("Read", "text");
    const first = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: PUBLIC_API_CAPABILITIES,
        settings: { serverClearToolUses: true },
      }),
    );
    builder.round("Bash", "more");
    const second = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: PUBLIC_API_CAPABILITIES,
        settings: { serverClearToolUses: true },
      }),
    );
    expect(JSON.stringify(second.contextManagement)).toBe(JSON.stringify(first.contextManagement));
  });

  it("moves the trigger below autocompact for small windows", () => {
    // 50K window: effective 40,000 (the output reserve is 20 % of a small window), autocompact 36,750
    // (its buffer 6.5 % of the window), trigger 75% of that.
    expect(contextManagementTrigger(100_000, thresholdsAt(50_000))).toBe(27_562);
    expect(contextManagementTrigger(100_000, thresholdsAt(200_000))).toBe(100_000);
    // The server compares the trigger with its own count: at ×4 on 200K the cap is 75 % of the server's
    // autocompact threshold (167,000 → 125,250), above the setting, so the setting is sent as it is.
    expect(contextManagementTrigger(100_000, thresholdsAt(200_000, 4))).toBe(100_000);
    expect(contextManagementTrigger(200_000, thresholdsAt(200_000, 4))).toBe(125_250);
  });

  it("sends no server edit by default: the public path clears client-side", async () => {
    const builder = new TimelineBuilder();
    builder.user("Hello.");
    builder.round("Read", "text");
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, { capabilities: PUBLIC_API_CAPABILITIES }),
    );
    expect(output.contextManagement).toBeUndefined();
  });

  it("sends nothing to a provider with neither extension", async () => {
    const builder = new TimelineBuilder();
    builder.user("Hello.");
    const output = await runCompactionTiers(compactionInput(builder.entries, builder.clock));
    expect(output.contextManagement).toBeUndefined();
    expect(output.cacheEditing).toBe(false);
  });
});
