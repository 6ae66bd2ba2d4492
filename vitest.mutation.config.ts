/**
 * The vitest config Stryker runs (stryker.config.json, docs/MUTATION-TESTING.md). It is vitest.config.ts
 * without what cannot reach a mutant: the end-to-end tests spawn bin/threadline, which runs dist/ (compiled
 * before Stryker instruments src/, so no mutant is ever in it), so they are left out, and with them the global
 * setup that builds dist/ for them; the skip-policy reporter is CI's whole-suite rule, not a mutation run's.
 */
import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * The tests Stryker may run, by folder and name (a test that moves within its folder stays in). Only these are
 * run, and of them only the ones that import a mutated file (vitest's related mode): a run over one module
 * then takes its dry run in seconds, not the whole suite's minutes. A guard module's test goes here.
 */
export const MUTATION_TESTS = [
  "test/trust/**/trust-store.test.ts",
  "test/trust/**/trust-gate.test.ts",
  "test/trust/**/untrusted-table.test.ts",
  "test/trust/**/config-confinement.test.ts",
  "test/checkpoints/**/checkpoints.test.ts",
  "test/reliability/**/checkpoint-disk.test.ts",
  "test/checkpoints/**/checkpoint-failure.test.ts",
  "test/hooks/**/hook-decision.test.ts",
  "test/tools/**/workspace-paths.test.ts",
  "test/tools/**/permission-path-rules.test.ts",
  "test/tools/**/folder-rules.test.ts",
  "test/tools/**/settings-permission-rules.test.ts",
  "test/tools/**/permissions.test.ts",
  "test/transcript/**/session-lock-takeover.test.ts",
];

const { globalSetup: _globalSetup, reporters: _reporters, ...test } = base.test ?? {};

export default mergeConfig(
  { ...base, test: {} },
  defineConfig({
    test: {
      ...test,
      include: MUTATION_TESTS,
      exclude: ["**/node_modules/**", "**/*.e2e.test.ts", "test/architecture/**"],
    },
  }),
);
