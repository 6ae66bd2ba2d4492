import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// Every test runs with an empty home of its own: the machine user's ~/.claude (CLAUDE.md, skills, commands,
// settings, hooks) must never change what a test sends. A test that needs a user file lays out its own HOME.
const EMPTY_HOME = mkdtempSync(join(tmpdir(), "threadline-test-home-"));

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    env: { HOME: EMPTY_HOME },
    globalSetup: ["test/cli/global-setup.ts"],
    // With CI=true a skipped test outside test/allowed-skips.json fails the run (support/skip-policy.ts).
    reporters: ["default", "./support/skip-policy-reporter.ts"],
  },
});
