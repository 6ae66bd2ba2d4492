#!/usr/bin/env node
/**
 * Mutation check: each guarantee a test claims to guard is broken on purpose, in a temporary copy of the
 * repository, and the test that guards it must then fail. A test that still passes with its guarantee broken
 * guards nothing (the audit of issue 33 found two: a test importing the constant it guarded, and a cost test
 * that never ran the path it priced).
 *
 *   node scripts/mutation-check.mjs            every mutation (CI: .ci/run)
 *   node scripts/mutation-check.mjs --only a,b  the named ones
 *   node scripts/mutation-check.mjs --list      names, files and tests
 *
 * How: the tracked and untracked-but-not-ignored files are copied once (timestamps kept) into a temporary
 * directory beside a symlink to node_modules and a copy of dist/. The named test files first run unmutated
 * (a baseline that fails proves nothing). Then, one at a time, each mutation replaces one exact text in one
 * file, runs its test files with vitest, and is put back. A mutation "is caught" when vitest reports at
 * least one failed test; a mutation whose text is no longer in the file, or whose run fails without a failed
 * test (a syntax error), or whose tests were skipped, is reported as such and fails the check: the list must
 * follow the code it mutates. Exit code 0 only when every mutation was caught.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Every guarantee with its mutation. `cli`: the test spawns bin/threadline, so the copy rebuilds dist/ after
 * the mutation (test/cli/build-once.ts does it); otherwise the copy's build is marked current so no test run
 * spends a minute compiling code it does not load.
 */
export const MUTATIONS = [
  {
    name: "min-batch-keep-recent-1",
    guards: "a public-path pass never clears any of the last 3 tool results",
    file: "src/compaction/settings.ts",
    find: "export const MIN_BATCH_KEEP_RECENT = 3;",
    replace: "export const MIN_BATCH_KEEP_RECENT = 1;",
    tests: ["test/compaction/recent-verbatim.test.ts"],
  },
  {
    // Guarded by the pressure helper's rewrite of tier-costs for issue 28 (this entry points at it).
    name: "summary-request-sent-3x",
    guards: "autocompact's cost is priced: a summary request sent three times costs more",
    file: "src/compaction/summary-input.ts",
    find: "      const result = await options.fork.run({",
    replace:
      "      for (let extra = 0; extra < 2; extra++)\n        await options.fork.run({ messages: current, instruction: options.instruction, maxTokens: DEFAULT_SUMMARY_MAX_TOKENS });\n      const result = await options.fork.run({",
    tests: ["test/engine/tier-costs.test.ts"],
  },
  {
    // Guarded by the pressure helper's rewrite of tier-costs for issue 28 (this entry points at it).
    name: "restore-budget-x3",
    guards: "the post-compact file restore is priced: three times the budget costs more",
    file: "src/compaction/compact-conversation.ts",
    find: "        aim - used,\n      ),\n    );",
    replace: "        aim - used,\n      ) * 3,\n    );",
    tests: ["test/engine/tier-costs.test.ts"],
  },
  {
    name: "relay-markers-off",
    guards: "a batch clear's request carries relay markers, so its unchanged prefix is read from the cache",
    file: "src/request/cache-breakpoints.ts",
    find: "    const relays = relayPositions(result, markerIndex, options.relayBefore).slice(0, MAX_CACHE_BREAKPOINTS - 2);",
    replace: "    const relays: BlockAt[] = [];",
    tests: ["test/request/cache-breakpoints.test.ts", "test/engine/batch-clear-cache.test.ts"],
  },
  {
    name: "relay-next-boundary-off",
    guards: "a batch writes the cache entry the next batch reads (a relay before the first result it keeps)",
    file: "src/compaction/microcompact/batch-clear.ts",
    find: "  if (firstKept !== undefined) relayBefore.push(firstKept.toolUseId);",
    replace: "",
    tests: ["test/engine/batch-clear-cache.test.ts"],
  },
  {
    name: "time-clear-relay-off",
    guards: "a time-based clear leaves a cache entry where the next batch's unchanged prefix ends",
    file: "src/compaction/microcompact/time-based.ts",
    find: "    relayBefore: firstKept === undefined ? [] : [firstKept.toolUseId],",
    replace: "    relayBefore: [],",
    tests: ["test/compaction/time-based.test.ts"],
  },
  {
    name: "tool-env-keeps-secrets",
    guards: "tool processes start without the secret variables",
    file: "src/tools/secret-env.ts",
    find: "          removed.push(name);\n          continue;",
    replace: "          removed.push(name);",
    tests: ["test/cli/confinement.e2e.test.ts", "test/cli/secret-encodings.e2e.test.ts"],
    cli: true,
  },
  {
    name: "sandbox-shares-proc",
    guards: "the sandbox mounts its own /proc, so no /proc/PID/environ of threadline is readable",
    file: "src/tools/sandbox.ts",
    find: '"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]',
    replace: '"--dev", "/dev", "--tmpfs", "/tmp"]',
    tests: ["test/cli/secret-encodings.e2e.test.ts"],
    cli: true,
  },
  {
    name: "long-session-answers-repeat-facts",
    guards: "the long session's answer facts live only in tool results (each answer needs a fact no earlier step gave)",
    file: "bench/lib/long-session.ts",
    find: "    const factLine = lines - 1 - Math.floor(task / shape.readsPerTask);",
    replace: "    const factLine = 0;",
    tests: ["test/engine/long-session-facts.test.ts"],
  },
  {
    name: "bench-readme-figure-outside",
    guards: "bench/README.md holds no figure outside the sections its scripts write",
    file: "bench/README.md",
    find: "**What the defaults follow from these tables.**",
    replace: "**What the defaults follow from these tables** (the defaults cost 2,453,190 here).",
    tests: ["test/architecture/bench-readme.test.ts"],
  },
  {
    name: "skips-allowed-without-list",
    guards: "with CI=true a skipped test that test/allowed-skips.json does not list fails the run",
    file: "support/skip-policy.ts",
    find: "  return skipped.filter((test) => !allowed.has(test.file));",
    replace: "  return [];",
    tests: ["test/architecture/skip-policy.test.ts"],
  },
];

/** Files of the working tree worth copying: tracked, plus new files not ignored (a local run before a commit). */
function repositoryFiles() {
  const output = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return output.split("\0").filter((path) => path !== "" && existsSync(join(ROOT, path)));
}

function makeCopy() {
  const copy = mkdtempSync(join(tmpdir(), "threadline-mutants-"));
  for (const path of repositoryFiles()) {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    cpSync(join(ROOT, path), join(copy, path), { preserveTimestamps: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  if (existsSync(join(ROOT, "dist")))
    cpSync(join(ROOT, "dist"), join(copy, "dist"), { recursive: true, preserveTimestamps: true });
  return copy;
}

/**
 * Marks the copy's build as newer than its sources (`current`: the CLI tests' global setup does not rebuild)
 * or as older than any source (the next CLI test run rebuilds dist/, bundle included).
 */
function markBuild(copy, current) {
  const bundle = join(copy, "dist", "bundle", "main.js");
  const time = current ? new Date(Date.now() + 10 * 60_000) : new Date(0);
  if (existsSync(bundle)) utimesSync(bundle, time, time);
}

/** Runs vitest on `tests` in `copy`: its exit code and what it reported. */
function runTests(copy, tests) {
  const run = spawnSync(process.execPath, [join(copy, "node_modules", "vitest", "vitest.mjs"), "run", ...tests], {
    cwd: copy,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${run.stdout ?? ""}\n${run.stderr ?? ""}`;
  const failed = Number(/Tests\s+(\d+) failed/.exec(output)?.[1] ?? 0);
  const passed = Number(/(\d+) passed/.exec(/Tests\s+[^\n]*/.exec(output)?.[0] ?? "")?.[1] ?? 0);
  const skipped = Number(/(\d+) skipped/.exec(/Tests\s+[^\n]*/.exec(output)?.[0] ?? "")?.[1] ?? 0);
  return { code: run.status ?? 1, failed, passed, skipped, output };
}

function tail(text, lines = 25) {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

function main() {
  const args = process.argv.slice(2);
  if (args.includes("--list")) {
    for (const mutation of MUTATIONS)
      console.log(`${mutation.name}: ${mutation.file} -> ${mutation.tests.join(", ")}\n  guards: ${mutation.guards}`);
    return 0;
  }
  const onlyAt = args.indexOf("--only");
  const only = onlyAt === -1 ? undefined : new Set((args[onlyAt + 1] ?? "").split(","));
  const chosen = MUTATIONS.filter((mutation) => only === undefined || only.has(mutation.name));
  if (only !== undefined && chosen.length !== only.size) {
    const unknown = [...only].filter((name) => !MUTATIONS.some((mutation) => mutation.name === name));
    console.error(`mutation-check: no mutation named ${unknown.join(", ")}; see --list`);
    return 2;
  }
  const started = performance.now();
  const copy = makeCopy();
  const problems = [];
  try {
    const testFiles = [...new Set(chosen.flatMap((mutation) => mutation.tests))];
    const missingTests = testFiles.filter((test) => !existsSync(join(copy, test)));
    const present = testFiles.filter((test) => existsSync(join(copy, test)));
    for (const test of missingTests) problems.push(`test file ${test} is missing`);
    if (present.length > 0) {
      const baseline = runTests(copy, present);
      if (baseline.code !== 0) {
        console.log(`baseline (unmutated) fails: ${tail(baseline.output)}`);
        problems.push("the unmutated baseline fails, so no mutation result means anything");
      } else console.log(`baseline: ${present.length} test files pass unmutated (${baseline.passed} tests)`);
    }
    for (const mutation of chosen) {
      const path = join(copy, mutation.file);
      const missing = mutation.tests.filter((test) => !existsSync(join(copy, test)));
      if (!existsSync(path) || missing.length > 0) {
        const what = !existsSync(path) ? mutation.file : missing.join(", ");
        console.log(`✗ ${mutation.name}: not run, ${what} does not exist`);
        problems.push(`${mutation.name}: ${what} does not exist`);
        continue;
      }
      const original = readFileSync(path, "utf8");
      if (!original.includes(mutation.find)) {
        console.log(`✗ ${mutation.name}: the text to mutate is no longer in ${mutation.file}; update the entry`);
        problems.push(`${mutation.name}: text not found in ${mutation.file}`);
        continue;
      }
      writeFileSync(path, original.replace(mutation.find, mutation.replace));
      markBuild(copy, mutation.cli !== true);
      const ran = performance.now();
      let result;
      try {
        result = runTests(copy, mutation.tests);
      } finally {
        writeFileSync(path, original);
        // A CLI mutation was compiled into the copy's dist/: whatever runs the CLI next must rebuild it.
        if (mutation.cli === true) markBuild(copy, false);
      }
      const seconds = ((performance.now() - ran) / 1000).toFixed(1);
      if (result.failed > 0) console.log(`✓ ${mutation.name}: caught, ${result.failed} failed (${seconds} s)`);
      else if (result.code === 0 && result.skipped > 0 && result.passed === 0) {
        console.log(`✗ ${mutation.name}: its tests were skipped here, so it could not be caught (${seconds} s)`);
        problems.push(`${mutation.name}: tests skipped`);
      } else if (result.code === 0) {
        console.log(`✗ ${mutation.name}: SURVIVED, ${mutation.tests.join(", ")} still pass (${seconds} s)`);
        problems.push(`${mutation.name}: survived (${mutation.guards})`);
      } else {
        console.log(`✗ ${mutation.name}: the run failed without a failing test:\n${tail(result.output)}`);
        problems.push(`${mutation.name}: run failed without a failing test`);
      }
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  const total = ((performance.now() - started) / 1000).toFixed(0);
  if (problems.length === 0) {
    console.log(`mutation-check: all ${chosen.length} mutations caught (${total} s)`);
    return 0;
  }
  console.log(`mutation-check: ${problems.length} problem(s) (${total} s):\n- ${problems.join("\n- ")}`);
  return 1;
}

process.exitCode = main();
