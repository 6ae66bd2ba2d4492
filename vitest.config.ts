import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/cli/global-setup.ts"],
    // With CI=true a skipped test outside test/allowed-skips.json fails the run (support/skip-policy.ts).
    reporters: ["default", "./support/skip-policy-reporter.ts"],
  },
});
