/**
 * The per-module floors of Stryker's score (scripts/mutation-floors.mjs, test/mutation/floors.json,
 * docs/MUTATION-TESTING.md). The script is run as CI runs it, in a real process, on reports written here with
 * literal mutant counts; the oracle is its exit code and the module it names. And every module Stryker mutates
 * has a floor (a module added to `mutate` without one would pass unchecked).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("mutation-floors");
const root = join(import.meta.dirname, "../..");

/** A report holding `counts` mutants of each status for each file. */
function report(files: Record<string, Record<string, number>>): unknown {
  return {
    files: Object.fromEntries(
      Object.entries(files).map(([path, counts]) => [
        path,
        {
          mutants: Object.entries(counts).flatMap(([status, count]) =>
            Array.from({ length: count }, () => ({ status })),
          ),
        },
      ]),
    ),
  };
}

async function runFloors(
  files: Record<string, Record<string, number>>,
  floors: Record<string, number>,
): Promise<{ status: number | null; output: string }> {
  const directory = await tempDir();
  writeFileSync(join(directory, "report.json"), JSON.stringify(report(files)));
  writeFileSync(join(directory, "floors.json"), JSON.stringify({ floors }));
  const run = spawnSync(
    process.execPath,
    [join(root, "scripts/mutation-floors.mjs"), join(directory, "report.json"), join(directory, "floors.json")],
    { encoding: "utf8" },
  );
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("per-module mutation floors", () => {
  it("a module exactly at its floor passes; one mutant fewer killed fails, naming that module alone", async () => {
    // 9 killed + 1 timed out of 10 counted (2 ignored, 1 compile error left out): 100 %; 17 of 20: 85 %.
    const files = {
      "src/a/x/guard.ts": { Killed: 9, Timeout: 1, Ignored: 2, CompileError: 1 },
      "src/b/other.ts": { Killed: 17, Survived: 2, NoCoverage: 1 },
    };
    const floors = { "src/a/**/guard.ts": 100, "src/b/**/other.ts": 85 };
    const atFloor = await runFloors(files, floors);
    expect(atFloor.status).toBe(0);
    expect(atFloor.output).toContain("85.00 %");
    const under = await runFloors({ ...files, "src/b/other.ts": { Killed: 16, Survived: 3, NoCoverage: 1 } }, floors);
    expect(under.status).toBe(1);
    expect(under.output).toContain("src/b/**/other.ts: 80.00 % is under its floor of 85 %");
    expect(under.output).not.toContain("src/a/**/guard.ts: ");
  });

  it("a mutated module without a floor fails, and so does a floor whose module is not in the report", async () => {
    const noFloor = await runFloors(
      { "src/a/guard.ts": { Killed: 1 }, "src/c/new.ts": { Killed: 1 } },
      {
        "src/a/**/guard.ts": 90,
      },
    );
    expect(noFloor.status).toBe(1);
    expect(noFloor.output).toContain("src/c/new.ts: mutated but has no floor");
    const gone = await runFloors(
      { "src/a/guard.ts": { Killed: 1 } },
      { "src/a/**/guard.ts": 90, "src/d/**/old.ts": 90 },
    );
    expect(gone.status).toBe(1);
    expect(gone.output).toContain("src/d/**/old.ts: floor 90 % but no such module in the report");
  });

  it("a glob's `*` stays within one name: a sibling folder's file of a similar name is not its module", async () => {
    const result = await runFloors(
      { "src/trust/trust-gate.ts": { Killed: 1 }, "src/trusty/trust-gate.ts": { Survived: 1 } },
      { "src/trust/**/trust-gate.ts": 100 },
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain("src/trusty/trust-gate.ts: mutated but has no floor");
  });

  it("every module in stryker.config.json's mutate has a floor, and every floor a module", () => {
    const mutate = JSON.parse(readFileSync(join(root, "stryker.config.json"), "utf8")).mutate as string[];
    const floors = JSON.parse(readFileSync(join(root, "test/mutation/floors.json"), "utf8")).floors as Record<
      string,
      number
    >;
    expect(Object.keys(floors).sort()).toEqual([...mutate].sort());
    for (const floor of Object.values(floors)) expect(floor).toBeGreaterThanOrEqual(85);
  });
});
