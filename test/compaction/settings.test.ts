import { describe, expect, it } from "vitest";
import {
  compactionSettingsFromEnv,
  DEFAULT_COMPACTION_SETTINGS,
  DEFAULT_KEEP_RECENT,
  DEFAULT_TIME_BASED_GAP_MS,
  effectiveBatchKeepRecent,
} from "../../src/compaction/index.js";

describe("compaction settings", () => {
  it("defaults: microcompact and autocompact on, snip and collapse off, cache edits auto, 60 min gap, keep 5", () => {
    expect(compactionSettingsFromEnv({})).toEqual(DEFAULT_COMPACTION_SETTINGS);
    expect(DEFAULT_COMPACTION_SETTINGS).toMatchObject({
      snip: false,
      microcompact: true,
      collapse: false,
      autocompact: true,
      serverClearToolUses: false,
    });
    expect(DEFAULT_COMPACTION_SETTINGS.cacheEdits).toBe("auto");
    expect(DEFAULT_TIME_BASED_GAP_MS).toBe(3_600_000);
    expect(DEFAULT_KEEP_RECENT).toBe(5);
  });

  it("reads THREADLINE_CACHE_EDITS and the tier switches", () => {
    const settings = compactionSettingsFromEnv({
      THREADLINE_CACHE_EDITS: "OFF",
      THREADLINE_DISABLE_SNIP: "1",
      DISABLE_MICROCOMPACT: "true",
      DISABLE_AUTO_COMPACT: "1",
      THREADLINE_ENABLE_COLLAPSE: "1",
      THREADLINE_DISABLE_COLLAPSE: "0",
    });
    expect(settings).toMatchObject({
      cacheEdits: "off",
      snip: false,
      microcompact: false,
      autocompact: false,
      collapse: true,
    });
  });

  it("turns snip and collapse on with THREADLINE_ENABLE_*; a DISABLE beside it wins", () => {
    expect(compactionSettingsFromEnv({ THREADLINE_ENABLE_SNIP: "yes" })).toMatchObject({ snip: true, collapse: false });
    expect(
      compactionSettingsFromEnv({ THREADLINE_ENABLE_COLLAPSE: "1", THREADLINE_DISABLE_COLLAPSE: "1" }).collapse,
    ).toBe(false);
    expect(compactionSettingsFromEnv({}, { snip: true }).snip).toBe(true);
  });

  it("rejects an unknown THREADLINE_CACHE_EDITS value", () => {
    expect(() => compactionSettingsFromEnv({ THREADLINE_CACHE_EDITS: "sometimes" })).toThrow(/auto\|on\|off/);
  });

  it("lets overrides win and never keeps fewer than 5 results (3 for public-path batches)", () => {
    const settings = compactionSettingsFromEnv(
      { THREADLINE_CACHE_EDITS: "off" },
      { cacheEdits: "on", keepRecentToolResults: 2 },
    );
    expect(settings.cacheEdits).toBe("on");
    expect(settings.keepRecentToolResults).toBe(5);
    expect(effectiveBatchKeepRecent({ batchKeepRecentToolResults: 1 })).toBe(3);
    expect(compactionSettingsFromEnv({}, { keepRecentToolResults: 9 }).keepRecentToolResults).toBe(9);
  });
});
