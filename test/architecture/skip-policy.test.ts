/**
 * CI's skip policy (support/skip-policy.ts): with CI=true a skipped test fails the run unless its file is
 * listed in test/allowed-skips.json with a reason, and every conditional skip in the suite says why it skips.
 *
 * Mutation it catches (scripts/mutation-check.mjs): `skips-allowed-without-list` (disallowedSkips refuses
 * nothing, so a silent skip passes CI again).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { disallowedSkips, loadAllowedSkips, parseAllowedSkips } from "../../support/skip-policy.js";

const ROOT = join(import.meta.dirname, "..", "..");
const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function testFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the skip policy", () => {
  it("refuses exactly the skipped tests whose file is not allowed", () => {
    const skipped = [
      { file: "test/a.test.ts", name: "a > one" },
      { file: "test/b.test.ts", name: "b > two" },
      { file: "test/a.test.ts", name: "a > three" },
    ];
    expect(disallowedSkips(skipped, [{ file: "test/a.test.ts", reason: "needs a GPU" }])).toEqual([
      { file: "test/b.test.ts", name: "b > two" },
    ]);
    expect(disallowedSkips(skipped, [])).toHaveLength(3);
  });

  it("says in one line what is wrong with a bad list", () => {
    expect(() => parseAllowedSkips('{"allowed": [{"file": "test/a.test.ts"}]}', "list.json")).toThrow(
      'list.json: allowed[0] (test/a.test.ts) gives no "reason"; a skip is allowed only with one',
    );
    expect(() => parseAllowedSkips("{}", "list.json")).toThrow(
      'list.json: expected {"allowed": [{"file", "reason"}, …]}',
    );
  });

  it("test/allowed-skips.json parses, and each file it allows exists and has a conditional skip", () => {
    for (const entry of loadAllowedSkips()) {
      const path = join(ROOT, entry.file);
      expect(existsSync(path), entry.file).toBe(true);
      expect(readFileSync(path, "utf8"), entry.file).toMatch(/\.(skipIf|runIf|skip)\(/);
    }
  });

  it("every conditional skip in the suite prints why it skips", () => {
    const silent: string[] = [];
    for (const path of testFiles(join(ROOT, "test"))) {
      const text = readFileSync(path, "utf8");
      if (!/\.(skipIf|runIf)\(/.test(text)) continue;
      // postgresForTests prints its own notice when no PostgreSQL can start.
      if (!/console\.(warn|error|log)\(/.test(text) && !text.includes("postgresForTests("))
        silent.push(relative(ROOT, path));
    }
    expect(silent).toEqual([]);
  });

  it("with CI=true a run with a skip that is not allowed fails, and passes once it is listed", () => {
    const directory = mkdtempSync(join(tmpdir(), "threadline-skip-policy-"));
    temporary.push(directory);
    symlinkSync(join(ROOT, "node_modules"), join(directory, "node_modules"), "dir");
    writeFileSync(
      join(directory, "skips.test.ts"),
      'import { it } from "vitest";\nit.skip("never runs", () => {});\nit("runs", () => {});\n',
    );
    const reporter = join(ROOT, "support", "skip-policy-reporter.ts");
    writeFileSync(
      join(directory, "vitest.config.mjs"),
      `export default { test: { include: ["*.test.ts"], reporters: ["default", ${JSON.stringify(reporter)}] } };\n`,
    );
    const list = join(directory, "allowed.json");
    const run = () =>
      spawnSync(process.execPath, [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run"], {
        cwd: directory,
        encoding: "utf8",
        env: { ...process.env, CI: "true", THREADLINE_ALLOWED_SKIPS: list, NO_COLOR: "1" },
      });
    writeFileSync(list, '{"allowed": []}');
    const refused = run();
    expect(refused.stderr).toContain(
      "ci: skipped test not allowed: skips.test.ts > never runs (list it in test/allowed-skips.json with a reason, or make it run)",
    );
    expect(refused.status).toBe(1);
    writeFileSync(list, '{"allowed": [{"file": "skips.test.ts", "reason": "the policy\'s own fixture"}]}');
    const allowed = run();
    expect(allowed.stderr).toContain("ci: 1 skipped tests, all in allowed files");
    expect(allowed.status).toBe(0);
  }, 60_000);
});
