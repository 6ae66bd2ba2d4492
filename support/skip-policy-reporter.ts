/**
 * A vitest reporter that applies support/skip-policy.ts: with `CI=true`, every skipped test whose file is
 * not in test/allowed-skips.json is printed on its own line and the run fails. Outside CI it prints nothing
 * (a laptop without bubblewrap or Chromium skips those tests with their own notice).
 */
import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { disallowedSkipLine, disallowedSkips, loadAllowedSkips, type SkippedTest } from "./skip-policy.js";

export default class SkipPolicyReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (process.env.CI !== "true") return;
    const skipped: SkippedTest[] = [];
    for (const module of testModules) {
      const file = relative(module.project.config.root, module.moduleId);
      for (const test of module.children.allTests())
        if (test.result().state === "skipped") skipped.push({ file, name: test.fullName });
    }
    let allowed: ReturnType<typeof loadAllowedSkips>;
    try {
      allowed = loadAllowedSkips();
    } catch (error) {
      console.error(`ci: ${(error as Error).message}`);
      process.exitCode = 1;
      return;
    }
    const refused = disallowedSkips(skipped, allowed);
    for (const test of refused) console.error(disallowedSkipLine(test));
    if (refused.length > 0) process.exitCode = 1;
    else if (skipped.length > 0) console.error(`ci: ${skipped.length} skipped tests, all in allowed files`);
  }
}
