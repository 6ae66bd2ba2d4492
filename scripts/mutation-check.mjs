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
 *   node scripts/mutation-check.mjs --after-suite  skip the unmutated baseline (CI: npm test just passed)
 *   node scripts/mutation-check.mjs --jobs N    N copies, N mutations at a time (default: 2, or 1 on one core)
 *
 * How: the tracked and untracked-but-not-ignored files are copied once (timestamps kept) into a temporary
 * directory beside a symlink to node_modules and a copy of dist/. The named test files first run unmutated
 * (a baseline that fails proves nothing). Then each mutation replaces one exact text in one file of a copy,
 * runs its test files with vitest, and is put back. `--jobs` copies work side by side, each taking the next
 * mutation from the list (CI's budget is 30 minutes on 2 cores; one at a time took about 16 of them, mostly
 * vitest starting up and waiting on spawned processes, which two copies overlap). A mutation "is caught" when
 * one of its tests fails on an assertion (vitest's JSON report: an AssertionError, a promise that should have
 * rejected, a fast-check property whose assertion failed; `failureKind`), and the line names that test. A test
 * failing on an error instead (a TypeError the mutated code threw, a timeout, a file that did not load) is
 * "not caught: error"; a replacement that does not parse (esbuild, before any test runs), a mutation whose
 * text is no longer in the file, or whose tests were skipped, is reported as such: each fails the check, so the
 * list follows the code it mutates. Exit code 0 only when every mutation was caught. Guards inside one module
 * are Stryker's (docs/MUTATION-TESTING.md); this list keeps what crosses modules (a CLI end to end, a body).
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { transformSync } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Every guarantee with its mutation, one entry each (append new ones at the end; merges then only add lines).
 * `find` must occur exactly once in `file` (test/architecture/mutation-list.test.ts checks it, and that each
 * area of issue 45 has at least two entries). `area` groups them for `--list`. `cli`: the test spawns
 * bin/threadline, so the mutated file is compiled into the copy's dist/ and the bundle rebuilt (`rebuildOne`);
 * otherwise the copy's build is marked current so no test run spends a minute compiling code it does not load.
 * A mutation's tests run with `--bail 1`: the first failure is the answer.
 */
export const MUTATIONS = [
  {
    name: "min-batch-keep-recent-1",
    area: "compaction",
    guards: "a public-path pass never clears any of the last 3 tool results",
    file: "src/compaction/settings.ts",
    find: "export const MIN_BATCH_KEEP_RECENT = 3;",
    replace: "export const MIN_BATCH_KEEP_RECENT = 1;",
    tests: ["test/compaction/recent-verbatim.test.ts"],
  },
  {
    // Guarded by the pressure helper's rewrite of tier-costs for issue 28 (this entry points at it).
    name: "summary-request-sent-3x",
    area: "compaction",
    guards: "autocompact's cost is priced: a summary request sent three times costs more",
    file: "src/compaction/summary/summary-input.ts",
    find: "      const result = await options.fork.run({",
    replace:
      "      for (let extra = 0; extra < 2; extra++)\n        await options.fork.run({ messages: current, instruction: options.instruction, maxTokens: DEFAULT_SUMMARY_MAX_TOKENS });\n      const result = await options.fork.run({",
    tests: ["test/engine/tier-costs.test.ts"],
  },
  {
    // Guarded by the pressure helper's rewrite of tier-costs for issue 28 (this entry points at it).
    name: "restore-budget-x3",
    area: "compaction",
    guards: "the post-compact file restore is priced: three times the budget costs more",
    file: "src/compaction/summary/compact-conversation.ts",
    find: "        aim - used,\n      ),\n    );",
    replace: "        aim - used,\n      ) * 3,\n    );",
    tests: ["test/engine/tier-costs.test.ts"],
  },
  {
    name: "relay-markers-off",
    area: "cache",
    guards: "a batch clear's request carries relay markers, so its unchanged prefix is read from the cache",
    file: "src/request/cache-breakpoints.ts",
    find: "    const relays = relayPositions(result, markerIndex, options.relayBefore).slice(0, MAX_CACHE_BREAKPOINTS - 2);",
    replace: "    const relays: BlockAt[] = [];",
    tests: ["test/request/cache-breakpoints.test.ts", "test/engine/batch-clear-cache.test.ts"],
  },
  {
    name: "relay-next-boundary-off",
    area: "cache",
    guards: "a batch writes the cache entry the next batch reads (a relay before the first result it keeps)",
    file: "src/compaction/microcompact/batch-clear.ts",
    find: "  if (firstKept !== undefined) relayBefore.push(firstKept.toolUseId);",
    replace: "",
    tests: ["test/engine/batch-clear-cache.test.ts"],
  },
  {
    name: "time-clear-relay-off",
    area: "cache",
    guards: "a time-based clear leaves a cache entry where the next batch's unchanged prefix ends",
    file: "src/compaction/microcompact/time-based.ts",
    find: "    relayBefore: firstKept === undefined ? [] : [firstKept.toolUseId],",
    replace: "    relayBefore: [],",
    tests: ["test/compaction/time-based.test.ts"],
  },
  {
    name: "tool-env-keeps-secrets",
    area: "secrets",
    guards: "tool processes start without the secret variables",
    file: "src/tools/shell/secret-env.ts",
    find: "          removed.push(name);\n          continue;",
    replace: "          removed.push(name);",
    tests: ["test/cli/confinement.e2e.test.ts", "test/cli/secret-encodings.e2e.test.ts"],
    cli: true,
  },
  {
    name: "sandbox-shares-proc",
    area: "secrets",
    guards: "the sandbox mounts its own /proc, so no /proc/PID/environ of threadline is readable",
    file: "src/tools/shell/sandbox.ts",
    find: '"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]',
    replace: '"--dev", "/dev", "--tmpfs", "/tmp"]',
    tests: ["test/cli/secret-encodings.e2e.test.ts"],
    cli: true,
  },
  {
    name: "long-session-answers-repeat-facts",
    area: "bench",
    guards: "the long session's answer facts live only in tool results (each answer needs a fact no earlier step gave)",
    file: "bench/lib/long-session.ts",
    find: "    const factLine = lines - 1 - Math.floor(task / shape.readsPerTask);",
    replace: "    const factLine = 0;",
    tests: ["test/engine/long-session-facts.test.ts"],
  },
  {
    name: "bench-readme-figure-outside",
    area: "bench",
    guards: "bench/README.md holds no figure outside the sections its scripts write",
    file: "bench/README.md",
    find: "**What the defaults follow from these tables.**",
    replace: "**What the defaults follow from these tables** (the defaults cost 2,453,190 here).",
    tests: ["test/architecture/bench-readme.test.ts"],
  },
  {
    name: "skips-allowed-without-list",
    area: "ci",
    guards: "with CI=true a skipped test that test/allowed-skips.json does not list fails the run",
    file: "support/skip-policy.ts",
    find: "  return skipped.filter((test) => !allowed.has(test.file));",
    replace: "  return [];",
    tests: ["test/architecture/skip-policy.test.ts"],
  },
  // --- issue 45: the audit's 12 survivors, then two or more per area (memory, permissions, hooks, MCP,
  // compaction progress, settings precedence). One entry per mutation; append new ones at the end of the list.
  {
    name: "hook-deny-ignored",
    area: "hooks",
    guards: "a PreToolUse hook's JSON permissionDecision deny keeps the call from running",
    file: "src/hooks/hook-runner.ts",
    find: "      if (decision !== undefined) {",
    replace: '      if (decision !== undefined && decision !== "deny") {',
    tests: ["test/hooks/hook-guards.test.ts"],
  },
  {
    name: "hook-env-process-secrets",
    area: "hooks",
    guards: "hook processes never get this process's own secrets (ANTHROPIC_API_KEY)",
    file: "src/engine/session-hooks.ts",
    find: "    env: session.runtime.secrets.toolEnv,",
    replace: "    env: { ...process.env, ...session.runtime.secrets.toolEnv } as Record<string, string>,",
    tests: ["test/hooks/hook-guards.test.ts"],
  },
  {
    name: "hook-exit-2-does-not-block",
    area: "hooks",
    guards: "a hook that exits 2 blocks (UserPromptSubmit: the prompt is never sent)",
    file: "src/hooks/hook-runner.ts",
    find: "      if (BLOCKING_EVENTS.has(event)) appendBlock(outcome, reason);",
    replace: "      if (BLOCKING_EVENTS.has(event)) outcome.notices.push(reason);",
    tests: ["test/hooks/engine-hooks.test.ts"],
  },
  {
    name: "hook-updated-input-ignored",
    area: "hooks",
    guards: "a PreToolUse hook's updatedInput is the input the tool runs with",
    file: "src/loop/tools/tool-executor.ts",
    find: "      if (pre.updatedInput !== undefined) input = pre.updatedInput;",
    replace: "",
    tests: ["test/hooks/engine-hooks.test.ts"],
  },
  {
    name: "folder-rule-ancestor-walk-off",
    area: "permissions",
    guards: "a rule naming a folder (Read(./secrets)) covers everything inside it",
    file: "src/tools/permissions/permission-path-rules.ts",
    find: '  while (parent.lastIndexOf("/") > 0) {',
    replace: '  while (parent.lastIndexOf("/") > 0 && parent === "") {',
    tests: ["test/tools/folder-rules.test.ts"],
  },
  {
    name: "deny-skipped-in-bypass",
    area: "permissions",
    guards: "deny rules hold in bypassPermissions mode",
    file: "src/tools/permissions/permissions.ts",
    find: "  if (denied !== undefined) {",
    replace: '  if (denied !== undefined && policy.mode !== "bypassPermissions") {',
    tests: ["test/tools/settings-permission-rules.test.ts", "test/tools/folder-rules.test.ts"],
  },
  {
    name: "read-rule-misses-search-tools",
    area: "permissions",
    guards: "a Read rule covers Grep and Glob too",
    file: "src/tools/files/grep-tool.ts",
    find: 'ruleNames: ["Read"], pathField: "path"',
    replace: 'ruleNames: [], pathField: "path"',
    tests: ["test/tools/settings-permission-rules.test.ts"],
  },
  {
    name: "compaction-miss-not-a-failure",
    area: "compaction-progress",
    guards: "a compaction that leaves the context over its target counts on the breaker",
    file: "src/compaction/summary/compact-entrances.ts",
    find: "      if (outcome.contextTokens > outcome.targetTokens)",
    replace: "      if (outcome.contextTokens > outcome.targetTokens * 1000)",
    tests: ["test/compaction/progress.test.ts"],
  },
  {
    name: "compaction-growth-gate-off",
    area: "compaction-progress",
    guards: "after a compaction the next waits for a quarter of the threshold of growth",
    file: "src/compaction/autocompact/autocompact.ts",
    find: "  if (last !== undefined && tokens < last + threshold * DEFAULT_MIN_GROWTH_RATIO) {",
    replace: "  if (last !== undefined && tokens < last) {",
    tests: ["test/compaction/progress.test.ts"],
  },
  {
    name: "overflow-drop-step-removed",
    area: "compaction-progress",
    guards: "the overflow chain ends by dropping the oldest rounds behind a marker",
    file: "src/loop/recovery/prompt-too-long.ts",
    find: "  const steps = [...tiers, DROP_STEP, CUT_STEP];",
    replace: "  const steps = [...tiers, CUT_STEP];",
    tests: ["test/compaction/progress.test.ts"],
  },
  {
    name: "compaction-breaker-opens-late",
    area: "compaction-progress",
    guards: "auto-compaction stops after 3 failures in a row",
    file: "src/compaction/autocompact/compaction-due.ts",
    find: "export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;",
    replace: "export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 4;",
    tests: ["test/compaction/progress.test.ts"],
  },
  {
    name: "memory-reattach-ignores-server-block",
    area: "memory",
    guards: "memory files are re-attached after a server compaction block (which cuts off what precedes it)",
    file: "src/loop/after-compaction.ts",
    find: "memoryToReattach(fromLastCompaction(view.messages), ",
    replace: "memoryToReattach(view.messages, ",
    tests: ["test/engine/memory-guards.test.ts"],
  },
  {
    name: "nested-memory-grep-off",
    area: "memory",
    guards: "a Grep into a folder attaches that folder's nested CLAUDE.md",
    file: "src/tools/files/grep-tool.ts",
    find: "revealsMemoryFiles: true",
    replace: "revealsMemoryFiles: false",
    tests: ["test/engine/memory-guards.test.ts"],
  },
  {
    name: "memory-project-imports-user-folders",
    area: "memory",
    guards: "a project memory file's @imports may not read ~/.claude or threadline's home",
    file: "src/memory/memory-reader.ts",
    find: '    const allowed = scope === "user" ? [...roots.project, ...roots.user] : roots.project;',
    replace: "    const allowed = [...roots.project, ...roots.user];",
    tests: ["test/memory/import-confinement.test.ts"],
  },
  {
    name: "memory-file-cap-x10",
    area: "memory",
    guards: "one memory file is cut at 40,000 characters",
    file: "src/memory/memory-limits.ts",
    find: "export const DEFAULT_MEMORY_FILE_MAX_CHARS = 40_000;",
    replace: "export const DEFAULT_MEMORY_FILE_MAX_CHARS = 400_000;",
    tests: ["test/memory/memory-files.test.ts"],
  },
  {
    name: "mcp-spill-threshold-x10",
    area: "mcp",
    guards: "MCP output over 25,000 tokens is spilled to a file",
    file: "src/mcp/result-content.ts",
    find: "export const DEFAULT_MCP_OUTPUT_TOKENS = 25_000;",
    replace: "export const DEFAULT_MCP_OUTPUT_TOKENS = 250_000;",
    tests: ["test/mcp/mcp-guards.test.ts"],
  },
  {
    name: "mcp-server-env-inherits-process",
    area: "mcp",
    guards: "a stdio MCP server never gets this process's provider keys",
    file: "src/mcp/connection.ts",
    find: "        env: { ...getDefaultEnvironment(), ...config.env },",
    replace: "        env: { ...getDefaultEnvironment(), ...process.env, ...config.env } as Record<string, string>,",
    tests: ["test/mcp/mcp-guards.test.ts"],
  },
  {
    name: "mcp-spill-unredacted",
    area: "mcp",
    guards: "a spilled MCP result is redacted in the file too",
    file: "src/mcp/result-content.ts",
    find: "  writeFileSync(path, limits.redact(joined));",
    replace: "  writeFileSync(path, joined);",
    tests: ["test/mcp/mcp-guards.test.ts"],
  },
  {
    name: "settings-default-mode-lower-wins",
    area: "settings",
    guards: "permissions.defaultMode comes from the highest settings file that sets it",
    file: "src/settings/load-settings.ts",
    find: "  const defaultMode = higher.permissions.defaultMode ?? lower.permissions.defaultMode;",
    replace: "  const defaultMode = lower.permissions.defaultMode ?? higher.permissions.defaultMode;",
    tests: ["test/settings/precedence.test.ts"],
  },
  {
    name: "settings-compaction-lower-wins",
    area: "settings",
    guards: "each compaction switch comes from the highest settings file that names it",
    file: "src/settings/load-settings.ts",
    find: "    compaction: { ...lower.compaction, ...higher.compaction },",
    replace: "    compaction: { ...higher.compaction, ...lower.compaction },",
    tests: ["test/settings/precedence.test.ts"],
  },
  {
    name: "settings-model-lower-wins",
    area: "settings",
    guards: "model comes from the highest settings file that sets it",
    file: "src/settings/load-settings.ts",
    find: "  const model = higher.model ?? lower.model;",
    replace: "  const model = lower.model ?? higher.model;",
    tests: ["test/settings/precedence.test.ts"],
  },
  {
    name: "overflow-numbers-swapped",
    area: "provider",
    guards: "an overflow error's request size and window are read from the message (vLLM wording)",
    file: "src/provider/overflow-patterns.ts",
    find: "maximum context length is (?<max>\\d[\\d,]*) tokens and your request has (?<actual>\\d[\\d,]*) input tokens",
    replace:
      "maximum context length is (?<actual>\\d[\\d,]*) tokens and your request has (?<max>\\d[\\d,]*) input tokens",
    tests: ["test/provider/overflow-and-unsupported.test.ts"],
  },
  {
    name: "keep-warm-without-person",
    area: "pause",
    guards: "keep-warm never runs without a person at the terminal",
    file: "src/engine/pause-keeper.ts",
    find: "      keepWarmAllowed: this.#ttls.length > 0 && this.#options.personPresent?.() === true,",
    replace: "      keepWarmAllowed: this.#ttls.length > 0,",
    tests: ["test/engine/pause-keeper.test.ts"],
  },
  {
    name: "pause-rewrite-price-5m-as-1h",
    area: "pause",
    guards: "a pause over 5 minutes without keep-warm or the 1-hour TTL pays a rewrite",
    file: "src/cache/pause-policy.ts",
    find: "      return gapMs > TTL_5M_MS ? rewrite : 0;",
    replace: "      return gapMs > TTL_1H_MS ? rewrite : 0;",
    tests: ["test/cache/pause-policy.test.ts"],
  },
  {
    name: "one-hour-ignores-past-the-hour",
    area: "pause",
    guards: "the 1-hour TTL does not survive a pause past the hour",
    file: "src/cache/pause-policy.ts",
    find: "(CACHE_PRICES.write1h - CACHE_PRICES.write5m) * situation.turnWriteTokens + (gapMs > TTL_1H_MS ? rewrite : 0)",
    replace: "(CACHE_PRICES.write1h - CACHE_PRICES.write5m) * situation.turnWriteTokens",
    tests: ["test/cache/pause-policy.test.ts"],
  },
  {
    name: "keep-warm-refresh-writes",
    area: "pause",
    guards: "a keep-warm refresh re-sends the last request byte for byte (so it reads the prefix and writes nothing)",
    file: "src/engine/pause-keeper.ts",
    find: "    const body = { ...request.body, max_tokens: maxTokens };",
    replace:
      '    const body = { ...request.body, max_tokens: maxTokens, system: [{ type: "text" as const, text: "refresh" }] };',
    tests: ["test/engine/pause-keeper.test.ts"],
  },
  {
    name: "session-place-ignores-project",
    guards: "QueryEngine.resume(id, { project }) and the manager look in the project key's folder, not the cwd's",
    file: "src/sessions/session-manager.ts",
    find: "  return { cwd, home, project, folder: projectKeyDir(project, home), store };",
    replace: "  return { cwd, home, project, folder: projectKeyDir(cwdSlug(cwd), home), store };",
    tests: ["test/sessions/session-manager.test.ts"],
  },
  {
    name: "threadline-home-os-fallback",
    guards: "transcripts, settings and memory places share one home rule ($HOME/.threadline when $HOME is set)",
    file: "src/home/threadline-home.ts",
    find: "  return join(userHome(env), DEFAULT_THREADLINE_DIR);",
    replace: "  return join(homedir(), DEFAULT_THREADLINE_DIR);",
    tests: ["test/home/threadline-home.test.ts"],
  },
  {
    name: "engine-opens-a-store",
    guards: "engine/ opens no transcript store: where a session lives is the session manager's (sessions/)",
    file: "src/engine/subagent.ts",
    find: 'import { openSidechainTranscript } from "../sessions/index.js";',
    replace:
      'import { openSidechainTranscript } from "../sessions/index.js";\nimport { JsonlTranscriptStore } from "../transcript/index.js";\nvoid JsonlTranscriptStore;',
    tests: ["test/architecture/import-rules.test.ts"],
  },
  {
    name: "render-over-400-lines",
    guards: "no file in src/ is over 400 lines",
    file: "src/cli/modes/render/render.ts",
    find: "export class TurnRenderer {",
    replace: `${"// padding\n".repeat(20)}export class TurnRenderer {`,
    tests: ["test/architecture/file-size.test.ts"],
  },
  {
    name: "webfetch-follows-cross-host-redirect",
    area: "tools",
    guards: "WebFetch reports a redirect to another host and does not follow it",
    file: "src/tools/web/web-fetch-http.ts",
    find: "if (!sameHost(url, next))",
    replace: "if (false && !sameHost(url, next))",
    tests: ["test/tools/web-fetch.test.ts"],
  },
  {
    name: "webfetch-no-size-cap",
    area: "tools",
    guards: "WebFetch refuses a body over its byte cap (10 MB) in one line, keeping nothing",
    file: "src/tools/web/web-fetch-http.ts",
    find: "    if (total > maxBytes) {",
    replace: "    if (false) {",
    tests: ["test/tools/web-fetch.test.ts"],
  },
  {
    name: "webfetch-domain-rule-any-host",
    area: "tools",
    guards: "a WebFetch(domain:…) allow rule allows that host only",
    file: "src/tools/permissions/permission-rules.ts",
    find: '      return host !== undefined && domainMatches(rule.specifier ?? "", host);',
    replace: "      return host !== undefined;",
    tests: ["test/tools/web-fetch.test.ts"],
  },
  {
    name: "webfetch-no-cache",
    area: "tools",
    guards: "WebFetch reuses a fetched page for 15 minutes",
    file: "src/tools/web/web-fetch-tool.ts",
    find: "const cached = cache.get(input.url);",
    replace: "const cached = undefined as ReturnType<typeof cache.get>;",
    tests: ["test/tools/web-fetch.test.ts"],
  },
  {
    name: "webfetch-not-deferred",
    area: "tools",
    guards: "WebFetch stays out of the tools block until ToolSearch loads it",
    file: "src/tools/web/web-fetch-tool.ts",
    find: "    deferLoading: true,",
    replace: "    deferLoading: false,",
    tests: ["test/tools/deferred-web-tools.test.ts"],
  },
  {
    name: "read-pdf-ignores-pages",
    area: "tools",
    guards: "Read of a PDF with pages returns only those pages",
    file: "src/tools/files/read-tool.ts",
    find: "if (looksLikePdf(head)) return readPdf(filePath, input.pages);",
    replace: "if (looksLikePdf(head)) return readPdf(filePath, undefined);",
    tests: ["test/tools/notebook-pdf.test.ts"],
  },
  {
    name: "trust-gate-always-open",
    area: "trust",
    guards: "a fresh clone's project hooks, env and .mcp.json servers do not run until the folder is trusted",
    file: "src/trust/trust-gate.ts",
    find: "  let trusted =\n    options.trustFlag === true ||",
    replace: "  let trusted =\n    true ||",
    tests: ["test/trust/trusted-folders.e2e.test.ts"],
    cli: true,
  },
  {
    name: "project-mcp-expands-secrets",
    area: "trust",
    guards: "a reference to ANTHROPIC_API_KEY in a project's .mcp.json never expands into the server's environment",
    file: "src/mcp/config-sources.ts",
    find: "  return new SecretEnvironment(env as NodeJS.ProcessEnv).toolEnv;",
    replace: "  return env as Readonly<Record<string, string>>;",
    tests: ["test/trust/trusted-folders.e2e.test.ts"],
    cli: true,
  },
  {
    name: "skill-symlink-not-confined",
    area: "trust",
    guards: "a symlinked SKILL.md or skill folder leading out of the workspace is refused",
    file: "src/trust/confine.ts",
    find: "  if (realRoots.some((root) => inside(real, root))) return { real };",
    replace: "  if (realRoots.length >= 0) return { real };",
    tests: ["test/trust/config-confinement.test.ts"],
  },
  {
    name: "broken-settings-drop-deny",
    area: "trust",
    guards: "a settings file that is not JSON keeps its salvageable deny rules",
    file: "src/settings/parse-settings-file.ts",
    find: "    settings.permissions.deny.push(...rules);",
    replace: "    void rules;",
    tests: ["test/trust/fail-closed.e2e.test.ts"],
    cli: true,
  },
  {
    name: "missing-pretooluse-hook-silent",
    area: "trust",
    guards: "a PreToolUse hook that cannot run says the call went ahead without its check",
    file: "src/hooks/hook-runner.ts",
    find: '      const why = result.exitCode === 127 ? "command or script not found" : "script is not executable";',
    replace:
      '      if (result.totalChars >= 0) return;\n      const why = result.exitCode === 127 ? "command or script not found" : "script is not executable";',
    tests: ["test/trust/fail-closed.e2e.test.ts"],
    cli: true,
  },
  {
    name: "bash-chain-ignores-substitution",
    area: "permissions",
    guards: "a chain holding $(…) is never allowed part by part",
    file: "src/tools/shell/bash-chain.ts",
    find: 'const REFUSED_UNQUOTED = new Set(["$", "`", "(", ")",',
    replace: 'const REFUSED_UNQUOTED = new Set(["(", ")",',
    tests: ["test/tools/bash-chain.test.ts"],
  },
  {
    name: "bash-chain-any-part-allows",
    area: "permissions",
    guards: "a chain runs without asking only when every part is allowed",
    file: "src/tools/permissions/permissions.ts",
    find: '    if (parts.length > 1 && parts.every(partAllowed)) return { behavior: "allow" };',
    replace: '    if (parts.length > 1 && parts.some(partAllowed)) return { behavior: "allow" };',
    tests: ["test/tools/bash-chain.test.ts"],
  },
  {
    name: "budget-ratio-ignored",
    area: "compaction",
    guards: "every budget uses the server's window divided by the calibrated ratio (the estimate's units)",
    file: "src/compaction/budget/context-thresholds.ts",
    find: "  const toEstimate = (tokens: number) => (r === 1 ? tokens : Math.floor(tokens / r));",
    replace: "  const toEstimate = (tokens: number) => tokens;",
    tests: ["test/compaction/context-thresholds.test.ts", "test/engine/one-budget.test.ts"],
  },
  {
    name: "budget-learns-up-slowly",
    area: "compaction",
    guards: "the calibration learns a larger ratio at once (an underestimate is what overflows)",
    file: "src/compaction/budget/context-budget.ts",
    find: "    this.ratio = seen >= before ? seen : (before + seen) / 2;",
    replace: "    this.ratio = (before + seen) / 2;",
    tests: ["test/compaction/context-budget.test.ts"],
  },
  {
    name: "side-request-max-tokens-unbounded",
    area: "compaction",
    guards: "a side request's max_tokens fits what is left of the server's window",
    file: "src/engine/forked-agent.ts",
    find: "  return Math.max(MIN_SIDE_REQUEST_MAX_TOKENS, window - input);",
    replace: "  return Math.max(MIN_SIDE_REQUEST_MAX_TOKENS, window);",
    tests: ["test/compaction/context-budget.test.ts"],
  },
  {
    name: "short-summary-accepted",
    area: "compaction",
    guards: "a summary far too short for what it replaces is a failed compaction",
    file: "src/compaction/summary/summary-input.ts",
    find: "  return summaryTokens < MIN_SUMMARY_TOKENS && summaryTokens < replacedTokens * MIN_SUMMARY_SHARE;",
    replace: "  return false;",
    tests: ["test/compaction/context-budget.test.ts"],
  },
  {
    name: "emulator-bills-chars-over-4",
    area: "emulator",
    guards: "the emulator counts with the Claude tokenizer, not the client's characters / 4 estimate",
    file: "packages/emulator/src/ruler.ts",
    find: '  const tokens = HAS_LONG_RUN.test(normalized)\n    ? countInPieces(normalized)\n    : loadedTokenizer().encode(normalized, "all").length;',
    replace: "  const tokens = Math.ceil(text.length / 4);",
    tests: ["test/emulator/token-ruler.test.ts"],
  },
  {
    name: "emulator-ignores-token-ratio",
    area: "emulator",
    guards: "tokenRatio scales every count the emulator makes (billing, window check, count_tokens)",
    file: "packages/emulator/src/ruler.ts",
    find: "return this.ratio === 1 ? tokens : Math.ceil(tokens * this.ratio);",
    replace: "return tokens;",
    tests: ["test/emulator/token-ruler.test.ts"],
  },
  {
    name: "emulator-flat-image-tokens",
    area: "emulator",
    guards: "an image counts from its pixel size (width × height / 750), not a flat 2,000",
    file: "packages/emulator/src/ruler.ts",
    find: "return size === undefined ? IMAGE_TOKEN_CAP : imageTokens(size.width, size.height);",
    replace: "return 2_000;",
    tests: ["test/emulator/token-ruler.test.ts"],
  },
  {
    name: "emulator-summary-on-continuation",
    area: "emulator",
    guards:
      "a message that only holds a summary (the first request after a mid-turn compaction) is a turn, not a summary request",
    file: "packages/emulator/src/model/scripted-model.ts",
    find: "|\\bconversation\\b[^\\n]{0,60}\\bsummari[sz]e\\b/i;",
    replace: "|\\bconversation\\b[^\\n]{0,60}summar(?:y|ise|ize)/i;",
    tests: ["test/emulator/summary-request.test.ts"],
  },
  {
    name: "emulator-quadratic-long-runs",
    area: "emulator",
    guards: "a long run without whitespace (minified code, base64) is counted in linear time, not by whole-word BPE",
    file: "packages/emulator/src/ruler.ts",
    find: "  const tokens = HAS_LONG_RUN.test(normalized)\n",
    replace: "  const tokens = false\n",
    tests: ["test/emulator/token-ruler.test.ts"],
  },
  {
    name: "emulator-imports-client",
    area: "emulator",
    guards: "packages/emulator imports nothing of the client's src/",
    file: "packages/emulator/src/ruler.ts",
    find: 'import { imageDimensions } from "./validator/image-size.js";',
    replace:
      'import { imageDimensions } from "./validator/image-size.js";\nimport { CHARS_PER_TOKEN } from "../../../src/messages/index.js";\nvoid CHARS_PER_TOKEN;',
    tests: ["test/architecture/import-rules.test.ts"],
  },
  {
    name: "retry-after-complete-tool-use",
    area: "exactly-once",
    guards:
      "a stream cut after a complete tool_use block is not retried: the tool would run twice (docs/EXACTLY-ONCE.md)",
    file: "src/provider/retry-loop.ts",
    find: "    if (run.completedTools > 0)\n",
    replace: "    if (run.completedTools < 0)\n",
    tests: ["test/exactly-once/cut-after-tool-use.test.ts", "test/provider/anthropic-replay.test.ts"],
  },
  {
    name: "cut-message-not-kept",
    area: "exactly-once",
    guards: "a cut message's completed tool calls are kept and answered, not reported as a failed request",
    file: "src/loop/stages/stage-stream.ts",
    find: "    if (failure.options.cutAfterTools === undefined || context.signal.aborted)",
    replace: "    if (true)",
    tests: ["test/exactly-once/cut-after-tool-use.test.ts"],
  },
  {
    name: "side-effect-before-record",
    area: "exactly-once",
    guards: "a tool with side effects starts only once its tool_use entry is in the transcript",
    file: "src/loop/tools/tool-executor.ts",
    find: "      if (item.unrecorded && !item.readOnly) return;",
    replace: "      if (item.unrecorded && item.readOnly && false) return;",
    tests: ["test/exactly-once/record-before-run.test.ts"],
  },
  {
    name: "torn-write-not-cut-back",
    area: "whole-records",
    guards: "a failed append is cut back to whole lines before it is retried",
    file: "src/transcript/jsonl-transcript-store.ts",
    find: "    if (fstatSync(fd).size !== this.#size) ftruncateSync(fd, this.#size);",
    replace: "    if (fstatSync(fd).size < 0) ftruncateSync(fd, this.#size);",
    tests: ["test/transcript/whole-records.test.ts"],
  },
  {
    name: "stale-error-reported-again",
    area: "whole-records",
    guards: "a write error mended by a later write is not reported by the next flush",
    file: "src/transcript/jsonl-transcript-store.ts",
    find: "    // Whatever failed before is mended: its entries are on disk now.\n    this.#backgroundError = undefined;",
    replace: "    // Whatever failed before is mended: its entries are on disk now.",
    tests: ["test/transcript/whole-records.test.ts"],
  },
  {
    name: "torn-tail-not-reported",
    area: "whole-records",
    guards: "a torn last line found on open is closed off and reported",
    file: "src/transcript/jsonl-transcript-store.ts",
    find: "        store.repairs.push(",
    replace: "        void store.repairs.concat(",
    tests: ["test/transcript/whole-records.test.ts"],
  },
  {
    name: "second-writer-accepted",
    area: "one-writer",
    guards: "a session held by a live process is refused to a second one, naming the holder",
    file: "src/transcript/session-lock.ts",
    find: "      if (current.host !== holder.host || alive(current.pid)) throw new StoreError(inUse(transcriptPath, current));",
    replace: "      if (current.host !== holder.host) throw new StoreError(inUse(transcriptPath, current));",
    tests: ["test/transcript/session-lock.test.ts"],
  },
  {
    name: "read-keeps-whole-line",
    area: "linear-reads",
    guards: "Read keeps only the characters of a line it shows (a huge line costs time linear in its size)",
    file: "src/tools/files/read-tool.ts",
    find: "    if (lineNumber + 1 < first || headChars >= keep) return;",
    replace:
      '    const carry = globalThis as unknown as { carried?: string };\n    carry.carried = (carry.carried ?? "") + text;\n    void carry.carried.split("\\n");\n    if (lineNumber + 1 < first || headChars >= keep) return;',
    tests: ["test/tools/read-long-line.test.ts"],
  },
  {
    name: "mcp-bad-line-unnamed",
    area: "mcp",
    guards: "a stdio line that is not JSON-RPC is quoted in the error line",
    file: "src/mcp/connection.ts",
    find: "      nameBadLines(transport);\n",
    replace: "",
    tests: ["test/mcp/connection.test.ts"],
  },
  {
    name: "plugin-project-code-not-gated",
    area: "plugins",
    guards: "hooks and MCP servers of a plugin the project's settings enabled wait for projectCodeTrusted",
    file: "src/plugins/plugin-set.ts",
    find: 'const held = plugin.origin === "project" && !projectCodeTrusted;',
    replace: "const held = false && !projectCodeTrusted;",
    tests: ["test/plugins/plugin-trust.test.ts"],
  },
  {
    name: "plugin-root-not-expanded",
    area: "plugins",
    guards: "CLAUDE_PLUGIN_ROOT in a plugin's hook command becomes the plugin's folder",
    file: "src/plugins/load-plugin.ts",
    find: "command: expandPluginRoot(hook.command, root),",
    replace: "command: hook.command,",
    tests: ["test/plugins/plugin-trust.test.ts"],
  },
  {
    name: "skill-named-by-front-matter",
    area: "plugins",
    guards: "a skill is named by its folder, not its front matter name",
    file: "src/memory/skills.ts",
    find: "const skillName = folder.namespace !== undefined ?",
    replace:
      'const skillName = stringField(parsed.data, "name") !== undefined ? stringField(parsed.data, "name") : folder.namespace !== undefined ?',
    tests: ["test/memory/lenient-front-matter.test.ts"],
  },
  {
    name: "front-matter-strict-yaml",
    area: "plugins",
    guards: "front matter that is not YAML is read as key: value lines (argument-hint: [a] [b])",
    file: "src/memory/front-matter.ts",
    find: "if (lenient !== undefined) return { data: lenient, body };",
    replace: "void lenient;",
    tests: ["test/memory/lenient-front-matter.test.ts"],
  },
  {
    name: "command-shell-not-gated",
    area: "plugins",
    guards: "a command's !`cmd` runs only when its allowed-tools allow Bash(cmd)",
    file: "src/memory/command-context.ts",
    find: "} else if (await shellMayRun(command, options)) output = await runShell(command, options);",
    replace:
      "} else if ((await shellMayRun(command, options)) || command !== '') output = await runShell(command, options);",
    tests: ["test/cli/plugins.e2e.test.ts"],
    cli: true,
  },
  {
    name: "plugin-hook-env-dropped",
    area: "plugins",
    guards: "a plugin's hook process gets CLAUDE_PLUGIN_ROOT",
    file: "src/hooks/hook-runner.ts",
    find: "    const env = { ...options.env, ...hook.env, CLAUDE_PROJECT_DIR: options.projectDir };",
    replace: "    const env = { ...options.env, CLAUDE_PROJECT_DIR: options.projectDir };",
    tests: ["test/cli/plugins.e2e.test.ts"],
    cli: true,
  },
  {
    name: "custom-agent-tools-ignored",
    area: "plugins",
    guards: "a custom subagent gets only the tools its front matter lists",
    file: "src/memory/custom-agents.ts",
    find: "...(hasTools ? { tools } : {}),",
    replace: "...(hasTools && tools.length < 0 ? { tools } : {}),",
    tests: ["test/cli/plugins.e2e.test.ts"],
    cli: true,
  },
  {
    name: "command-model-ignored",
    area: "plugins",
    guards: "a command's model: is the model of its turn",
    file: "src/engine/turn-options.ts",
    find: "  state.model = model;",
    replace: "  void model;",
    tests: ["test/cli/plugins.e2e.test.ts"],
    cli: true,
  },
  {
    name: "rewind-branch-ignored",
    area: "rewind",
    guards: "a conversation rewind record makes the timeline continue from the prompt it names (and so does a resume)",
    file: "src/timeline/timeline.ts",
    find: "    if (isConversationRewind(entry)) this.#branch = branchEntries(this.#entries);",
    replace: "    if (isConversationRewind(entry) && entry.uuid === '') this.#branch = branchEntries(this.#entries);",
    tests: ["test/checkpoints/rewind.test.ts"],
  },
  {
    name: "rewind-bash-unwatched",
    area: "rewind",
    guards: "files Bash creates or changes are checkpointed (restored, or named as not restorable)",
    file: "src/checkpoints/checkpoint-tools.ts",
    find: '    if (changes.kind === "command") return store.aroundCommand(() => tool.call(input, context));',
    replace: '    if (changes.kind === "command") return tool.call(input, context);',
    tests: ["test/checkpoints/rewind.test.ts"],
  },
  {
    name: "resume-drops-rewound-branch",
    area: "rewind",
    guards: "a resume keeps the turns a rewind left behind: still listed, still reachable",
    file: "src/transcript/resume-conversation.ts",
    find: "  for (const tip of [leaf, ...tips]) {",
    replace: "  for (const tip of [leaf]) {",
    tests: ["test/checkpoints/rewind.test.ts"],
  },
  {
    name: "esc-esc-no-rewind",
    area: "rewind",
    guards: "Esc twice at an empty prompt opens /rewind",
    file: "src/cli/modes/interactive.ts",
    find: '    if (twice && !this.#reader.clearInput() && this.#reader.waiting) this.#reader.cancel("/rewind");',
    replace: '    if (twice && !this.#reader.clearInput() && this.#reader.waiting) this.#reader.cancel("/help");',
    tests: ["test/cli/rewind-terminal.e2e.test.ts"],
    cli: true,
  },
  {
    name: "media-dimension-unchecked",
    area: "media",
    guards: "an image over the API's 8000 px per side is refused with one line before any request",
    file: "src/cli/prompt-media.ts",
    find: "  if (size !== undefined && Math.max(size.width, size.height) > MAX_IMAGE_DIMENSION)",
    replace: "  if (size !== undefined && Math.max(size.width, size.height) > MAX_IMAGE_DIMENSION * 2)",
    tests: ["test/cli/prompt-media.e2e.test.ts"],
    cli: true,
  },
  {
    name: "piped-image-as-text",
    area: "media",
    guards: "image bytes piped to print mode become an image block, not text",
    file: "src/cli/modes/print/print-mode.ts",
    find: "    if (sniffImage(bytes) !== undefined) image = bytes;",
    replace: "    if (sniffImage(bytes) === null) image = bytes;",
    tests: ["test/cli/prompt-media.e2e.test.ts"],
    cli: true,
  },
  {
    name: "background-survives-engine-close",
    area: "tools",
    guards: "every background command's process group is killed when the engine closes",
    file: "src/engine/query-engine.ts",
    find: "    await this.toolRuntime.background?.close();",
    replace: "",
    tests: ["test/tools/background-bash.test.ts"],
  },
  {
    name: "background-survives-process-exit",
    area: "tools",
    guards: "a process that exits without closing its session kills its background groups",
    file: "src/tools/shell/background-tasks.ts",
    find: "    for (const each of live) each.killAllNow();",
    replace: "    for (const each of live) void each;",
    tests: ["test/tools/background-bash.test.ts"],
  },
  {
    name: "background-shares-group",
    area: "tools",
    guards: "a background command runs in its own process group, so TaskStop reaches all it started",
    file: "src/tools/shell/background-tasks.ts",
    find: "        detached: true,",
    replace: "        detached: false,",
    tests: ["test/tools/background-bash.test.ts"],
  },
  {
    name: "todo-not-reattached",
    area: "tools",
    guards: "the task list is attached again after a compaction took its TodoWrite call out of the view",
    file: "src/loop/after-compaction.ts",
    find: "  yield* reattachTodos(turn, view);",
    replace: "",
    tests: ["test/tools/todo-write.test.ts"],
  },
  {
    name: "todo-failed-write-counts",
    area: "tools",
    guards: "a TodoWrite whose result was an error does not change the session's list",
    file: "src/tools/schedule/todo-write-tool.ts",
    find: "block.name !== TODO_WRITE_NAME || failed.has(block.id)",
    replace: "block.name !== TODO_WRITE_NAME",
    tests: ["test/tools/todo-write.test.ts"],
  },
  {
    name: "plan-mode-allows-rules",
    area: "tools",
    guards: "plan mode refuses Write, Edit and writing commands whatever the allow rules say",
    file: "src/tools/permissions/permissions.ts",
    find: '  if (policy.mode === "plan") return planModeDecision(tool, input, scope, summary);',
    replace: "",
    tests: ["test/tools/plan-mode.test.ts"],
  },
  {
    name: "plan-accepted-mode-kept",
    area: "tools",
    guards: "an accepted ExitPlanMode switches the session out of plan mode",
    file: "src/engine/plan-mode.ts",
    find: '      if (policy.mode === "plan") policy.mode = "default";',
    replace: "",
    tests: ["test/tools/plan-mode.test.ts"],
  },
  {
    name: "mcp-list-starts-untrusted",
    area: "trust",
    guards: "`threadline mcp list` in an untrusted folder names the project's servers and starts none",
    file: "src/cli/commands/mcp-command.ts",
    find: "    includeProject: trusted,",
    replace: "    includeProject: true,",
    tests: ["test/cli/mcp.e2e.test.ts"],
    cli: true,
  },
  {
    name: "context-report-ignores-ratio",
    area: "compaction-progress",
    guards: "/context and the status line show the server's tokens: the estimate times the session's calibration",
    file: "src/cli/modes/slash/context-report.ts",
    find: "  const ratio = input.thresholds.ratio;",
    replace: "  const ratio = 1;",
    tests: ["test/cli/context-report.test.ts"],
  },
  {
    name: "plan-clear-not-fresh",
    area: "tools",
    guards: "the plan approval's 'clear context' starts the plan in a fresh session",
    file: "src/cli/modes/interactive.ts",
    find: "        this.#pendingPlan = plan;",
    replace: "        void plan;",
    tests: ["test/cli/plan-terminal.e2e.test.ts"],
    cli: true,
  },
  {
    name: "plan-clear-reopens-start-mode",
    area: "tools",
    guards: "a cleared session keeps the mode the session is in now, not the one the CLI started with",
    file: "src/cli/modes/interactive.ts",
    find: "permissionMode: this.#engine?.permissions.mode ?? this.#cli.permissionMode",
    replace: "permissionMode: this.#cli.permissionMode",
    tests: ["test/cli/plan-terminal.e2e.test.ts"],
    cli: true,
  },
  {
    name: "plan-feedback-dropped",
    area: "tools",
    guards: "what the person says to change in a refused plan reaches the model",
    file: "src/engine/plan-mode.ts",
    find: "...(reply === false ? {} : { feedback: reply.reason })",
    replace: "...{}",
    tests: ["test/cli/plan-terminal.e2e.test.ts"],
    cli: true,
  },
  {
    name: "task-list-not-drawn",
    area: "tools",
    guards: "the task list is drawn under TodoWrite in the terminal",
    file: "src/cli/modes/render/render.ts",
    find: "    if (tasks !== undefined) return tasks;",
    replace: "    if (tasks === null) return tasks;",
    tests: ["test/cli/plan-terminal.e2e.test.ts"],
    cli: true,
  },
  {
    name: "compact-by-hand-own-input",
    area: "architecture",
    guards: "/compact and the loop's autocompact send the same summary request for the same timeline (one input)",
    file: "src/loop/stages/stage-compact.ts",
    find: "compactByHand(input, request)",
    replace: "compactByHand({ ...input, reservedAttachmentTokens: 0 }, request)",
    tests: ["test/engine/compact-entrance.test.ts"],
  },
  {
    name: "compaction-input-no-memory-reservation",
    area: "architecture",
    guards: "/compact leaves room for the memory files it re-attaches: the next request is within the target",
    file: "src/loop/compaction/compaction-input.ts",
    find: "{ reservedAttachmentTokens: memoryTokens(timeline.entries) }",
    replace: "{}",
    tests: ["test/engine/compact-entrance.test.ts"],
  },
  {
    name: "compact-learned-window-ignored",
    area: "architecture",
    guards: "/compact works to the window a server's own error named earlier in the session",
    file: "src/compaction/budget/context-budget.ts",
    find: "  return learnedWindow !== undefined && learnedWindow < limits.contextWindow ? learnedWindow : limits.contextWindow;",
    replace: "  return limits.contextWindow;",
    tests: ["test/engine/compact-entrance.test.ts"],
  },
  {
    name: "window-read-off-the-table",
    area: "architecture",
    guards:
      "the window is worked out in one place: no file but compaction/budget/context-budget.ts reads the table's window",
    file: "src/engine/forked-agent.ts",
    find: "  const window = (parent.budget ?? new ContextBudget()).serverWindow(model, modelOverrides);",
    replace:
      "  const window = parent.budget?.serverWindow(model, modelOverrides) ?? modelLimits(model, modelOverrides).contextWindow;",
    tests: ["test/architecture/window-owner.test.ts"],
  },
  {
    name: "pdf-lib-loaded-at-start",
    area: "start-up",
    guards: "pdf-lib is loaded by the first PDF read, not parsed by every start (docs/PERFORMANCE.md)",
    file: "src/tools/files/read-documents.ts",
    find: 'import type { PDFDocument } from "pdf-lib";',
    replace: 'import { PDFDocument } from "pdf-lib";',
    tests: ["test/architecture/start-up-imports.test.ts"],
  },
  {
    name: "pause-habits-ignored",
    area: "pauses",
    guards: "a -p session's first TTL comes from the person's gaps in earlier sessions (docs/PROMPT-CACHE.md)",
    file: "src/engine/pause-keeper.ts",
    find: "    return earlier === undefined || earlier.length === 0 ? own : [...earlier, ...own];",
    replace: "    return own;",
    tests: ["test/cli/pause-habits.e2e.test.ts"],
    cli: true,
  },
  {
    name: "pause-habits-not-saved",
    area: "pauses",
    guards: "print mode writes the person's gaps to the project's habits file when the session ends",
    file: "src/cli/modes/print/print-mode.ts",
    find: "    if (reachedServer) await setup.habits.save(engine.timeline.entries);",
    replace: "",
    tests: ["test/cli/pause-habits.e2e.test.ts"],
    cli: true,
  },
  {
    name: "first-turn-size-unknown",
    area: "pauses",
    guards: "before any response the first turn weighs one-hour against expire by their ratio, not at zero size",
    file: "src/engine/pause-keeper.ts",
    find: "    const unseen = history.contextTokens === 0;",
    replace: "    const unseen = false;",
    tests: ["test/cli/pause-habits.e2e.test.ts"],
    cli: true,
  },
  {
    name: "hook-if-ignored",
    area: "hooks",
    guards: "a hook's `if` rule keeps it from running for calls the rule does not match",
    file: "src/hooks/hook-runner.ts",
    find: "        if (hook.if !== undefined && !hookConditionMatches(hook.if, fields, scope)) continue;",
    replace: "",
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "hook-async-waited",
    area: "hooks",
    guards: "an `async: true` hook never holds the turn",
    file: "src/hooks/hook-runner.ts",
    find: "    const commands = all.filter((candidate) => candidate.async !== true);",
    replace: "    const commands = all;",
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "stop-cap-old-three",
    area: "hooks",
    guards: "Stop hooks are honoured 8 times in a row (Claude Code's cap), not 3",
    file: "src/loop/query.ts",
    find: "  if (blocks >= hooks.stopBlockCap) {",
    replace: "  if (blocks >= 3) {",
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "stop-cap-silent",
    area: "hooks",
    guards: "when the Stop cap ends a turn, a line says so",
    file: "src/loop/query.ts",
    find: '    yield recorder.notice(\n      "warning",\n',
    replace: '    recorder.notice(\n      "warning",\n',
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "stop-last-assistant-message-missing",
    area: "hooks",
    guards: "Stop hook stdin carries last_assistant_message",
    file: "src/loop/query.ts",
    find: "  const fields = { stop_hook_active: blocks > 0, last_assistant_message: turn.lastText };",
    replace: "  const fields = { stop_hook_active: blocks > 0 };",
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "hook-prompt-id-missing",
    area: "hooks",
    guards: "hook stdin carries the prompt's prompt_id",
    file: "src/hooks/hook-runner.ts",
    find: "      ...(promptId !== undefined ? { prompt_id: promptId } : {}),",
    replace: "",
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "post-tool-failure-never-fired",
    area: "hooks",
    guards: "a failed call fires PostToolUseFailure, not PostToolUse",
    file: "src/loop/tools/tool-executor.ts",
    find: '    const event: "PostToolUse" | "PostToolUseFailure" = failed ? "PostToolUseFailure" : "PostToolUse";',
    replace: '    const event: "PostToolUse" | "PostToolUseFailure" = failed ? "PostToolUse" : "PostToolUse";',
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "permission-request-allow-ignored",
    area: "hooks",
    guards: "a PermissionRequest hook's allow answers the question without asking the person",
    file: "src/engine/session-hooks.ts",
    find: '    if (decision?.behavior === "allow") return true;',
    replace: "",
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "bash-tool-response-shape",
    area: "hooks",
    guards: "PostToolUse gets Bash's tool_response as Claude Code shapes it (stdout)",
    file: "src/hooks/tool-response.ts",
    find: '      stdout: shown === "(no output)" ? "" : shown,',
    replace: '      stdout: "",',
    tests: ["test/hooks/hook-parity.test.ts"],
  },
  {
    name: "hook-if-on-stop-kept",
    area: "settings",
    guards: "a hook with `if` on an event without a tool call is named and dropped, not run on every stop",
    file: "src/settings/parse-hooks.ts",
    find: "        if (!TOOL_EVENTS.some((tool) => path === `hooks.",
    replace: "        if (false && !TOOL_EVENTS.some((tool) => path === `hooks.",
    tests: ["test/settings/hook-and-managed-settings.test.ts"],
  },
  {
    name: "settings-not-acted-on-silent",
    area: "settings",
    guards: "Claude Code settings threadline accepts but does not act on are named in one line",
    file: "src/settings/parse-settings-file.ts",
    find: "  if (notActedOn.length > 0)",
    replace: "  if (notActedOn.length > 99)",
    tests: ["test/settings/hook-and-managed-settings.test.ts"],
  },
  {
    name: "managed-hooks-only-ignored",
    area: "settings",
    guards: "the managed file's allowManagedHooksOnly keeps every other file's hooks from running",
    file: "src/settings/load-settings.ts",
    find: "    result.hooks = managed.hooks;",
    replace: "",
    tests: ["test/settings/hook-and-managed-settings.test.ts"],
  },
  {
    name: "managed-rules-only-drops-deny",
    area: "settings",
    guards: "allowManagedPermissionRulesOnly never lifts another file's deny rules",
    file: "src/settings/load-settings.ts",
    find: "    result.permissions = { ...merged.permissions, allow: managed.permissions.allow, ask: managed.permissions.ask };",
    replace:
      "    result.permissions = { ...merged.permissions, allow: managed.permissions.allow, ask: managed.permissions.ask, deny: managed.permissions.deny };",
    tests: ["test/settings/hook-and-managed-settings.test.ts"],
  },
  {
    name: "websearch-side-request-without-server-tool",
    area: "tools",
    guards: "WebSearch's side request carries the web_search_20250305 server tool, so the server searches",
    file: "src/loop/side/side-query.ts",
    find: "      serverTools: [tool],",
    replace: "      serverTools: [],",
    tests: ["test/tools/web-search.test.ts"],
  },
  {
    name: "websearch-offered-undeclared",
    area: "tools",
    guards: "a server that does not declare web search gets no WebSearch tool",
    file: "src/engine/session-tools.ts",
    find: "deferredBuiltinTools({ webSearch: webSearch === true })",
    replace: "deferredBuiltinTools({ webSearch: true })",
    tests: ["test/tools/web-search.test.ts"],
  },
  {
    name: "websearch-unpriced",
    area: "tools",
    guards: "each server web search is billed at $10 per 1,000 on top of the tokens",
    file: "src/messages/pricing.ts",
    find: "export const WEB_SEARCH_USD_PER_REQUEST = 10 / 1_000;",
    replace: "export const WEB_SEARCH_USD_PER_REQUEST = 0;",
    tests: ["test/tools/web-search.test.ts"],
  },
  {
    name: "server-tool-half-pair-sent",
    area: "request",
    guards: "half a server tool pair (a call cut before its result) is not sent; the API would refuse it",
    file: "src/request/normalize/index.ts",
    find: "  messages = pairServerToolResults(messages);\n",
    replace: "",
    tests: ["test/request/server-tool-snapshot.test.ts", "test/tools/web-search.test.ts"],
  },
  {
    name: "server-tool-citations-dropped",
    area: "request",
    guards: "a web search answer's citations are sent back byte-exactly as the server gave them",
    file: "src/request/normalize/canonical-block.ts",
    find: "  if (citations.length > 0) copy.citations = citations;",
    replace: "",
    tests: ["test/request/server-tool-snapshot.test.ts"],
  },
  {
    name: "emulator-web-search-both-domain-lists",
    area: "emulator",
    guards: "the emulator rejects a web_search tool with both allowed_domains and blocked_domains, as the API does",
    file: "packages/emulator/src/validator/server-tool-rules.ts",
    find: "  if (both(tool.allowed_domains) && both(tool.blocked_domains)) {",
    replace: "  if (false) {",
    tests: ["test/emulator/web-search.test.ts"],
  },
  {
    name: "emulator-web-search-unbilled",
    area: "emulator",
    guards: "the emulator counts each search it ran in usage.server_tool_use.web_search_requests",
    file: "packages/emulator/src/wire/messages-handler.ts",
    find: "                : { web_search_requests: reply.webSearchRequests, web_fetch_requests: 0 },",
    replace: "                : { web_search_requests: 0, web_fetch_requests: 0 },",
    tests: ["test/emulator/web-search.test.ts", "test/tools/web-search.test.ts"],
  },
  {
    name: "status-line-untrusted-runs",
    area: "settings",
    guards: "a project's statusLine command waits for a trusted folder, like its hooks (docs/TRUST.md)",
    file: "src/settings/project-code.ts",
    find: 'statusLine !== undefined && mayRun("statusLine", statusLine.command, source)',
    replace: "statusLine !== undefined",
    tests: ["test/settings/status-line-settings.test.ts", "test/cli/status-line-command.e2e.test.ts"],
    cli: true,
  },
  {
    name: "status-line-disable-all-hooks-kept",
    area: "settings",
    guards: "disableAllHooks turns that file's statusLine command off, as in Claude Code",
    file: "src/settings/parse-settings-file.ts",
    find: "    delete settings.statusLine;",
    replace: "    void settings.statusLine;",
    tests: ["test/settings/status-line-settings.test.ts"],
  },
  {
    name: "status-line-secret-env",
    area: "settings",
    guards: "the statusLine command gets the hooks' environment: secret names removed",
    file: "src/cli/modes/status/repl-status.ts",
    find: "env: () => this.#host.openEngine()?.toolRuntime.secrets.toolEnv ?? {},",
    replace: "env: () => process.env as Record<string, string>,",
    tests: ["test/cli/status-line-command.e2e.test.ts"],
    cli: true,
  },
  {
    name: "status-line-notice-repeats",
    area: "settings",
    guards: "a failing statusLine command is one notice for the run, not one per refresh",
    file: "src/cli/modes/status/status-command.ts",
    find: "    if (this.#noticed) return;",
    replace: "    if (this.#noticed && this.#closed) return;",
    tests: ["test/cli/status-line-command.e2e.test.ts"],
    cli: true,
  },
  {
    name: "status-line-runs-once",
    area: "settings",
    guards: "the statusLine command runs again when the conversation changes (debounced, never only once)",
    file: "src/cli/modes/status/status-command.ts",
    find: "    if (this.#timer !== undefined) return;",
    replace: "    if (this.#timer !== undefined || this.#lastStart > 0) return;",
    tests: ["test/cli/status-line-command.e2e.test.ts"],
    cli: true,
  },
  {
    name: "output-style-not-applied",
    area: "settings",
    guards: "the outputStyle setting's style reaches the system prompt",
    file: "src/engine/engine-setup.ts",
    find: "      ...(options.outputStyle !== undefined ? { outputStyle: options.outputStyle } : {}),\n",
    replace: "",
    tests: ["test/cli/output-style.e2e.test.ts"],
    cli: true,
  },
  {
    name: "output-style-coding-dropped",
    area: "settings",
    guards: "a style with keep-coding-instructions: true keeps the coding instructions",
    file: "src/engine/system-prompt.ts",
    find: "    ...(style.keepCodingInstructions ? [CODING_INSTRUCTIONS] : []),",
    replace: '    ...(style.keepCodingInstructions && style.prompt === "" ? [CODING_INSTRUCTIONS] : []),',
    tests: ["test/cli/output-style.e2e.test.ts"],
    cli: true,
  },
  {
    name: "output-style-clear-ignored",
    area: "settings",
    guards: "/output-style's choice applies from /clear (and never to the open session)",
    file: "src/cli/modes/slash/output-style-command.ts",
    find: "    this.#chosen = style;",
    replace: "    void style;",
    tests: ["test/cli/output-style.e2e.test.ts"],
    cli: true,
  },
  {
    name: "post-compact-not-fired",
    area: "settings",
    guards: "PostCompact hooks run after a compaction with trigger and compact_summary (docs/HOOKS.md)",
    file: "src/loop/after-compaction.ts",
    find: '  if (context.hooks?.has("PostCompact") === true) {',
    replace: '  if (context.hooks?.has("PostCompact") === false) {',
    tests: ["test/hooks/post-compact-stop-failure.test.ts"],
  },
  {
    name: "stop-failure-not-fired",
    area: "settings",
    guards: "StopFailure hooks run when a failed API request ends the turn (docs/HOOKS.md)",
    file: "src/loop/stages/stage-recover.ts",
    find: "  return stop(reason, message, stopFailureType(failure.kind));",
    replace: "  return stop(reason, message);",
    tests: ["test/hooks/post-compact-stop-failure.test.ts"],
  },
  {
    name: "stop-failure-matcher-ignored",
    area: "settings",
    guards: "a StopFailure matcher is compared with the error type, as in Claude Code",
    file: "src/hooks/hook-runner.ts",
    find: '  "StopFailure",\n  "Notification",\n]);',
    replace: '  "Notification",\n]);',
    tests: ["test/hooks/post-compact-stop-failure.test.ts"],
  },
  {
    name: "main-retry-not-recorded",
    area: "refused-requests",
    guards: "each attempt of a conversation request the provider retried after a refusal is a request-failed record",
    file: "src/loop/stages/stage-stream.ts",
    find: '          recordFailure(turn, { purpose: "turn", model: sentModel, error: event.error, retried: true });\n',
    replace: "",
    tests: ["test/cli/inspect-refused.e2e.test.ts"],
    cli: true,
  },
  {
    name: "main-refusal-not-recorded",
    area: "refused-requests",
    guards: "a conversation request refused for good (a 400 prompt is too long) is a request-failed record",
    file: "src/loop/stages/stage-stream.ts",
    find: '    recordFailure(turn, { purpose: "turn", model: sentModel, error: failure, retried: false });\n',
    replace: "",
    tests: ["test/cli/inspect-refused.e2e.test.ts"],
    cli: true,
  },
  {
    name: "side-request-retry-not-recorded",
    area: "refused-requests",
    guards: "a compaction summary the server refused and the provider retried is a request-failed record",
    file: "src/engine/forked-agent.ts",
    find: "  const options = { onRetry, ...(parent.signal !== undefined ? { signal: parent.signal } : {}) };",
    replace: "  const options = { ...(parent.signal !== undefined ? { signal: parent.signal } : {}) };",
    tests: ["test/cli/inspect-refused.e2e.test.ts"],
    cli: true,
  },
  {
    name: "inspect-ignores-refusals",
    area: "refused-requests",
    guards: "inspect counts request-failed records beside the answered requests, in text, --json and --html",
    file: "src/cli/inspect/report.ts",
    find: '        if (!this.#refusals.addRecord(record, line)) this.#skip("request-failed");',
    replace: '        this.#skip("request-failed");',
    tests: ["test/cli/inspect-refused.e2e.test.ts"],
    cli: true,
  },
  {
    name: "inspect-ignores-claude-code-refusals",
    area: "refused-requests",
    guards: "inspect counts Claude Code's api_error retries and synthetic error replies as refused requests",
    file: "src/cli/inspect/refusals.ts",
    find: '    const list = format === "threadline" ? this.#threadline : this.#claudeCode;',
    replace: "    const list = this.#threadline;",
    tests: ["test/cli/inspect-claude-code.test.ts"],
  },
  {
    name: "count-tokens-undeclared",
    area: "refused-requests",
    guards: "no count_tokens request goes to a server that has not declared tokenCounting",
    file: "src/loop/budget/count-tokens.ts",
    find: "  if (capabilities(turn).tokenCounting !== true || provider.countTokens === undefined) return false;",
    replace: "  if (provider.countTokens === undefined) return false;",
    tests: ["test/engine/token-counting.test.ts"],
  },
  {
    name: "count-tokens-not-after-compaction",
    area: "refused-requests",
    guards: "where counting is declared, the first request after a compaction is counted before it is sent",
    file: "src/loop/budget/count-tokens.ts",
    find: '  if (sessionBudget(turn).pendingTarget !== undefined) return "after-compaction";',
    replace: "",
    tests: ["test/engine/token-counting.test.ts"],
  },
  {
    name: "worktree-cwd-ignored",
    area: "tools",
    guards: "after EnterWorktree every tool call works in the worktree, not the main checkout",
    file: "src/loop/tools/tool-executor.ts",
    find: "        cwd: options.runtime?.worktree?.cwd() ?? options.cwd,",
    replace: "        cwd: options.cwd,",
    tests: ["test/tools/worktree-tools.test.ts"],
  },
  {
    name: "worktree-keep-stays-inside",
    area: "tools",
    guards: "ExitWorktree keep returns the session to the directory it started in",
    file: "src/tools/worktree/worktree-session.ts",
    find: '    if (action === "keep") {\n      this.#current = undefined;',
    replace: '    if (action === "keep") {',
    tests: ["test/tools/worktree-tools.test.ts"],
  },
  {
    name: "worktree-remove-unchecked",
    area: "tools",
    guards: "ExitWorktree remove refuses over uncommitted files or commits until discard_changes",
    file: "src/tools/worktree/worktree-session.ts",
    find: "    if (!discardChanges && (work.files.length > 0 || work.commits > 0))",
    replace: "    if (false)",
    tests: ["test/tools/worktree-tools.test.ts"],
  },
  {
    name: "worktree-left-at-session-end",
    area: "tools",
    guards: "at session end an entered worktree without work is removed, one with work kept and named",
    file: "src/engine/query-engine.ts",
    find: "    const left = (await this.toolRuntime.worktree?.close()) ?? [];",
    replace: "    const left: string[] = [];",
    tests: ["test/tools/worktree-tools.test.ts"],
  },
  {
    name: "shift-tab-not-decoded",
    area: "permissions",
    guards: "Shift+Tab (ESC [ Z) reaches the mode cycle",
    file: "src/cli/terminal/keys.ts",
    find: '  ["\\x1b[Z", { type: "back-tab" }],',
    replace: "",
    tests: ["test/cli/mode-cycle.e2e.test.ts"],
    cli: true,
  },
  {
    name: "mode-cycle-skips-plan",
    area: "permissions",
    guards: "Shift+Tab's cycle is Claude Code's: default, acceptEdits, plan (bypassPermissions only where allowed)",
    file: "src/cli/modes/questions/mode-cycle.ts",
    find: '    "plan",\n    ...(bypassAllowed',
    replace: "    ...(bypassAllowed",
    tests: ["test/cli/mode-cycle.e2e.test.ts"],
    cli: true,
  },
  {
    name: "background-end-untold",
    area: "tools",
    guards: "a background command that ends is told to the model at its next request (Claude Code's task-notification)",
    file: "src/loop/query.ts",
    find: "  yield* notifyFinishedTasks(turn);\n",
    replace: "",
    tests: ["test/tools/background-bash.test.ts"],
  },
  {
    name: "lean-tools-never",
    area: "compaction",
    guards: "a session whose tools block takes over a quarter of the server's window switches to lean definitions",
    file: "src/compaction/budget/context-budget.ts",
    find: "    this.leanTools = true;\n    return true;",
    replace: "    return false;",
    tests: ["test/engine/lean-tools.test.ts"],
  },
  {
    name: "summary-max-tokens-whole-reserve",
    area: "compaction",
    guards: "a summary's max_tokens leaves the kept tail room under the compaction target",
    file: "src/compaction/summary/compact-conversation.ts",
    find: "  return Math.max(DEFAULT_MIN_SUMMARY_TOKENS, Math.min(reserve, room));",
    replace: "  return Math.max(DEFAULT_MIN_SUMMARY_TOKENS, reserve);",
    tests: ["test/engine/compaction-16k-target.test.ts"],
  },
  {
    name: "compaction-target-ignores-prefix",
    area: "compaction",
    guards: "the compaction target leaves the conversation room above a prefix that takes most of the threshold",
    file: "src/compaction/budget/thresholds.ts",
    find: "  return Math.max(plain, Math.floor(fixed + (threshold - fixed) * MIN_CONVERSATION_ROOM_RATIO));",
    replace: "  return plain;",
    tests: ["test/compaction/thresholds.test.ts"],
  },
  {
    name: "trail-budget-ignored",
    area: "compaction",
    guards: "the artifact trail rendered for a budget lists only what fits, the most recent first",
    file: "src/compaction/summary/artifact-trail.ts",
    find: "    if (estimateTextTokens(text) <= maxTokens) return text;",
    replace: "    if (text !== maxTokens.toString()) return text;",
    tests: ["test/compaction/artifact-trail.test.ts"],
  },
  {
    name: "trail-unbudgeted",
    area: "compaction",
    guards: "a compaction fits the artifact trail to a share of the room it leaves (40K counted ×10 within target)",
    file: "src/compaction/summary/compact-conversation.ts",
    find: "  const trailText = renderArtifactTrail(trail, Math.floor(roomAfter * TRAIL_ROOM_SHARE));",
    replace: "  const trailText = renderArtifactTrail(trail);",
    tests: ["test/engine/token-ratio.test.ts"],
  },
  {
    name: "prompt-lost-on-second-drop",
    area: "compaction",
    guards: "a drop step keeps the person's prompt an earlier drop marker carried (the task is never dropped)",
    file: "src/compaction/tail/kept-prompt.ts",
    find: "      if (at >= 0) return text.slice(at + KEPT_PROMPT_LABEL.length);",
    replace: "      if (at < -1) return text;",
    tests: ["test/compaction/context-budget.test.ts"],
  },
  {
    name: "prompt-not-kept-after-summary",
    area: "compaction",
    guards: "the person's current prompt goes on after a summary when the kept tail does not hold it",
    file: "src/compaction/summary/compact-conversation.ts",
    find: "  const summaryText = compactSummaryText(summary, currentPrompt(kept) === undefined ? withPrompt : trailText);",
    replace: "  const summaryText = compactSummaryText(summary, trailText);",
    tests: ["test/engine/token-ratio.test.ts"],
  },
  {
    name: "manual-compact-keeps-old-prompt",
    area: "compaction",
    guards: "a manual /compact between turns does not carry the answered prompt on as the request being worked on",
    file: "src/compaction/summary/compact-conversation.ts",
    find: '  const prompt = options.trigger === "manual" ? undefined : currentPrompt(view);',
    replace: "  const prompt = currentPrompt(view);",
    tests: ["test/engine/compact-entrance.test.ts"],
  },
  {
    name: "agent-isolation-cwd",
    area: "tools",
    guards:
      'an Agent with isolation "worktree" works in its own worktree: its write lands there, not in the main checkout',
    file: "src/engine/subagent.ts",
    find: "  const cwd = worktree?.path ?? environment.cwd;",
    replace: "  const cwd = environment.cwd;",
    tests: ["test/engine/agent-isolation.test.ts"],
  },
  {
    name: "agent-worktree-dirty-kept",
    area: "tools",
    guards: "an isolated agent's worktree with changes is kept and named in the Agent result",
    file: "src/engine/subagent-isolation.ts",
    find: "    if (work.files.length > 0 || work.commits > 0) return kept;",
    replace: "    if (work.files.length < 0) return kept;",
    tests: ["test/engine/agent-isolation.test.ts"],
  },
  {
    name: "agent-worktree-clean-removed",
    area: "tools",
    guards: "an isolated agent's worktree left unchanged is removed with its branch",
    file: "src/engine/subagent-isolation.ts",
    find: "    if (work.files.length > 0 || work.commits > 0) return kept;",
    replace: "    if (work.files.length >= 0) return kept;",
    tests: ["test/engine/agent-isolation.test.ts"],
  },
  {
    name: "agent-isolation-not-a-repository",
    area: "tools",
    guards: 'isolation "worktree" outside a git repository is one line naming it, and nothing starts',
    file: "src/engine/subagent-isolation.ts",
    find: "  if (root === undefined)\n    throw new Error(",
    replace: '  if (root === "")\n    throw new Error(',
    tests: ["test/engine/agent-isolation.test.ts"],
  },
  {
    name: "agent-model-alias",
    area: "tools",
    guards: "an Agent call's model alias picks the subagent's model",
    file: "src/engine/subagent.ts",
    find: "      model: model ?? environment.model(),",
    replace: "      model: type.model ?? environment.model(),",
    tests: ["test/engine/agent-isolation.test.ts"],
  },
  {
    name: "agent-background-waits",
    area: "tools",
    guards: "Agent run_in_background returns before the subagent has finished",
    file: "src/tools/agents/agent-tool.ts",
    find: "        if (input.run_in_background === true)",
    replace: "        if (input.run_in_background === false)",
    tests: ["test/engine/agent-background.test.ts"],
  },
  {
    name: "agent-background-notification",
    area: "tools",
    guards: "a background agent that finishes is told to the model at its next request with its result",
    file: "src/loop/side/task-notifications.ts",
    find: '{ text: task.outcome?.notification ?? "", display: task.outcome?.display }',
    replace: '{ text: "", display: task.outcome?.display }',
    tests: ["test/engine/agent-background.test.ts"],
  },
  {
    name: "agent-background-usage",
    area: "tools",
    guards:
      "a background agent's tokens are counted with the parent's records (its notification carries the run's totals)",
    file: "src/loop/side/task-notifications.ts",
    find: '        : { text: task.outcome?.notification ?? "", display: task.outcome?.display },',
    replace: '        : { text: task.outcome?.notification ?? "", display: undefined },',
    tests: ["test/engine/agent-background.test.ts"],
  },
  {
    name: "agent-job-stop-aborts",
    area: "tools",
    guards: "TaskStop of a background agent aborts its loop (its request is cancelled)",
    file: "src/tools/shell/background-tasks.ts",
    find: "      running.controller.abort();\n      await running.exited;",
    replace: "      await Promise.race([running.exited, new Promise((resolve) => setTimeout(resolve, 100))]);",
    tests: ["test/engine/agent-background.test.ts"],
  },
  {
    name: "agent-job-close",
    area: "tools",
    guards: "closing the session aborts every background agent and removes its clean worktree",
    file: "src/tools/shell/background-tasks.ts",
    find: '    await Promise.all([...this.#tasks.keys()].map((id) => this.#end(id, "stopped")));',
    replace:
      '    await Promise.all([...this.#tasks.keys()].filter((id) => this.#tasks.get(id)?.task.kind === "command").map((id) => this.#end(id, "stopped")));',
    tests: ["test/engine/agent-background.test.ts"],
  },
  {
    name: "agent-background-asks",
    area: "tools",
    guards: "a background agent's call that needs approval is refused, never asked between other turns",
    file: "src/engine/subagent.ts",
    find: "      policy: request.background === true ? withoutQuestions(environment.policy) : environment.policy,",
    replace: "      policy: environment.policy,",
    tests: ["test/engine/agent-background.test.ts"],
  },
  {
    name: "cron-not-strictly-after",
    area: "tools",
    guards: "a cron job's next fire time is strictly after now, never the minute it was asked in",
    file: "src/tools/schedule/cron-expression.ts",
    find: "  date.setSeconds(0, 0);\n  date.setMinutes(date.getMinutes() + 1);\n",
    replace: "  date.setSeconds(0, 0);\n",
    tests: ["test/tools/cron-expression.test.ts"],
  },
  {
    name: "cron-day-and",
    area: "tools",
    guards: "with both day fields restricted, a day matching either fires (Vixie cron)",
    file: "src/tools/schedule/cron-expression.ts",
    find: "  return byMonth || byWeek;",
    replace: "  return byMonth && byWeek;",
    tests: ["test/tools/cron-expression.test.ts"],
  },
  {
    name: "cron-sunday-seven",
    area: "tools",
    guards: "7 in the day-of-week field is Sunday",
    file: "src/tools/schedule/cron-expression.ts",
    find: 'values.add(rule.name === "day-of-week" ? value % 7 : value)',
    replace: "values.add(value)",
    tests: ["test/tools/cron-expression.test.ts"],
  },
  {
    name: "monitor-events-not-drained",
    area: "tools",
    guards: "a Monitor's stdout lines reach the model's next request as task-notification events",
    file: "src/loop/side/task-notifications.ts",
    find: "    ...(monitors?.take(ended).map((batch) => ({ text: monitorEventText(batch) })) ?? []),\n",
    replace: "",
    tests: ["test/tools/monitor-tool.test.ts"],
  },
  {
    name: "monitor-timeout-cap",
    area: "tools",
    guards: "a Monitor deadline over 600000 ms is cut to 600000 ms",
    file: "src/tools/shell/monitor-tool.ts",
    find: "const timeoutMs = Math.min(input.timeout_ms, MAX_MONITOR_TIMEOUT_MS);",
    replace: "const timeoutMs = input.timeout_ms;",
    tests: ["test/tools/monitor-tool.test.ts"],
  },
  {
    name: "print-mode-silent",
    area: "tools",
    guards: "outside the interactive loop CronCreate says plainly that its job will not fire",
    file: "src/tools/schedule/cron-tools.ts",
    find: "      ...(schedule.firesWhenIdle ? [] : [WILL_NOT_FIRE]),\n",
    replace: "",
    tests: ["test/tools/scheduled-prompts.test.ts"],
  },
  {
    name: "repl-not-firing",
    area: "tools",
    guards: "the interactive REPL's session fires scheduled prompts (so CronCreate does not say they will not)",
    file: "src/cli/modes/interactive.ts",
    find: "if (opened.engine.toolRuntime.scheduled !== undefined) opened.engine.toolRuntime.scheduled.firesWhenIdle = true;",
    replace: "",
    tests: ["test/cli/schedule.e2e.test.ts"],
    cli: true,
  },
  {
    name: "idle-timer-not-armed",
    area: "tools",
    guards: "a scheduled prompt fires while the REPL waits at its prompt, without any input",
    file: "src/cli/modes/idle-prompts.ts",
    find: "    if (schedule?.firesWhenIdle === true) arm();",
    replace: "",
    tests: ["test/tools/scheduled-prompts.test.ts"],
  },
  {
    name: "wakeup-not-clamped",
    area: "tools",
    guards: "ScheduleWakeup's delay is clamped to at least 60 seconds",
    file: "src/tools/schedule/scheduled-prompts.ts",
    find: "Math.min(WAKEUP_MAX_SECONDS, Math.max(WAKEUP_MIN_SECONDS, delaySeconds))",
    replace: "Math.min(WAKEUP_MAX_SECONDS, delaySeconds)",
    tests: ["test/tools/scheduled-prompts.test.ts"],
  },
  {
    name: "one-shot-kept",
    area: "tools",
    guards: "a one-shot CronCreate job fires once, then is deleted",
    file: "src/tools/schedule/scheduled-prompts.ts",
    find: 'const next = job.kind === "cron" && job.recurring && expression ?',
    replace: 'const next = job.kind === "cron" && expression ?',
    tests: ["test/tools/scheduled-prompts.test.ts"],
  },
  {
    name: "recurring-never-expires",
    area: "tools",
    guards: "a recurring CronCreate job is deleted after its 7 days",
    file: "src/tools/schedule/scheduled-prompts.ts",
    find: "if (next !== undefined && next <= job.createdAt + RECURRING_JOB_LIFETIME_MS) {",
    replace: "if (next !== undefined) {",
    tests: ["test/tools/scheduled-prompts.test.ts"],
  },
  {
    name: "sandbox-probe-at-start",
    area: "tools",
    guards: "the bubblewrap probe runs on the first Bash call, not before a print-mode session's first request",
    file: "src/tools/tool-runtime.ts",
    find: "  let decided: { status: SandboxStatus; settings?: SandboxSettings } | undefined;",
    replace:
      "  let decided: { status: SandboxStatus; settings?: SandboxSettings } | undefined = decideSandbox(pathVariable, options);",
    tests: ["test/cli/start-up-work.e2e.test.ts"],
    cli: true,
  },
  {
    name: "print-mode-probes-for-notice",
    area: "tools",
    guards: "print mode reads the sandbox's status (which probes) only when --sandbox or -v wants its notice",
    file: "src/cli/modes/print/print-mode.ts",
    find: "  const notice = cli.sandbox === true || cli.verbose ? sandboxNotice(engine.sandbox) : undefined;",
    replace:
      "  const status = engine.sandbox;\n  const notice = cli.sandbox === true || cli.verbose ? sandboxNotice(status) : undefined;",
    tests: ["test/cli/start-up-work.e2e.test.ts"],
    cli: true,
  },
  {
    name: "semi-space-grows",
    area: "tools",
    guards: "print mode keeps V8's young generation at its starting size (--semi-space-growth-factor=1)",
    file: "src/cli/v8-flags.ts",
    find: '  "--semi-space-growth-factor=1",\n',
    replace: "",
    tests: ["test/cli/start-up-work.e2e.test.ts"],
    cli: true,
  },
  {
    name: "v8-flags-after-bundle",
    area: "tools",
    guards:
      "bin/threadline sets the V8 flags before the CLI's bundle loads (its evaluation is where the new space grows)",
    file: "bin/threadline",
    find: '    flags.applyCliV8Flags(process.argv.slice(2));\n    return import("../dist/bundle/main.js");\n',
    replace:
      '    return import("../dist/bundle/main.js").then((cli) => {\n      flags.applyCliV8Flags(process.argv.slice(2));\n      return cli;\n    });\n',
    tests: ["test/cli/start-up-work.e2e.test.ts"],
    cli: true,
  },
  {
    name: "turbofan-on",
    area: "tools",
    guards:
      "print mode runs JavaScript without TurboFan (--no-opt): its compiler zones were the 40-step session's peak",
    file: "src/cli/v8-flags.ts",
    find: '  "--no-opt",\n',
    replace: "",
    tests: ["test/cli/start-up-work.e2e.test.ts"],
    cli: true,
  },
  {
    name: "send-message-not-deferred",
    area: "tools",
    guards: "SendMessage is deferred behind ToolSearch, as Claude Code defers it",
    file: "src/tools/agents/send-message-tool.ts",
    find: "  deferLoading: true,",
    replace: "  deferLoading: false,",
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "send-message-inbox-undrained",
    area: "tools",
    guards: "a message SendMessage queued for a running background agent is in that agent's next request",
    file: "src/loop/query.ts",
    find: "  yield* deliverInboxMessages(turn);\n",
    replace: "",
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "send-message-after-end",
    area: "tools",
    guards: "a message that arrives after a background agent's last request starts another turn of it",
    file: "src/engine/subagent.ts",
    find: 'status === "completed" && !request.signal.aborted && inbox !== undefined ? inbox.closeIfEmpty() : []',
    replace: "[]",
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "send-message-unknown-list",
    area: "tools",
    guards: "SendMessage to an unknown id is one error line naming the session's background agents",
    file: "src/tools/agents/send-message-tool.ts",
    find: '  if (agents.length === 0) return "This session has no background agents.";',
    replace: '  if (agents.length >= 0) return "This session has no background agents.";',
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "send-message-subagent",
    area: "tools",
    guards: "subagents do not get SendMessage",
    file: "src/tools/agents/send-message-tool.ts",
    find: "traits: { forSubagents: false },",
    replace: "traits: {},",
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "breaker-judges-plain-target",
    area: "compaction",
    guards:
      "autocompact's breaker judges a compaction against the bound above the prefix and what no compaction removes",
    file: "src/compaction/summary/compact-conversation.ts",
    find: "    targetTokens: judgedTarget,",
    replace: "    targetTokens: target,",
    tests: ["test/engine/lean-tools.test.ts"],
  },
  {
    name: "cold-start-hedge-off",
    area: "cache",
    guards: "a print-mode cold start holds the system prompt and tools for an hour under a 5-minute conversation",
    file: "src/cache/pause-policy.ts",
    find: '    prefixTtl: policy === "one-hour" || hedged ? "1h" : "5m",',
    replace: '    prefixTtl: policy === "one-hour" ? "1h" : "5m",',
    tests: ["test/engine/pause-keeper.test.ts", "test/cache/pause-policy.test.ts"],
  },
  {
    name: "hedge-after-a-gap",
    area: "cache",
    guards: "the cold-start hedge ends once one of the person's gaps is seen",
    file: "src/cache/pause-policy.ts",
    find: "    observedGapsMs.length === 0 &&",
    replace: "    observedGapsMs.length >= 0 &&",
    tests: ["test/cache/pause-policy.test.ts"],
  },
  {
    name: "hedge-with-keep-warm",
    area: "cache",
    guards: "no cold-start hedge where keep-warm can pay for the pause (a person at the terminal)",
    file: "src/cache/pause-policy.ts",
    find: "coldStartHedge(observedGapsMs, situation, settings) && !keepWarmOpen;",
    replace: "coldStartHedge(observedGapsMs, situation, settings);",
    tests: ["test/engine/pause-keeper.test.ts", "test/cache/pause-policy.test.ts"],
  },
  {
    name: "hedge-ttl-everywhere",
    area: "cache",
    guards: "the cold-start hedge puts the 1-hour TTL on the system markers only, never on the conversation",
    file: "src/request/cache-breakpoints.ts",
    find: "  const marker = cacheControl(ttl);",
    replace: "  const marker = cacheControl(options.prefixTtl ?? ttl);",
    tests: ["test/engine/pause-keeper.test.ts"],
  },
  {
    name: "ttl-from-first-marker",
    area: "cache",
    guards:
      "the break detector takes the conversation's TTL from the last marker: a 1h system prompt over a 5m conversation expires at 5 minutes",
    file: "src/cache/fingerprint.ts",
    find: "  marker ??= last(request.body.system ?? []) ?? last(request.body.tools ?? []);",
    replace: "  marker = last(request.body.system ?? []) ?? marker;",
    tests: ["test/cache/break-detector.test.ts"],
  },
  {
    name: "builtins-after-flags",
    area: "tools",
    guards: "print mode loads Node's built-in modules before it sets V8's flags, so their code cache is not rejected",
    file: "src/cli/v8-flags.ts",
    find: "  preloadBuiltins();\n",
    replace: "",
    tests: ["test/cli/start-up-work.e2e.test.ts"],
    cli: true,
  },
  {
    name: "undici-after-flags",
    area: "tools",
    guards: "undici (the SDK's Headers and fetch) is loaded before V8's flags are set, with Node's code cache",
    file: "src/cli/v8-flags.ts",
    find: "  return [globalThis.Headers, fs.ReadStream,",
    replace: "  return [fs.ReadStream,",
    tests: ["test/cli/start-up-work.e2e.test.ts"],
    cli: true,
  },
  {
    name: "stream-event-schemas-at-load",
    area: "tools",
    guards: "the stream event schemas are built on first use, not when the module loads (issue 44's start-up)",
    file: "src/provider/stream-events.ts",
    find: "let built: StreamEventSchemas | undefined;",
    replace: "let built: StreamEventSchemas | undefined = buildStreamEventSchemas();",
    tests: ["test/architecture/start-up-imports.test.ts"],
  },
  {
    name: "entry-schemas-at-load",
    area: "tools",
    guards: "the transcript entry schemas are built on first use, not when the module loads (issue 44's start-up)",
    file: "src/transcript/entry-schema.ts",
    find: "let built: Schemas | undefined;",
    replace: "let built: Schemas | undefined;\nconst eagerTitle = z.object({ customTitle: z.string() });",
    tests: ["test/architecture/start-up-imports.test.ts"],
  },
  {
    name: "workflow-resume-ignores-cache",
    area: "tools",
    guards: "resumeFromRunId replays the earlier run's cached agent() calls",
    file: "src/tools/agents/workflow-cache.ts",
    find: "    if (this.#broken) return undefined;",
    replace: "    if (this.#broken || true) return undefined;",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-resume-past-mismatch",
    area: "tools",
    guards: "after the first changed agent() call every later call runs again (positional cache)",
    file: "src/tools/agents/workflow-cache.ts",
    find: "      this.#broken = true;\n      return undefined;",
    replace: "      return undefined;",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-concurrency-unbounded",
    area: "tools",
    guards: "a workflow runs at most 4 subagents at once",
    file: "src/tools/agents/workflow-run.ts",
    find: "  const slots = new Slots(options.concurrency ?? DEFAULT_WORKFLOW_CONCURRENCY);",
    replace: "  const slots = new Slots(1000);",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-concurrency-serial",
    area: "tools",
    guards: "parallel() in a workflow runs its agents concurrently, not one by one",
    file: "src/tools/agents/workflow-run.ts",
    find: "  const slots = new Slots(options.concurrency ?? DEFAULT_WORKFLOW_CONCURRENCY);",
    replace: "  const slots = new Slots(1);",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-untrusted-project-loaded",
    area: "tools",
    guards: "a project's .claude/workflows script loads only in a trusted folder",
    file: "src/tools/agents/workflow-tool.ts",
    find: "  if (existsSync(projectFile) && options.projectCodeTrusted)",
    replace: "  if (existsSync(projectFile))",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-read-only",
    area: "tools",
    guards: "Workflow is not read-only: asked about like Bash, refused in plan mode",
    file: "src/tools/agents/workflow-tool.ts",
    find: "    isReadOnly: () => false,",
    replace: "    isReadOnly: () => true,",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-stop-ignores-signal",
    area: "tools",
    guards: "TaskStop of a workflow aborts its running agents",
    file: "src/tools/agents/workflow-run.ts",
    find: "          { signal: options.signal, toolUseId: options.toolUseId },",
    replace: "          { signal: new AbortController().signal, toolUseId: options.toolUseId },",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-schema-no-retry",
    area: "tools",
    guards: "an agent() answer that is not JSON for its schema gets one retry told the error",
    file: "src/tools/agents/workflow-agent.ts",
    find: '  if ("value" in parsed) return parsed.value;',
    replace: '  if ("value" in parsed) return parsed.value;\n  throw new Error(parsed.error);',
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-notification-no-result",
    area: "tools",
    guards: "a workflow's notification carries the script's returned value",
    file: "src/tools/agents/workflow-run.ts",
    find: "      ...(result !== undefined ? [",
    replace: '      ...(result === "never" ? [',
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-error-no-line",
    area: "tools",
    guards: "a workflow that throws or does not parse is reported with its script line",
    file: "src/tools/agents/workflow-run.ts",
    find: "    const where = line !== undefined ? ` (script line",
    replace: "    const where = line === -1 ? ` (script line",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-in-subagents",
    area: "tools",
    guards: "subagents do not get the Workflow tool",
    file: "src/tools/agents/workflow-tool.ts",
    find: "traits: { forSubagents: false },",
    replace: "traits: {},",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-structured-outputs-off",
    area: "tools",
    guards:
      "a Workflow agent with a schema asks a server that declares structured outputs for them (output_config.format)",
    file: "src/engine/subagent.ts",
    find: "  if (schema === undefined || provider.capabilities.structuredOutputs !== true) return {};",
    replace: "  if (schema === undefined || provider.capabilities.structuredOutputs !== true || true) return {};",
    tests: ["test/engine/workflow.test.ts"],
  },
  {
    name: "workflow-pipeline-barrier",
    area: "tools",
    guards: "pipeline() moves each item through its stages on its own (no barrier between stages)",
    file: "src/tools/agents/workflow-script.ts",
    find: "      for (const stage of stages as Array<(value: unknown, index: number) => unknown>)\n        value = await stage(value, index);\n      return value;\n    }),\n  );",
    replace:
      "      return value;\n    }),\n  ).then(async (values) => {\n    for (const stage of stages) values = await Promise.all(values.map((each, index) => stage(each, index)));\n    return values;\n  });",
    tests: ["test/tools/workflow-script.test.ts"],
  },
  {
    name: "workflow-max-agents-unbounded",
    area: "tools",
    guards: "a Workflow run refuses agent() calls past 50",
    file: "src/tools/agents/workflow-run.ts",
    find: "    if (at >= maxAgents)",
    replace: "    if (at >= maxAgents * 1000)",
    tests: ["test/tools/workflow-run.test.ts"],
  },
  {
    name: "workflow-result-uncapped",
    area: "tools",
    guards: "a Workflow notification's value is capped at 20,000 characters (result.json has it all)",
    file: "src/tools/agents/workflow-run.ts",
    find: "  if (json.length <= DEFAULT_WORKFLOW_RESULT_CHARS) return json;",
    replace: "  if (json.length > 0) return json;",
    tests: ["test/tools/workflow-run.test.ts"],
  },
  {
    name: "agent-effort-not-sent",
    area: "tools",
    guards: "an Agent effort the server declares for the subagent's model is sent as output_config.effort",
    file: "src/engine/effort-support.ts",
    find: "  if (declared.includes(level)) return { effort: { level, model } };",
    replace: "  if (declared.includes(level)) return {};",
    tests: ["test/engine/agent-effort.test.ts"],
  },
  {
    name: "request-effort-dropped",
    area: "tools",
    guards: "request assembly sends the effort it is given as output_config.effort",
    file: "src/request/params.ts",
    find: "      ...(settings.effort !== undefined ? { effort: settings.effort } : {}),\n",
    replace: "",
    tests: ["test/engine/agent-effort.test.ts"],
  },
  {
    name: "agent-effort-unchecked",
    area: "tools",
    guards: "an effort level the server does not declare for the model is never sent",
    file: "src/engine/effort-support.ts",
    find: "  if (declared.includes(level)) return",
    replace: "  if (declared.includes(level) || level !== undefined) return",
    tests: ["test/engine/agent-effort.test.ts"],
  },
  {
    name: "agent-effort-always-asks",
    area: "tools",
    guards: "a run without effort asks the Models API nothing",
    file: "src/engine/effort-support.ts",
    find: "  if (level === undefined) return {};\n",
    replace: "",
    tests: ["test/engine/agent-effort.test.ts"],
  },
  {
    name: "agent-effort-notice-missing",
    area: "tools",
    guards: "a dropped effort is said once in the Agent tool's result",
    file: "src/tools/agents/agent-tool.ts",
    find: "        return withNotices(agentOutput(result, input.description), notices);",
    replace: "        return agentOutput(result, input.description);",
    tests: ["test/engine/agent-effort.test.ts"],
  },
  {
    name: "emulator-effort-unchecked",
    area: "emulator",
    guards: "the emulator refuses an effort level the model does not declare in GET /v1/models",
    file: "packages/emulator/src/validator/request-rules.ts",
    find: "        if (!effortLevels(body.model).includes(effort))",
    replace: "        if (effortLevels(body.model).length < 0)",
    tests: ["test/emulator/server.test.ts"],
  },
  {
    name: "send-message-no-resume",
    area: "tools",
    guards: "SendMessage to a finished background agent resumes it",
    file: "src/tools/agents/send-message-tool.ts",
    find: '    if (settled?.kind !== "job" || settled.resume === undefined)',
    replace: "    if (settled !== undefined)",
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "resume-fresh-history",
    area: "tools",
    guards: "a resumed agent goes on with its kept conversation, not an empty one",
    file: "src/engine/subagent.ts",
    find: "{ ...conversation, agentId, worktree: undefined, resumed: true }",
    replace: "{ ...conversation, timeline: new Timeline(), agentId, worktree: undefined, resumed: true }",
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "list-agents-status",
    area: "tools",
    guards: "ListAgents names how each background agent ended (completed, failed, stopped) or that it runs",
    file: "src/tools/agents/list-agents-tool.ts",
    find: '  if (task.state === "running") return "running";',
    replace: '  return "running";',
    tests: ["test/tools/list-agents.test.ts"],
  },
  {
    name: "list-agents-cursor",
    area: "tools",
    guards: "ListAgents' cursor starts the next page after the row it names",
    file: "src/tools/agents/list-agents-tool.ts",
    find: "        start = after + 1;",
    replace: "        start = 0;",
    tests: ["test/tools/list-agents.test.ts"],
  },
  {
    name: "list-agents-channel-ignored",
    area: "tools",
    guards: "ListAgents refuses a channel or q (not available) with one line",
    file: "src/tools/agents/list-agents-tool.ts",
    find: '        if (value !== undefined && value.trim() !== "")',
    replace: "        if (value === null)",
    tests: ["test/tools/list-agents.test.ts"],
  },
  {
    name: "list-agents-deferred",
    area: "tools",
    guards: "ListAgents is in the main tools block, as Claude Code sends it",
    file: "src/tools/agents/list-agents-tool.ts",
    find: "    compactable: false,\n",
    replace: "    compactable: false,\n    deferLoading: true,\n",
    tests: ["test/engine/send-message.test.ts", "test/tools/list-agents.test.ts"],
  },
  {
    name: "list-agents-subagent",
    area: "tools",
    guards: "subagents do not get ListAgents",
    file: "src/tools/agents/list-agents-tool.ts",
    find: "traits: { forSubagents: false },",
    replace: "traits: {},",
    tests: ["test/tools/list-agents.test.ts"],
  },
  {
    name: "session-effort-not-set",
    area: "tools",
    guards: "the session's effort (--effort, effortLevel) is sent where the server declares it for the turn's model",
    file: "src/engine/query-engine.ts",
    find: "      yield* this.#effort.beforeTurn(this.config, this.#state.model, controller.signal);\n",
    replace: "",
    tests: ["test/engine/agent-effort.test.ts"],
  },
  {
    name: "session-effort-notice-repeated",
    area: "tools",
    guards: "a dropped session effort is said once per model, not at every turn",
    file: "src/engine/effort-support.ts",
    find: "      this.#decided.set(model, decision);\n",
    replace: "",
    tests: ["test/engine/agent-effort.test.ts"],
  },
  {
    name: "cli-effort-flag-dropped",
    area: "tools",
    guards: "--effort reaches the session",
    file: "src/cli/session-flags.ts",
    find: "    ...(cli.effort !== undefined ? { effort: cli.effort } : {}),\n",
    replace: "",
    tests: ["test/cli/effort.e2e.test.ts"],
    cli: true,
  },
  {
    name: "cli-effort-setting-ignored",
    area: "settings",
    guards: "the settings' effortLevel is the session's effort unless --effort names one",
    file: "src/cli/settings-options.ts",
    find: "  if (cli.effort === undefined && settings.effortLevel !== undefined) effective.effort = settings.effortLevel;\n",
    replace: "",
    tests: ["test/cli/effort.e2e.test.ts"],
    cli: true,
  },
  {
    name: "cli-effort-notice-silent",
    area: "tools",
    guards: "print mode says on stderr that a session effort was dropped",
    file: "src/cli/modes/print/print-mode.ts",
    find: "(isHookNotice(event.message) || isEffortNotice(event.message))",
    replace: "isHookNotice(event.message)",
    tests: ["test/cli/effort.e2e.test.ts"],
    cli: true,
  },
  {
    name: "resume-isolated-kept",
    area: "tools",
    guards: "a background agent that ran in its own worktree is not resumed (its worktree is gone or kept for merging)",
    file: "src/engine/subagent.ts",
    find: "    if (worktree === undefined) kept.set(agentId, { type, model, tools, timeline, effort });",
    replace: "    kept.set(agentId, { type, model, tools, timeline, effort });",
    tests: ["test/engine/send-message.test.ts"],
  },
  {
    name: "front-matter-prose-any-key",
    area: "memory",
    guards: "only a prose key (description) takes unindented continuation lines; after another key they are a problem",
    file: "src/memory/front-matter.ts",
    find: "    if (!PROSE_KEYS.has(key)) return undefined;",
    replace: "    if (false) return undefined;",
    tests: ["test/memory/lenient-front-matter.test.ts"],
  },
  {
    name: "front-matter-prose-reading-off",
    area: "memory",
    guards: "a multi-line description with unindented examples is read whole (published plugins' agents)",
    file: "src/memory/front-matter.ts",
    find: "    if (prose !== undefined) return { data: prose, body };",
    replace: "    void prose;",
    tests: ["test/memory/lenient-front-matter.test.ts"],
  },
  {
    name: "agents-subfolders-unread",
    area: "memory",
    guards: "agents in sub-folders of .claude/agents are offered",
    file: "src/memory/markdown-files.ts",
    find: "if (entry.isDirectory() && depth < MARKDOWN_FOLDER_DEPTH)",
    replace: "if (entry.isDirectory() && depth < 0)",
    tests: ["test/memory/lenient-front-matter.test.ts"],
  },
  {
    name: "file-mention-twice",
    area: "memory",
    guards: "a file mentioned twice with @ is attached once",
    file: "src/engine/file-mentions.ts",
    find: "if (file !== undefined && !files.includes(file)) files.push(file);",
    replace: "if (file !== undefined) files.push(file);",
    tests: ["test/engine/file-mentions.test.ts"],
  },
  {
    name: "file-mention-punctuation-kept",
    area: "memory",
    guards: "@README.md. at the end of a sentence attaches README.md",
    file: "src/engine/file-mentions.ts",
    find: 'for (const candidate of [unquoted, unquoted.replace(TRAILING_PUNCTUATION, "")])',
    replace: "for (const candidate of [unquoted])",
    tests: ["test/engine/file-mentions.test.ts"],
  },
  {
    name: "file-mention-deny-skipped",
    area: "permissions",
    guards: "an @file read passes the session's deny rules: a denied file's content is never sent",
    file: "src/engine/file-mentions.ts",
    find: "      query.policy,\n    );",
    replace: "      { ...query.policy, deny: [] },\n    );",
    tests: ["test/engine/file-mentions.test.ts"],
  },
  {
    name: "file-mention-command-twice",
    area: "memory",
    guards: "a custom command's turn does not attach the @files its expansion inlined already",
    file: "src/engine/file-mentions.ts",
    find: "if (read === undefined || options.fileMentions === false) return [];",
    replace: "if (read === undefined) return [];",
    tests: ["test/engine/file-mentions.test.ts"],
  },
  {
    name: "agent-notices-per-file",
    area: "memory",
    guards: "a front matter key not acted on is one line for all the agent files that use it",
    file: "src/memory/custom-agents.ts",
    find: "      paths.length === 1",
    replace: "      paths.length >= 1",
    tests: ["test/memory/lenient-front-matter.test.ts"],
  },
  {
    name: "cache-read-rate-standard-only",
    area: "messages",
    guards: "each model's own cache-read rate is billed (Opus 5.5 0.05x, Fable 5.1 0.025x), not the standard 0.1x",
    file: "src/messages/pricing.ts",
    find: "tokens.cacheReadTokens * (prices.cacheReadMultiplier ?? CACHE_READ_MULTIPLIER);",
    replace: "tokens.cacheReadTokens * CACHE_READ_MULTIPLIER;",
    tests: ["test/messages/model-table.test.ts"],
  },
  {
    name: "default-model-old",
    area: "messages",
    guards: "the default model is Claude Code's, claude-opus-5-5 (128,000 max_tokens)",
    file: "src/messages/models.ts",
    find: 'export const DEFAULT_MODEL = "claude-opus-5-5";',
    replace: 'export const DEFAULT_MODEL = "claude-sonnet-4-6";',
    tests: ["test/messages/model-table.test.ts"],
  },
  {
    name: "server-client-disagreement-hidden",
    area: "cache",
    guards: "inspect says where the client's break detection disagrees with the server's cache_miss_reason",
    file: "src/cli/inspect/breaks.ts",
    find: "const agrees = clientAgreesWithServer(server.reason, causes);",
    replace: "const agrees = true;",
    tests: ["test/cli/inspect-server-beside-client.test.ts"],
  },
  {
    name: "diagnostics-undeclared-public-api",
    area: "cache",
    guards: "the public API declares cache diagnostics (GA): requests to it name the previous response",
    file: "src/provider/capabilities.ts",
    find: '    cacheEdits: false,\n    contextManagement: true,\n    betas: true,\n    cacheTtls: ["5m", "1h"] as const,\n    cacheDiagnostics: true,\n',
    replace:
      '    cacheEdits: false,\n    contextManagement: true,\n    betas: true,\n    cacheTtls: ["5m", "1h"] as const,\n',
    tests: ["test/provider/capabilities.test.ts", "test/cli/inspect-server-beside-client.test.ts"],
  },
  {
    name: "window-stop-ignored",
    area: "emulator",
    guards: "the emulator stops an answer where the context window is full (model_context_window_exceeded)",
    file: "packages/emulator/src/model/output-limit.ts",
    find: "if (windowRoom !== undefined && windowRoom < (maxTokens ?? Number.POSITIVE_INFINITY)) {",
    replace: "if (false) {",
    tests: ["test/emulator/context-window-stop.test.ts"],
  },
  {
    name: "cache-miss-reason-unrecorded",
    area: "cache",
    guards: "the server's cache_miss_reason is recorded with its response, so inspect shows it per request",
    file: "src/loop/assistant-entries.ts",
    find: "    if (end?.cacheMiss !== undefined) entry.message.diagnostics = { cache_miss_reason: { ...end.cacheMiss } };\n",
    replace: "",
    tests: ["test/cli/inspect-server-beside-client.test.ts"],
  },
  {
    name: "resend-after-answered-search",
    area: "exactly-once",
    guards: "a non-streaming request whose server tools already ran is not sent again after its body was cut",
    file: "src/provider/sdk-provider.ts",
    find: "  if (serverTools.length === 0) return classifyError(cause);",
    replace: "  return classifyError(cause);",
    tests: ["test/exactly-once/side-request-resend.test.ts"],
  },
  {
    name: "diagnostics-fingerprinted",
    area: "cache",
    guards: "the diagnostics field (a new previous_message_id each request) is never a break cause",
    file: "src/cache/fingerprint.ts",
    find: 'const NEUTRAL_FIELDS: ReadonlySet<string> = new Set([\n  "diagnostics",\n',
    replace: "const NEUTRAL_FIELDS: ReadonlySet<string> = new Set([\n",
    tests: ["test/cli/inspect-server-beside-client.test.ts"],
  },
  {
    name: "forced-tool-choice-accepted",
    area: "emulator",
    guards:
      "the emulator refuses forced tool_choice on the models that bind thinking (Opus 5.5, Fable 5.1, Sonnet 5.5)",
    file: "packages/emulator/src/validator/request-rules.ts",
    find: 'if (forced && typeof body.model === "string" && refusesForcedToolChoice(body.model)) {',
    replace: "if (false) {",
    tests: ["test/request/forced-tool-choice.test.ts"],
  },
  {
    name: "forced-tool-choice-sent",
    area: "request",
    guards: "a forced tool_choice is not sent to a model that refuses it",
    file: "src/request/params.ts",
    find: "    tools.length > 0 && settings.toolChoice && !(limits.bindsThinking && forcesTool(settings.toolChoice))",
    replace: "    tools.length > 0 && settings.toolChoice",
    tests: ["test/request/forced-tool-choice.test.ts"],
  },
  {
    name: "tool-name-table-outside-registry",
    area: "architecture",
    guards: "no table keyed by built-in tool names outside src/tools/: tools describe themselves in Tool.traits",
    file: "src/cli/modes/render/edit-diff.ts",
    find: "function readOrEmpty(path: string): string {",
    replace: 'export const DIFF_TOOLS = new Set(["Write", "Edit"]);\nfunction readOrEmpty(path: string): string {',
    tests: ["test/architecture/tool-tables.test.ts"],
  },
  {
    name: "ask-user-question-silent-without-person",
    area: "tools",
    guards: "AskUserQuestion with no one to ask (print mode) is an error result saying no one can answer",
    file: "src/tools/questions/ask-user-question-tool.ts",
    find: "if (channel === undefined) return { content: NO_ONE_TO_ASK, isError: true };",
    replace: 'if (channel === undefined) return { content: "" };',
    tests: ["test/tools/ask-user-question.test.ts"],
  },
  {
    name: "write-in-place",
    area: "writes",
    guards: "Write lands whole or leaves the old file (temporary file and rename), DESIGN.md invariant 15",
    file: "src/tools/files/write-tool.ts",
    find: "await writeFileAtomic(filePath, input.content);",
    replace: 'await (await import("node:fs/promises")).writeFile(filePath, input.content);',
    tests: ["test/reliability/writes.test.ts"],
  },
  {
    name: "write-temporary-left",
    area: "writes",
    guards: "a failed write removes its temporary file",
    file: "src/tools/files/atomic-write.ts",
    find: "    await unlink(temporary).catch(() => {});\n",
    replace: "",
    tests: ["test/reliability/writes.test.ts"],
  },
  {
    name: "write-mode-bits-lost",
    area: "writes",
    guards: "a rewritten file keeps its mode bits, not the umask's",
    file: "src/tools/files/atomic-write.ts",
    find: "      await handle.chmod(before.mode & 0o7777);\n",
    replace: "",
    tests: ["test/reliability/writes.test.ts"],
  },
  {
    name: "edit-encoding-unchecked",
    area: "writes",
    guards: "Edit refuses a file whose bytes do not round-trip through UTF-8",
    file: "src/tools/files/edit-tool.ts",
    find: '      if ("refusal" in decoded) return { content: decoded.refusal, isError: true };\n',
    replace: "",
    tests: ["test/reliability/writes.test.ts"],
  },
  {
    name: "write-hard-link-inside",
    area: "writes",
    guards: "a file with a second hard link is treated as outside the workspace by Write and Edit",
    file: "src/tools/permissions/workspace-paths.ts",
    find: "  if (links > 1) {",
    replace: "  if (links > 2) {",
    tests: ["test/reliability/writes.test.ts"],
  },
  {
    name: "resume-any-path",
    area: "writes",
    guards: "--resume <path> opens only a file whose first line says threadline wrote it",
    file: "src/sessions/session-manager.ts",
    find: "const refusal = isPath ? await notATranscriptReason(path) : undefined;",
    replace: "const refusal = undefined as string | undefined;",
    tests: ["test/reliability/resume-path.e2e.test.ts"],
    cli: true,
  },
  {
    name: "rewind-start-code",
    area: "rewind",
    guards: "--rewind-to 0 puts back what the first prompt's turn changed",
    file: "src/engine/rewind.ts",
    find: "point.beforePrompt === true ? promptIndex",
    replace: "point.beforePrompt === false ? promptIndex",
    tests: ["test/reliability/rewind-start.e2e.test.ts"],
    cli: true,
  },
  {
    name: "rewind-start-conversation",
    area: "rewind",
    guards: "a rewind to the start of the session takes the conversation back to before the first prompt",
    file: "src/timeline/branch.ts",
    find: "      : metadata.beforePrompt === true\n",
    replace: "      : metadata.beforePrompt === false\n",
    tests: ["test/reliability/rewind-start.e2e.test.ts"],
    cli: true,
  },
  {
    name: "retry-silent-unless-http",
    area: "provider",
    guards: "print mode writes a line for every retry, with its reason, not only for HTTP statuses",
    file: "src/cli/modes/print/retry-countdown.ts",
    find: '  if (event.type !== "notice" || event.entry?.retryInMs === undefined) return undefined;\n',
    replace:
      '  if (event.type !== "notice" || event.entry?.retryInMs === undefined) return undefined;\n  if (!/^\\d{3}\\b/.test(event.message)) return undefined;\n',
    tests: ["test/reliability/hostile-server.e2e.test.ts"],
    cli: true,
  },
  {
    name: "read-opens-fifo",
    area: "tools",
    guards: "Read and Grep refuse a FIFO or a device instead of opening it (and hanging)",
    file: "src/tools/files/special-files.ts",
    find: "  if (kind === undefined) return undefined;\n",
    replace: "  return undefined;\n",
    tests: ["test/reliability/special-files.test.ts"],
  },
  {
    name: "untrusted-allow-kept",
    area: "trust",
    guards: "an untrusted folder's own allow rules allow nothing (issue 53 item 1)",
    file: "src/settings/project-code.ts",
    find: "      allow: keepAllow ? allow : [],",
    replace: "      allow,",
    tests: ["test/trust/untrusted-table.test.ts", "test/trust/untrusted-narrows.e2e.test.ts"],
    cli: true,
  },
  {
    name: "untrusted-bypass-mode-kept",
    area: "trust",
    guards: "an untrusted folder's defaultMode may only narrow (bypassPermissions and acceptEdits are ignored)",
    file: "src/settings/project-code.ts",
    find: 'const NARROWING_MODES: readonly string[] = ["default", "plan"];',
    replace: 'const NARROWING_MODES: readonly string[] = ["default", "plan", "bypassPermissions"];',
    tests: ["test/trust/untrusted-table.test.ts", "test/trust/untrusted-narrows.e2e.test.ts"],
    cli: true,
  },
  {
    name: "command-shell-ungated",
    area: "trust",
    guards: "`` !`cmd` `` in a project's command runs only in a trusted folder (issue 53 item 1)",
    file: "src/memory/command-context.ts",
    find: "    if (options.mayRunShell !== undefined && !options.mayRunShell(command)) {",
    replace: "    if (false) {",
    tests: ["test/trust/command-shell.e2e.test.ts"],
    cli: true,
  },
  {
    name: "plugin-command-shell-unmarked",
    area: "trust",
    guards: "a command of a plugin the project enables is project code: its shell waits for trust",
    file: "src/plugins/plugin-set.ts",
    find: 'plugin.origin === "project" ? folders.map((folder) => ({ ...folder, projectCode: true })) : folders;',
    replace: "folders;",
    tests: ["test/trust/command-shell.e2e.test.ts"],
    cli: true,
  },
  {
    name: "settings-unreadable-deny-goes-on",
    area: "trust",
    guards: "a settings file whose deny rules cannot be read stops the session (issue 53 item 2)",
    file: "src/cli/settings-options.ts",
    find: "  if (fatal !== undefined) throw new CliError(",
    replace: "  if (fatal !== undefined && false) throw new CliError(",
    tests: ["test/trust/fail-closed.e2e.test.ts"],
    cli: true,
  },
  {
    name: "settings-duplicate-key-last-wins",
    area: "trust",
    guards: "a duplicate key in a settings file is an error, not last-wins",
    file: "src/settings/parse-settings-file.ts",
    find: "  if (duplicate !== undefined)\n",
    replace: "  if (duplicate !== undefined && false)\n",
    tests: ["test/settings/load-settings.test.ts", "test/trust/fail-closed.e2e.test.ts"],
    cli: true,
  },
  {
    name: "print-untrusted-hooks-go-on",
    area: "trust",
    guards: "-p in an untrusted folder with project hooks stops before the first request (issue 56 item 4)",
    file: "src/cli/settings-options.ts",
    find: "  if (cli.print && line !== undefined && runs.length > 0 && cli.withoutProjectCode !== true)",
    replace: "  if (false)",
    tests: ["test/trust/withheld-guard.e2e.test.ts"],
    cli: true,
  },
  {
    name: "withheld-guard-dropped",
    area: "trust",
    guards: "a withheld PreToolUse hook refuses the calls it would have checked",
    file: "src/settings/project-code.ts",
    find: "hooks = withheldGuards(hooks);",
    replace: "hooks = {};",
    tests: ["test/trust/withheld-guard.e2e.test.ts"],
    cli: true,
  },
  {
    name: "claude-json-trust-any-value",
    area: "settings",
    guards: "only hasTrustDialogAccepted: true in ~/.claude.json trusts a folder",
    file: "src/home/claude-json.ts",
    find: "    if (projectEntry(read.document, current)?.hasTrustDialogAccepted === true) return true;",
    replace: "    if (projectEntry(read.document, current)?.hasTrustDialogAccepted !== undefined) return true;",
    tests: ["test/home/claude-json.test.ts"],
  },
  {
    name: "claude-json-trust-no-parents",
    area: "settings",
    guards: "a folder below one trusted in ~/.claude.json is trusted too",
    file: "src/home/claude-json.ts",
    find: "    const parent = dirname(current);\n    if (parent === current) break;",
    replace: "    const parent = dirname(current);\n    break;",
    tests: ["test/home/claude-json.test.ts"],
  },
  {
    name: "claude-json-write-any-layout",
    area: "settings",
    guards: "~/.claude.json is rewritten only when it is in Claude Code's own layout (every other byte kept)",
    file: "src/home/claude-json.ts",
    find: "      const layoutKept = before === undefined || `${JSON.stringify(document, null, 2)}${ending}` === before;",
    replace: "      const layoutKept = true;",
    tests: ["test/home/claude-json.test.ts"],
  },
  {
    name: "claude-json-no-recheck",
    area: "settings",
    guards: "a change made to ~/.claude.json after threadline read it is never overwritten",
    file: "src/home/claude-json.ts",
    find: "      if (currentText(path) !== before) {",
    replace: '      if (currentText(path) === "never") {',
    tests: ["test/home/claude-json.test.ts"],
  },
  {
    name: "json-result-stop-reason-terminal",
    area: "tools",
    guards: "-p JSON's stop_reason is the API's (end_turn), as Claude Code's, not threadline's terminal reason",
    file: "src/cli/modes/print/json-output.ts",
    find: "    stop_reason: context.stopReason ?? null,",
    replace: "    stop_reason: end.reason,",
    tests: ["test/cli/claude-code-output.e2e.test.ts"],
    cli: true,
  },
  {
    name: "claude-json-trust-unwired",
    area: "trust",
    guards: "a folder Claude Code's ~/.claude.json trusts is trusted by threadline (its project hooks run in -p)",
    file: "src/trust/trust-gate.ts",
    find: "    (options.claudeJsonPath !== undefined && isTrustedByClaudeCode(options.cwd, options.claudeJsonPath));",
    replace: "    false;",
    tests: ["test/cli/claude-json.e2e.test.ts"],
    cli: true,
  },
  {
    name: "summary-fork-skipped",
    area: "compaction-fork",
    guards: "the summary request is first sent as a cache-safe fork of the main loop's prefix (issue 52)",
    file: "src/compaction/summary/summary-input.ts",
    find: "  if (notCacheSafe === undefined) {",
    replace: "  if (notCacheSafe !== undefined) {",
    tests: ["test/engine/summary-fork-cache.test.ts"],
  },
  {
    name: "fork-cuts-sent-results",
    area: "compaction-fork",
    guards: "a summary fork that does not fit cuts only the results the last main request did not send",
    file: "src/compaction/summary/summary-fork.ts",
    find: "result.viewIndex > sentBefore",
    replace: "result.viewIndex >= 0",
    tests: ["test/compaction/summary-fork.test.ts"],
  },
  {
    name: "fork-room-ignores-output",
    area: "compaction-fork",
    guards: "a cache-safe summary fork leaves its max_tokens room in the window",
    file: "src/compaction/summary/summary-fork.ts",
    find: "  return Math.floor(contextWindow * DEFAULT_FORK_FIT_SLACK) - maxTokens;",
    replace: "  return Math.floor(contextWindow * DEFAULT_FORK_FIT_SLACK);",
    tests: ["test/compaction/summary-fork.test.ts"],
  },
  {
    name: "overflow-drop-counts-api-error-round",
    area: "compaction-progress",
    guards: "the drop step never drops the result the model has not read yet (the synthetic error reply is no round)",
    file: "src/compaction/overflow/overflow-steps.ts",
    find: '    (entry) => !(entry.type === "assistant" && entry.isApiErrorMessage === true),',
    replace: "    (entry) => entry !== undefined,",
    tests: ["test/compaction/overflow-cut.test.ts"],
  },
  {
    name: "overflow-cut-step-removed",
    area: "compaction-progress",
    guards: "with no summary to be had, a tool result bigger than the window is cut to fit",
    file: "src/loop/recovery/prompt-too-long.ts",
    find: "  const steps = [...tiers, DROP_STEP, CUT_STEP];",
    replace: "  const steps = [...tiers, DROP_STEP];",
    tests: ["test/compaction/overflow-cut.test.ts"],
  },
  {
    name: "reactive-summary-after-breaker",
    area: "compaction-progress",
    guards: "after the breaker trips, the reactive chain sends no summary request",
    file: "src/compaction/autocompact/autocompact-tier.ts",
    find: "input.fork !== undefined && !breakerTripped(input.autoCompact)",
    replace: "input.fork !== undefined",
    tests: ["test/compaction/overflow-cut.test.ts"],
  },
  {
    name: "breaker-notice-repeats",
    area: "compaction-progress",
    guards: "the 'auto-compaction is off' notice is said once",
    file: "src/compaction/autocompact/breaker.ts",
    find: "  if (tripped && session.trippedNoticeShown) return undefined;",
    replace: "",
    tests: ["test/compaction/overflow-cut.test.ts"],
  },
  {
    name: "reactive-summary-same-view-again",
    area: "compaction-progress",
    guards: "the reactive chain does not resend the summary request that just failed for the same view",
    file: "src/compaction/summary/compact-entrances.ts",
    find: "  if (input.autoCompact?.failedSummaryView === viewKey(view))",
    replace: "  if (input.autoCompact?.failedSummaryView === `never${viewKey(view)}`)",
    tests: ["test/compaction/overflow-cut.test.ts"],
  },
  {
    name: "inspect-counts-copied-tool-uses",
    area: "inspect",
    guards: "inspect counts each tool call once, not again in a compaction's copy of its response",
    file: "src/cli/inspect/report.ts",
    find: "        if (useId !== undefined && this.#toolUseIds.has(useId)) continue;",
    replace: "",
    tests: ["test/cli/inspect-tool-counts.test.ts"],
  },
  {
    name: "fork-fallback-on-any-unusable",
    area: "compaction",
    guards:
      "a forked summary that was not cut off at max_tokens is not asked again the cleared way (issue 58 after issue 52)",
    file: "src/compaction/summary/summary-input.ts",
    find: "if (error instanceof UnusableSummaryError && error.cutOff)",
    replace: "if (error instanceof UnusableSummaryError)",
    tests: ["test/compaction/overflow-cut.test.ts"],
  },
  {
    name: "kept-files-oldest-read",
    area: "compaction",
    guards: "a clear keeps the newest read of a file the work is about, not its oldest (issue 52, forget less)",
    file: "src/compaction/microcompact/kept-files.ts",
    find: "    newest.set(path, result);",
    replace: "    if (!newest.has(path)) newest.set(path, result);",
    tests: ["test/compaction/kept-files.test.ts"],
  },
  {
    name: "kept-files-name-unbounded",
    area: "compaction",
    guards: "a file counts as named only when a prompt names it on its own, not as the tail of another path",
    file: "src/compaction/microcompact/kept-files.ts",
    find: '      const boundedBefore = before === "" || !PATH_CHARACTER.test(before);',
    replace: "      const boundedBefore = true;",
    tests: ["test/compaction/kept-files.test.ts"],
  },
  {
    name: "kept-files-cap-oldest",
    area: "compaction",
    guards: "past the cap, a clear keeps the files read most recently",
    file: "src/compaction/microcompact/kept-files.ts",
    find: "  const files = named.sort((a, b) => b[1].viewIndex - a[1].viewIndex).slice(0, maxFiles);",
    replace: "  const files = named.sort((a, b) => a[1].viewIndex - b[1].viewIndex).slice(0, maxFiles);",
    tests: ["test/compaction/kept-files.test.ts"],
  },
  {
    name: "kept-files-batch-ignored",
    area: "compaction",
    guards: "a public-path batch leaves the kept files verbatim, so the closed-loop model re-reads nothing",
    file: "src/compaction/microcompact/batch-clear.ts",
    find: "!input.alreadyCleared.has(result.toolUseId) && !kept.has(result.toolUseId)",
    replace: "!input.alreadyCleared.has(result.toolUseId)",
    tests: ["test/engine/kept-files-batch.test.ts"],
  },
  {
    name: "cold-after-current-ttl",
    area: "cache",
    guards: "the idle clear waits for the TTL the last turn's cache was written with, not the coming turn's",
    file: "src/compaction/microcompact/cache-state.ts",
    find: '  const ttlMs = (choice?.ttl ?? currentTtl) === "1h" ? ONE_HOUR_MS : FIVE_MINUTES_MS;',
    replace: '  const ttlMs = currentTtl === "1h" ? ONE_HOUR_MS : FIVE_MINUTES_MS;',
    tests: ["test/compaction/cold-cache.test.ts"],
  },
  {
    name: "cold-after-keep-warm-ignored",
    area: "cache",
    guards: "after a turn that chose keep-warm, the idle clear waits out the keep-warm run",
    file: "src/compaction/microcompact/cache-state.ts",
    find: '  if (choice?.policy === "keep-warm") return KEEP_WARM_LONGEST_MS + ttlMs;',
    replace: "",
    tests: ["test/compaction/cold-cache.test.ts"],
  },
  {
    name: "batch-price-5m-always",
    area: "cache",
    guards: "a batch's rewrite is priced at the write rate of the TTL in use (2x for 1 hour)",
    file: "src/compaction/microcompact/cache-state.ts",
    find: '    write: ttl === "1h" ? CACHE_WRITE_1H_MULTIPLIER : CACHE_WRITE_5M_MULTIPLIER,',
    replace: "    write: CACHE_WRITE_5M_MULTIPLIER,",
    tests: ["test/compaction/cold-cache.test.ts"],
  },
  {
    name: "batch-rent-halved",
    area: "cache",
    guards: "a batch fires only once the rent paid reaches the rewrite's price",
    file: "src/compaction/microcompact/batch-clear.ts",
    find: "  if (rentPaid < rewriteCost) return undefined;",
    replace: "  if (rentPaid < rewriteCost / 2) return undefined;",
    tests: ["test/compaction/cold-cache.test.ts"],
  },
  {
    name: "reactive-compaction-skips-after-work",
    area: "compaction",
    guards:
      "a reactive compaction runs the one after-work, PostCompact and SessionStart hooks included (issue 54: one door)",
    file: "src/loop/stages/stage-recover.ts",
    find: "    ...(step.compacted ? { compacted: true } : {}),",
    replace: "",
    tests: ["test/hooks/post-compact-stop-failure.test.ts"],
  },
  {
    name: "compaction-index-past-room-face",
    area: "architecture",
    guards: "src/compaction/index.ts enters each room through its index.ts face (issue 54: compaction in rooms)",
    file: "src/compaction/index.ts",
    find: 'export * from "./overflow/index.js";',
    replace:
      'export { cutOverflowStep } from "./overflow/overflow-cut.js";\nexport { dropOverflowStep } from "./overflow/overflow-steps.js";',
    tests: ["test/architecture/compaction-rooms.test.ts"],
  },
  {
    name: "emulator-binding-error-by-default",
    area: "emulator",
    guards: "a thinking block whose prefix changed is a 400 unless the request asks for drop_block (issue 55)",
    file: "packages/emulator/src/wire/messages-handler.ts",
    find: 'if (first !== undefined && prefixMismatchBehavior(apiRequest) === "error")',
    replace: 'if (first !== undefined && prefixMismatchBehavior(apiRequest) === "drop_block")',
    tests: ["test/emulator/thinking-binding.test.ts"],
  },
  {
    name: "emulator-binding-counts-markers",
    area: "emulator",
    guards: "a moved cache_control marker is not an edit of a thinking block's prefix (issue 55)",
    file: "packages/emulator/src/model/thinking-binding.ts",
    find: '.filter((key) => key !== "cache_control" && record[key] !== undefined)',
    replace: ".filter((key) => record[key] !== undefined)",
    tests: ["test/emulator/thinking-binding.test.ts"],
  },
  {
    name: "emulator-binding-ignores-system",
    area: "emulator",
    guards: "a thinking block's prefix holds the system prompt: changing it fails the check (issue 55)",
    file: "packages/emulator/src/model/thinking-binding.ts",
    find: "    system: blocksOf(request.system as string | unknown[] | undefined),",
    replace: "    system: [],",
    tests: ["test/emulator/thinking-binding.test.ts"],
  },
  {
    name: "thinking-binding-not-asked",
    area: "request",
    guards: "on a model that binds thinking, a server that takes betas is asked for drop_block (issue 55)",
    file: "src/loop/query-context.ts",
    find: "    ...(capabilities.betas !== false && modelLimits(model, config.modelOverrides).bindsThinkingPrefix",
    replace: "    ...(capabilities.betas === false && modelLimits(model, config.modelOverrides).bindsThinkingPrefix",
    tests: ["test/engine/thinking-binding.test.ts"],
  },
  {
    name: "thinking-binding-beta-unsent",
    area: "request",
    guards: "thinking.block_binding goes with its beta header (issue 55)",
    file: "src/request/params.ts",
    find: '      thinkingBinding: thinking !== undefined && "block_binding" in thinking,',
    replace: "      thinkingBinding: false,",
    tests: ["test/engine/thinking-binding.test.ts"],
  },
  {
    name: "input-transformations-unrecorded",
    area: "transcript",
    guards: "the server's input_transformations are kept on the response's entry (issue 55)",
    file: "src/loop/assistant-entries.ts",
    find: "      entry.message.input_transformations = end.inputTransformations.map((item) => ({ ...item }));",
    replace: "      void end.inputTransformations;",
    tests: ["test/engine/thinking-binding.test.ts"],
  },
  {
    name: "inspect-thinking-dropped-uncounted",
    area: "inspect",
    guards: "inspect counts the thinking blocks the server dropped per request (issue 55)",
    file: "src/cli/inspect/report.ts",
    find: "    if (dropped > 0) open.request.thinkingDropped = dropped;",
    replace: "",
    tests: ["test/engine/thinking-binding.test.ts"],
  },
  {
    name: "emulator-compaction-before-thinking-refused",
    area: "emulator",
    guards: "the emulator accepts back its own order: a compaction block, then thinking (issue 55)",
    file: "packages/emulator/src/validator/message-rules.ts",
    find: '    if (!isThinking && type !== "compaction") seenNonThinking = true;',
    replace: "    if (!isThinking) seenNonThinking = true;",
    tests: ["test/emulator/thinking-binding.test.ts"],
  },
  {
    name: "thinking-binding-after-beta-refused",
    area: "request",
    guards: "a server that refused the binding beta is not sent block_binding again (issue 55)",
    file: "src/request/params.ts",
    find: "settings.thinkingPrefixMismatch !== undefined && !settings.omitBetas?.includes(THINKING_BINDING_BETA);",
    replace: "settings.thinkingPrefixMismatch !== undefined;",
    tests: ["test/request/thinking-binding-params.test.ts"],
  },
  {
    name: "openai-length-not-max-tokens",
    area: "provider",
    guards: "an OpenAI-protocol answer cut at its length limit (finish_reason length) stops as max_tokens",
    file: "src/provider/openai-stream.ts",
    find: '  length: "max_tokens",',
    replace: '  length: "end_turn",',
    tests: ["test/provider/openai-translation.test.ts", "test/provider/openai-compatible.test.ts"],
  },
  {
    name: "openai-stop-with-one-call",
    area: "provider",
    guards: "a reply that calls a tool but finishes with stop (Ollama) still stops as tool_use, from one call on",
    file: "src/provider/openai-stream.ts",
    find: 'return toolCalls > 0 && mapped === "end_turn" ? "tool_use" : mapped;',
    replace: 'return toolCalls > 1 && mapped === "end_turn" ? "tool_use" : mapped;',
    tests: ["test/provider/openai-translation.test.ts"],
  },
  {
    name: "openai-cached-counted-as-input",
    area: "provider",
    guards: "prompt_tokens_details.cached_tokens are cache reads, taken out of the uncached input",
    file: "src/provider/openai-stream.ts",
    find: "    input_tokens: Math.max(0, usage.prompt_tokens - cached),",
    replace: "    input_tokens: usage.prompt_tokens,",
    tests: ["test/provider/openai-translation.test.ts", "test/provider/openai-compatible.test.ts"],
  },
  {
    name: "openai-error-envelope-dropped",
    area: "provider",
    guards:
      "an OpenAI-protocol error body without an error key (vLLM's older envelope) keeps its wording for the overflow table",
    file: "src/provider/openai-compatible.ts",
    find: "    if (response.ok) return response;",
    replace: "    return response;",
    tests: ["test/provider/openai-translation.test.ts"],
  },
  {
    name: "num-turns-counts-iterations",
    area: "cli",
    guards: "num_turns in -p JSON counts answered model requests, not loop iterations",
    file: "src/cli/modes/print/json-output.ts",
    find: "    num_turns: end.answeredRequests,",
    replace: "    num_turns: end.iterations,",
    tests: ["test/cli/num-turns.test.ts"],
  },
  {
    name: "kept-files-edit-answer-newest",
    area: "compaction",
    guards: "an Edit's short answer is not taken as the newest look at a named file (its Read stays verbatim)",
    file: "src/compaction/microcompact/kept-files.ts",
    find: "    if (path === undefined || result.toolName === undefined || fileChangingTools.has(result.toolName)) continue;",
    replace: "    if (path === undefined || result.toolName === undefined) continue;",
    tests: ["test/compaction/kept-files.test.ts"],
  },
  {
    name: "git-read-only-env-dropped",
    area: "trust",
    guards:
      "a read-only Bash command runs with git's switches that keep the repository's programs off (issue 53 item 3)",
    file: "src/tools/shell/bash-tool.ts",
    find: "env: readOnly ? readOnlyGitEnv(env) : env",
    replace: "env",
    tests: ["test/trust/git-read-only.test.ts"],
  },
  {
    name: "git-fsmonitor-not-off",
    area: "trust",
    guards: "read-only git commands run with core.fsmonitor=false, not the repository's fsmonitor program",
    file: "src/tools/shell/git-read-only.ts",
    find: '  ["core.fsmonitor", "false"],\n',
    replace: "",
    tests: ["test/trust/git-read-only.test.ts"],
  },
  {
    name: "git-textconv-flags-dropped",
    area: "trust",
    guards: "read-only git diff/log/show run with --no-ext-diff --no-textconv (the repository's drivers stay off)",
    file: "src/tools/shell/git-read-only.ts",
    find: 'command git "$subcommand" --no-ext-diff --no-textconv "$@";;',
    replace: 'command git "$subcommand" "$@";;',
    tests: ["test/trust/git-read-only.test.ts"],
  },
  {
    name: "git-config-scan-ignored",
    area: "trust",
    guards:
      "a repository whose config names a filter, a work tree or a signature program has no read-only git commands",
    file: "src/tools/shell/bash-read-only.ts",
    find: 'return program.text !== "git" || !check.gitConfigBlocks();',
    replace: "return true;",
    tests: ["test/trust/git-read-only.test.ts"],
  },
  {
    name: "checkpoint-git-runs-repo-programs",
    area: "trust",
    guards: "the checkpoint's own git ls-files runs with the repository's fsmonitor and hooks off",
    file: "src/checkpoints/workspace-files.ts",
    find: 'env: readOnlyGitEnv({ PATH: process.env.PATH ?? "" })',
    replace: 'env: { PATH: process.env.PATH ?? "" }',
    tests: ["test/trust/git-read-only.e2e.test.ts"],
    cli: true,
  },
  {
    name: "secret-value-check-dropped",
    area: "tools",
    guards: "an environment variable whose value looks like a token is withheld from tool processes, whatever its name",
    file: "src/tools/shell/secret-env.ts",
    find: "if (isSecretEnvName(name, extra) || isSecretEnvValue(value)) {",
    replace: "if (isSecretEnvName(name, extra)) {",
    tests: ["test/tools/secret-values.test.ts"],
  },
  {
    name: "secret-entropy-case-mix-dropped",
    area: "tools",
    guards: "the high-entropy rule needs upper case, lower case and digits (words and hex ids stay in the environment)",
    file: "src/tools/shell/secret-values.ts",
    find: "  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/[0-9]/.test(value)) return false;\n",
    replace: "",
    tests: ["test/tools/secret-values.test.ts"],
  },
  {
    name: "proc-environ-not-screened",
    area: "tools",
    guards: "without the sandbox, a Bash command naming /proc/…/environ is refused before it runs",
    file: "src/tools/shell/bash-tool.ts",
    find: "if (sandboxOf(runtime) === undefined && readsProcessEnvironment(input.command))",
    replace: "if (sandboxOf(runtime) === undefined && false)",
    tests: ["test/tools/secret-values.test.ts"],
  },
  {
    name: "mcp-exit-not-explained",
    area: "mcp",
    guards: "a stdio server that exits is named by its exit code and last stderr lines, not the broken pipe",
    file: "src/mcp/server-exit.ts",
    find: "    if (exit === undefined) return reason;",
    replace: "    if (exit === undefined || reason !== '') return reason;",
    tests: ["test/mcp/server-exit.test.ts"],
  },
  {
    name: "checkpoint-tmp-blob-left",
    area: "rewind",
    guards: "a blob write that fails (a full disk) removes its temporary file",
    file: "src/checkpoints/blob-store.ts",
    find: "      await rm(temporary, { force: true }).catch(() => {});\n",
    replace: "",
    tests: ["test/reliability/checkpoint-disk.test.ts"],
  },
  {
    name: "checkpoint-failure-bare",
    area: "rewind",
    guards: "a checkpoint that cannot be kept refuses the call in one line naming the cause and what was kept",
    file: "src/checkpoints/checkpoints.ts",
    find: "      throw new Error(checkpointFailure(tool, name, this.dir, error));",
    replace: "      throw error;",
    tests: ["test/reliability/checkpoint-disk.test.ts"],
  },
  {
    name: "threshold-owner-loop",
    area: "compaction",
    guards:
      "the loop compacts at the one budget's threshold (167,000 of the server's tokens at x4 on 200K), not one it works out of the estimate-unit window",
    file: "src/compaction/autocompact/compaction-due.ts",
    find: "  return input.settings.collapse ? input.thresholds.estimate.blocking : input.thresholds.estimate.autocompact;",
    replace:
      "  return input.settings.collapse ? input.thresholds.estimate.blocking : Math.floor(input.thresholds.estimate.window * 0.735);",
    tests: ["test/engine/one-budget.test.ts"],
  },
  {
    name: "threshold-owner-status-line",
    area: "compaction-progress",
    guards: "the status line shows the budget's thresholds in the server's tokens, the same the loop acts on",
    file: "src/cli/modes/status/session-stats.ts",
    find: "    thresholds: input.thresholds.server,",
    replace: "    thresholds: input.thresholds.estimate,",
    tests: ["test/engine/one-budget.test.ts"],
  },
  {
    name: "threshold-owner-context-report",
    area: "compaction-progress",
    guards: "/context prints the budget's thresholds in the server's tokens, the same the loop acts on",
    file: "src/cli/modes/slash/context-report.ts",
    find: "  const { ratio, server } = input.thresholds;",
    replace: "  const { ratio, estimate: server } = input.thresholds;",
    tests: ["test/engine/one-budget.test.ts"],
  },
  {
    name: "autocompact-window-ignored",
    area: "compaction",
    guards: "the 1M models autocompact from a 400K window (367,000), as Claude Code 2.1.334+ does",
    file: "src/compaction/budget/context-thresholds.ts",
    find: "  return declared !== undefined && declared > 0 && declared < window ? declared : window;",
    replace: "  return window;",
    tests: ["test/compaction/context-thresholds.test.ts"],
  },
  {
    name: "batch-clear-standard-read-rate",
    area: "compaction",
    guards: "the clearing break-even prices reads at the model's own cache-read rate (0.05 on Opus 5.5), not 0.1",
    file: "src/compaction/microcompact/cache-state.ts",
    find: "    read: modelLimits(model).cacheReadMultiplier,",
    replace: "    read: 0.1,",
    tests: ["test/compaction/cache-read-rate.test.ts"],
  },
  {
    name: "chars-per-token-reimplemented",
    area: "architecture",
    guards: "characters become tokens only in messages/tokens.ts: a new literal x/÷ 4 elsewhere is named",
    file: "src/compaction/tail/tail-budget.ts",
    find: "  const room = Math.max(0, charsForTokens(maxTokens - 60));",
    replace: "  const room = Math.max(0, (maxTokens - 60) * 4);",
    tests: ["test/architecture/one-ruler.test.ts"],
  },
  {
    name: "command-shell-ignores-session-mode",
    area: "plugins",
    guards:
      "a command's !`cmd` is checked with the session's permission mode (bypass runs what allowed-tools do not name)",
    file: "src/memory/command-context.ts",
    find: "      mode: policy.mode,",
    replace: '      mode: "default",',
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "command-shell-ignores-read-only",
    area: "plugins",
    guards: "a command's read-only !`git diff HEAD` runs under allowed-tools that do not name it, as in Claude Code",
    file: "src/memory/command-context.ts",
    find: "  if (options.permission === undefined) return shellAllowed(command, options.allowedTools);",
    replace: "  return shellAllowed(command, options.allowedTools);",
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "command-fenced-shell-ignored",
    area: "plugins",
    guards: "a fenced ```! block in a command runs, as Claude Code runs it",
    file: "src/memory/command-context.ts",
    find: "const SHELL_PATTERN = /^```!\\s*\\n([\\s\\S]*?)^```[ \\t]*$|!`([^`\\n]+)`/gm;",
    replace: "const SHELL_PATTERN = /!`([^`\\n]+)`/gm;",
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "plugin-command-root-unexpanded",
    area: "plugins",
    guards: "the plugin root variable is the plugin's folder in its commands' body and allowed-tools",
    file: "src/memory/custom-commands.ts",
    find: "(root === undefined ? text : text.replaceAll(PLUGIN_ROOT_TEXT, root))",
    replace: "(root === undefined ? text : text)",
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "bare-command-not-resolved",
    area: "plugins",
    guards: "/commit runs the one plugin command named :commit",
    file: "src/memory/custom-commands.ts",
    find: "  return bare.length === 1 ? bare[0] : undefined;",
    replace: "  return bare.length === 2 ? bare[0] : undefined;",
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "unknown-command-sent",
    area: "plugins",
    guards: "-p with a /name no command has sends nothing and says so",
    file: "src/cli/modes/print/print-mode.ts",
    find: "      if (unknown !== undefined) {",
    replace: "      if (unknown === 'never') {",
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "git-branch-always-read-only",
    area: "tools",
    guards: "git branch is read-only only with listing words (a name or -d changes a branch)",
    file: "src/tools/shell/bash-read-only.ts",
    find: "return rest.slice(1).every((word) => READ_ONLY_GIT_BRANCH_WORDS.has(word.text));",
    replace: "return true;",
    tests: ["test/tools/bash-read-only.test.ts"],
  },
  {
    name: "quoted-program-unquoted-loosely",
    area: "tools",
    guards: "a quoted program matches an allow rule only when the quotes hold the program alone",
    file: "src/tools/permissions/permission-rules.ts",
    find: '  return command.replace(/^(["\'])([^"\'\\s$`\\\\]+)\\1(?=\\s|$)/, "$2");',
    replace: '  return command.replace(/^(["\'])([^"\'`$\\\\]+)\\1/, "$2");',
    tests: ["test/tools/permissions.test.ts"],
  },
  {
    name: "plugin-commands-not-offered",
    area: "plugins",
    guards: "plugin commands are offered to the model in the Skill tool, as Claude Code offers them",
    file: "src/cli/modes/user-setup.ts",
    find: "      ...(commandSkills.length > 0 ? { commandSkills } : {}),",
    replace: "",
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "command-skill-body-unrendered",
    area: "plugins",
    guards: "a plugin command the model calls as a skill renders its prompt (its !`cmd` lines run)",
    file: "src/memory/skill-tool.ts",
    find: "skill.render !== undefined ? await skill.render() : await skillBody(skill);",
    replace: "await skillBody(skill);",
    tests: ["test/cli/published-commands.e2e.test.ts"],
    cli: true,
  },
  {
    name: "hook-async-announcement-waited",
    area: "hooks",
    guards: 'a hook whose first stdout line is {"async": true} is not waited for (issue 57: plugins slow every start)',
    file: "src/hooks/run-hook-command.ts",
    find: "      options.onAsync?.();",
    replace: "",
    tests: ["test/hooks/async-announcement.test.ts"],
  },
  {
    name: "hook-rewake-finding-dropped",
    area: "hooks",
    guards: "an asyncRewake hook's exit-2 finding goes to the model after its rewakeMessage",
    file: "src/hooks/hook-runner.ts",
    find: "      if (folded.block !== undefined && hook.rewake !== undefined) {",
    replace: "      if (false) {",
    tests: ["test/hooks/async-announcement.test.ts"],
  },
];

/** Files of the working tree worth copying: tracked, plus new files not ignored (a local run before a commit). */
function repositoryFiles() {
  const output = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  // A worktree's node_modules may be a symlink, which a `node_modules/` ignore line does not match.
  return output.split("\0").filter((path) => path !== "" && path !== "node_modules" && existsSync(join(ROOT, path)));
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

/**
 * A CLI mutation reaches bin/threadline through dist/: the one changed file is transpiled alone into its place
 * in the copy's dist/ (src/x/y.ts -> dist/x/y.js; a file of packages/ is compiled by the bundle step itself)
 * and the bundle rebuilt, then the build is marked current. A whole `tsc -p tsconfig.build.json` per mutation
 * (twice: mutated, then restored) cost CI about 40 s each; this costs about 2.
 */
async function rebuildOne(copy, file) {
  if (file.startsWith("src/") && file.endsWith(".ts")) {
    const code = transformSync(readFileSync(join(copy, file), "utf8"), {
      loader: "ts",
      format: "esm",
      target: "node20",
      sourcefile: file,
    }).code;
    writeFileSync(join(copy, "dist", `${file.slice("src/".length, -".ts".length)}.js`), code);
  }
  await execFileAsync(process.execPath, [join(copy, "scripts", "bundle.mjs")], { cwd: copy });
  markBuild(copy, true);
}

const execFileAsync = promisify(execFile);

/**
 * How a failed test failed, from the first line of its failure message: an assertion (expect, node:assert, a
 * promise that should have rejected, a snapshot) is what a guard's test states; anything else (a TypeError the
 * mutated code threw, a timeout, a file that did not load) is an error, which proves nothing about the guard.
 */
export function failureKind(message) {
  const text = String(message ?? "");
  const first = text.split("\n", 1)[0] ?? "";
  if (/^(AssertionError\b|Error: promise (resolved|rejected) |Error: Snapshot )/.test(first)) return "assertion";
  // fast-check reports the counterexample first and, in some versions, the error the property threw below it
  // (fast-check 4 keeps it as the cause instead: runTests reads that from vitest's default output).
  if (/^Error: Property failed after /.test(first)) return /\bAssertionError\b/.test(text) ? "assertion" : "error";
  // An error whose first frame outside Node and node_modules is the test's own code is the test stating what it
  // expected in its own words (`throw new Error("expected the stream to fail")`, reading the file a tool should
  // have written, `expect(undefined).toBeGreaterThan(0)`): an assertion. The same error raised first in src/ is
  // the mutated code failing, which proves nothing.
  if (/^\w*Error\b/.test(first)) {
    const frame = text
      .split("\n")
      .map((line) => /^\s+at (?:.*\()?(.*?):\d+:\d+\)?$/.exec(line)?.[1])
      .find((path) => path !== undefined && !path.startsWith("node:") && !path.includes("/node_modules/"));
    if (frame !== undefined && /\/(test|support)\//.test(frame)) return "assertion";
  }
  return "error";
}

/** The failures a vitest JSON report holds: each failed test (or test file) with its kind and first line. */
export function failuresOf(report) {
  const failures = [];
  for (const file of report?.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) {
      const message = test.failureMessages?.[0] ?? "";
      failures.push({ test: test.fullName, kind: failureKind(message), line: message.split("\n", 1)[0] });
    }
    if (failed.length === 0 && file.status === "failed")
      failures.push({ test: file.name, kind: "error", line: String(file.message ?? "").split("\n", 1)[0] });
  }
  return failures;
}

let reportCount = 0;

/**
 * Runs vitest on `tests` in `copy`: its exit code, what it reported, and its failures read from vitest's JSON
 * report (`failures`: each with its kind, assertion or error; see `failureKind`).
 */
function runTests(copy, tests, extra = []) {
  const reportFile = join(copy, `.mutation-report-${process.pid}-${reportCount++}.json`);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        join(copy, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${reportFile}`,
        ...extra,
        ...tests,
      ],
      {
        cwd: copy,
        env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => {
      const failed = Number(/Tests\s+(\d+) failed/.exec(output)?.[1] ?? 0);
      const passed = Number(/(\d+) passed/.exec(/Tests\s+[^\n]*/.exec(output)?.[0] ?? "")?.[1] ?? 0);
      const skipped = Number(/(\d+) skipped/.exec(/Tests\s+[^\n]*/.exec(output)?.[0] ?? "")?.[1] ?? 0);
      let failures = [];
      try {
        failures = failuresOf(JSON.parse(readFileSync(reportFile, "utf8"))).map((failure) =>
          // fast-check keeps the error its property threw as the cause, which only the default reporter prints.
          failure.line.startsWith("Error: Property failed after ") && /Caused by: AssertionError\b/.test(output)
            ? { ...failure, kind: "assertion" }
            : failure,
        );
        rmSync(reportFile, { force: true });
      } catch {
        // No report (vitest did not start): the exit code and the output say what happened.
      }
      resolve({ code: code ?? 1, failed, passed, skipped, output, failures });
    });
  });
}

/** Why `text`, the mutated `file`, does not parse (esbuild, no type check), or undefined when it does. */
function syntaxError(file, text) {
  const loader = /\.(ts|tsx|mts|cts)$/.test(file) ? "ts" : /\.(js|mjs|cjs)$/.test(file) ? "js" : undefined;
  if (loader === undefined) return undefined;
  try {
    transformSync(text, { loader: file.endsWith(".tsx") ? "tsx" : loader, format: "esm", sourcefile: file });
    return undefined;
  } catch (error) {
    return String(error instanceof Error ? error.message : error)
      .split("\n", 2)
      .join(" ");
  }
}

function tail(text, lines = 25) {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** One mutation in `copy`: applied, its tests run, put back. Returns its report line and its problem, if any. */
async function runMutation(copy, mutation) {
  const path = join(copy, mutation.file);
  const missing = mutation.tests.filter((test) => !existsSync(join(copy, test)));
  if (!existsSync(path) || missing.length > 0) {
    const what = !existsSync(path) ? mutation.file : missing.join(", ");
    return {
      line: `✗ ${mutation.name}: not run, ${what} does not exist`,
      problem: `${mutation.name}: ${what} does not exist`,
    };
  }
  const original = readFileSync(path, "utf8");
  if (!original.includes(mutation.find))
    return {
      line: `✗ ${mutation.name}: the text to mutate is no longer in ${mutation.file}; update the entry`,
      problem: `${mutation.name}: text not found in ${mutation.file}`,
    };
  const mutated = original.replace(mutation.find, mutation.replace);
  const syntax = syntaxError(mutation.file, mutated);
  if (syntax !== undefined)
    return {
      line: `✗ ${mutation.name}: the mutated ${mutation.file} does not parse (${syntax}); fix the entry's replace`,
      problem: `${mutation.name}: the replacement does not parse`,
    };
  writeFileSync(path, mutated);
  const ran = performance.now();
  let result;
  try {
    if (mutation.cli === true) await rebuildOne(copy, mutation.file);
    else markBuild(copy, true);
    result = await runTests(copy, mutation.tests, ["--bail", "1"]);
  } finally {
    writeFileSync(path, original);
    // A CLI mutation was compiled into the copy's dist/: the original goes back the same way.
    if (mutation.cli === true) await rebuildOne(copy, mutation.file);
  }
  const seconds = ((performance.now() - ran) / 1000).toFixed(1);
  const assertion = result.failures.find((failure) => failure.kind === "assertion");
  if (assertion !== undefined)
    return {
      line: `✓ ${mutation.name}: caught by "${assertion.test}": ${assertion.line.slice(0, 160)} (${seconds} s)`,
    };
  const error = result.failures.find((failure) => failure.kind === "error");
  // Caught only by an error (a TypeError, a 400 the server answered): the mutation changed behaviour, but no test
  // stated it. Reported on its own line and counted at the end as tests to sharpen; not a failure of the check
  // (a survivor, a stale text or a parse error is). Entries still to sharpen: docs/MUTATION-TESTING.md.
  if (error !== undefined || result.failed > 0)
    return {
      line: `⚠ ${mutation.name}: caught only by an error, no assertion failed (${error?.test ?? "?"}: ${(error?.line ?? "").slice(0, 160)}) (${seconds} s)`,
      weak: mutation.name,
    };
  if (result.code === 0 && result.skipped > 0 && result.passed === 0)
    return {
      line: `✗ ${mutation.name}: its tests were skipped here, so it could not be caught (${seconds} s)`,
      problem: `${mutation.name}: tests skipped`,
    };
  if (result.code === 0)
    return {
      line: `✗ ${mutation.name}: SURVIVED, ${mutation.tests.join(", ")} still pass (${seconds} s)`,
      problem: `${mutation.name}: survived (${mutation.guards})`,
    };
  return {
    line: `✗ ${mutation.name}: the run failed without a failing test:\n${tail(result.output)}`,
    problem: `${mutation.name}: run failed without a failing test`,
  };
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--list")) {
    for (const mutation of MUTATIONS)
      console.log(
        `${mutation.name} [${mutation.area ?? "no area"}]: ${mutation.file} -> ${mutation.tests.join(", ")}\n  guards: ${mutation.guards}`,
      );
    const areas = new Map();
    for (const mutation of MUTATIONS)
      areas.set(mutation.area ?? "no area", (areas.get(mutation.area ?? "no area") ?? 0) + 1);
    console.log(`${MUTATIONS.length} mutations: ${[...areas].map(([area, count]) => `${area} ${count}`).join(", ")}`);
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
  const jobsAt = args.indexOf("--jobs");
  const jobs = Math.max(
    1,
    Math.min(chosen.length, jobsAt === -1 ? Math.min(2, availableParallelism()) : Number(args[jobsAt + 1]) || 1),
  );
  const started = performance.now();
  const copies = [makeCopy()];
  const problems = [];
  const weak = [];
  try {
    const copy = copies[0];
    const testFiles = [...new Set(chosen.flatMap((mutation) => mutation.tests))];
    const missingTests = testFiles.filter((test) => !existsSync(join(copy, test)));
    const present = testFiles.filter((test) => existsSync(join(copy, test)));
    for (const test of missingTests) problems.push(`test file ${test} is missing`);
    // `--after-suite`: CI ran the whole suite unmutated just before (.ci/run), so the baseline is already known.
    if (args.includes("--after-suite")) console.log("baseline: the whole suite passed unmutated just before");
    else if (present.length > 0) {
      const baseline = await runTests(copy, present);
      if (baseline.code !== 0) {
        console.log(`baseline (unmutated) fails: ${tail(baseline.output)}`);
        problems.push("the unmutated baseline fails, so no mutation result means anything");
      } else console.log(`baseline: ${present.length} test files pass unmutated (${baseline.passed} tests)`);
    }
    // The one-file rebuild must itself leave the CLI working, or every CLI mutation would be "caught" by a
    // broken build: the first CLI mutation's file is rebuilt unmutated and its tests must still pass.
    const firstCli = chosen.find((mutation) => mutation.cli === true && existsSync(join(copy, mutation.file)));
    if (firstCli !== undefined) {
      await rebuildOne(copy, firstCli.file);
      const rebuilt = await runTests(copy, firstCli.tests);
      if (rebuilt.code !== 0) {
        console.log(`one-file rebuild breaks the CLI: ${tail(rebuilt.output)}`);
        problems.push("the one-file rebuild of dist/ fails unmutated, so no CLI mutation result means anything");
      } else console.log(`one-file rebuild: ${firstCli.tests.join(", ")} pass unmutated`);
    }
    // Further copies are made after the rebuild check, so each starts from the same checked build.
    while (copies.length < jobs) copies.push(makeCopy());
    if (jobs > 1) console.log(`${jobs} copies, ${jobs} mutations at a time`);
    let next = 0;
    const worker = async (each) => {
      while (next < chosen.length) {
        const mutation = chosen[next++];
        const result = await runMutation(each, mutation);
        console.log(result.line);
        if (result.problem !== undefined) problems.push(result.problem);
        if (result.weak !== undefined) weak.push(result.weak);
      }
    };
    await Promise.all(copies.map((each) => worker(each)));
  } finally {
    for (const each of copies) rmSync(each, { recursive: true, force: true });
  }
  const total = ((performance.now() - started) / 1000).toFixed(0);
  if (weak.length > 0)
    console.log(
      `mutation-check: ${weak.length} caught only by an error, no assertion (to sharpen): ${weak.join(", ")}`,
    );
  if (problems.length === 0) {
    console.log(`mutation-check: all ${chosen.length} mutations caught (${total} s)`);
    return 0;
  }
  console.log(`mutation-check: ${problems.length} problem(s) (${total} s):\n- ${problems.join("\n- ")}`);
  return 1;
}

// Run only as a script: test/architecture/mutation-list.test.ts imports MUTATIONS to check the list itself.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === realpathSync(process.argv[1]))
  main().then((code) => {
    process.exitCode = code;
  });
