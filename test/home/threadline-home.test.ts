/**
 * One home rule: transcripts (the session manager), settings files and memory places all take threadline's home
 * from `home/threadline-home.ts`, so they move together. The oracle is the literal folder for an environment.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { userPlaces } from "../../src/engine/memory-setup.js";
import { sessionPlace } from "../../src/sessions/index.js";
import { settingsLocations } from "../../src/settings/index.js";

describe("threadline's home", () => {
  // Guards: the settings loader and the session manager agree on the home for one environment (they once had
  // different fallbacks: `$HOME` for settings, the OS's home for transcripts). Mutation caught: the rule
  // falling back to `os.homedir()` while `HOME` is set (the sessions' folder then leaves /u/.threadline).
  it("$HOME/.threadline when THREADLINE_HOME is unset, for transcripts, settings and memory alike", () => {
    const env = { HOME: "/u" };
    expect(sessionPlace({ cwd: "/work/repo", env }).folder).toBe("/u/.threadline/projects/-work-repo");
    expect(settingsLocations("/work/repo", env).map((location) => location.path)).toContain(
      join("/u/.threadline", "settings.json"),
    );
    expect(userPlaces("/work/repo", undefined, env).threadlineHome).toBe("/u/.threadline");
  });

  it("$THREADLINE_HOME when set, for all three", () => {
    const env = { HOME: "/u", THREADLINE_HOME: "/t" };
    expect(sessionPlace({ cwd: "/w", env }).folder).toBe("/t/projects/-w");
    expect(settingsLocations("/w", env).map((location) => location.path)).toContain(join("/t", "settings.json"));
    expect(userPlaces("/w", undefined, env).threadlineHome).toBe("/t");
  });
});
