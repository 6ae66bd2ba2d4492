import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Every test runs with an empty home of its own: the machine user's ~/.claude (CLAUDE.md, skills, commands,
// settings, hooks) must never change what a test sends. A test that needs a user file lays out its own HOME.
const EMPTY_HOME = mkdtempSync(join(tmpdir(), "threadline-test-home-"));

export default defineConfig({
  // The emulator workspace package from this checkout's own sources (not through node_modules' link, which in a
  // mutation-check copy would lead back to the original checkout: scripts/mutation-check.mjs).
  resolve: {
    alias: {
      "@threadline/emulator": join(dirname(fileURLToPath(import.meta.url)), "packages/emulator/src/index.ts"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The suite's scenarios were written against claude-sonnet-4-6 (200K window, 8,192 max_tokens): engines that
    // name no model keep it, whatever DEFAULT_MODEL is (issue 55 moved the default to claude-opus-5-5). A test about
    // the default itself removes ANTHROPIC_MODEL from the environment it passes.
    env: { HOME: EMPTY_HOME, ANTHROPIC_MODEL: "claude-sonnet-4-6" },
    globalSetup: ["test/cli/global-setup.ts"],
    // With CI=true a skipped test outside test/allowed-skips.json fails the run (support/skip-policy.ts).
    reporters: ["default", "./support/skip-policy-reporter.ts"],
  },
});
