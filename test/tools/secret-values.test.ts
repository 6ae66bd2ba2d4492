/**
 * Secrets by value (issue 53 item 3): a variable whose value has a credential's shape is withheld from tool
 * processes whatever it is called, and its value is redacted. Oracles: literal example values (public example
 * shapes, none real) and literal variable names in the tool environment. Mutations it catches
 * (scripts/mutation-check.mjs): secret-value-check-dropped, secret-entropy-case-mix-dropped,
 * proc-environ-not-screened.
 */
import { describe, expect, it } from "vitest";
import { runTool } from "../../src/tools/run-tool.js";
import { bashTool } from "../../src/tools/shell/bash-tool.js";
import { SecretEnvironment } from "../../src/tools/shell/secret-env.js";
import { BYPASS, makeContext, outputText } from "./tool-test-context.js";

const GITHUB_CLASSIC = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
const GITHUB_FINE = `github_pat_11ABCDEFG0${"xY9".repeat(10)}`;
const RANDOM_KEY = "q8Zr2LmV0xT5nB7wK1cYp4HdJ6sEa3Uf9GiR"; // 36 mixed characters

const WITHHELD: Record<string, string> = {
  GH_PAT: GITHUB_CLASSIC,
  MY_GH: GITHUB_FINE,
  CLAUDE_THING: "sk-ant-api03-abcdefghijklmnop",
  OPENAI: "sk-proj-abcdefghijklmnopqrstuvwx",
  SLACK_HOOKY: "xoxb-1234567890-abcdefghij",
  AWS_ID_PLAIN: "AKIAIOSFODNN7EXAMPLE",
  GITLAB: "glpat-abcdefghij0123456789",
  GOOGLE: `AIza${"Sy0123456789abcdefghijklmnopqrstuv".slice(0, 35)}`,
  DEPLOY_THING: RANDOM_KEY,
  PROXY_WITH_LOGIN: "http://alice:hunter2@proxy.example:3128",
  GIT_REMOTE: `https://x-access-token:${GITHUB_CLASSIC}@github.com/o/r.git`,
};

const KEPT: Record<string, string> = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/home/someone",
  INVOCATION_ID: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", // one case: a hex id
  SESSION_UUID: "123e4567-e89b-12d3-a456-426614174000",
  GIT_COMMIT_SHA: "9fceb02d0ae598e95dc970b74767f19372d61af8",
  LONG_PATH: "/opt/SomeVendor/Tool2024/lib/Plugins/ExtraLongDirectoryName",
  MESSAGE: "Build 42 Passed On Linux With Node Twenty And All Green",
  SHORT_MIXED: "aB3dE5gH9", // mixed but short
  PROXY: "http://proxy.example:3128",
  REPEATED: "Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1", // mixed but low entropy
  LOWER_WORDS: "thequickbrownfoxjumpsoverthelazydog1234", // no upper case: words, not a key
};

describe("secrets by value", () => {
  it("withholds every variable whose value looks like a credential, and only those", () => {
    const secrets = new SecretEnvironment({ ...WITHHELD, ...KEPT }, { extraNames: [], passNames: [] });
    expect(secrets.removedNames).toEqual(Object.keys(WITHHELD).sort());
    expect(Object.keys(secrets.toolEnv).sort()).toEqual(Object.keys(KEPT).sort());
  });

  it("redacts the withheld values from text, and leaves the kept ones", () => {
    const secrets = new SecretEnvironment({ ...WITHHELD, ...KEPT }, { extraNames: [], passNames: [] });
    const text = `token ${GITHUB_CLASSIC} key ${RANDOM_KEY} path ${KEPT.LONG_PATH}`;
    expect(secrets.redact(text)).toBe(`token [REDACTED] key [REDACTED] path ${KEPT.LONG_PATH}`);
  });

  it("a variable passed on by name (THREADLINE_PASS_ENV) reaches tools, its value still redacted", () => {
    const secrets = new SecretEnvironment({ GH_PAT: GITHUB_CLASSIC }, { extraNames: [], passNames: ["GH_PAT"] });
    expect(secrets.toolEnv.GH_PAT).toBe(GITHUB_CLASSIC);
    expect(secrets.redact(GITHUB_CLASSIC)).toBe("[REDACTED]");
  });
});

describe("/proc/…/environ without the sandbox", () => {
  const context = () => makeContext(process.cwd(), { runtime: { secrets: new SecretEnvironment({}) } });

  it.each([
    "cat /proc/$PPID/environ | base64",
    "tr '\\0' '\\n' < /pr\"\"oc/self/envi\\ron | rev",
    "for f in /proc/[0-9]*/env*; do cat $f; done",
    "cd /proc/$PPID && cat env*",
  ])("Bash refuses %s and runs nothing", async (command) => {
    const result = await runTool(bashTool, { command: `${command}; echo ran-anyway` }, context(), BYPASS);
    expect(result.isError).toBe(true);
    expect(outputText(result.content)).toBe(
      "Bash refused: the command reads a process's environment under /proc (…/environ), where threadline's own " +
        "API key is; nothing was run. With --sandbox, /proc shows only the sandbox's own processes.",
    );
  });

  it("other /proc files are read as usual", async () => {
    const result = await runTool(bashTool, { command: "head -c 5 /proc/self/status; echo" }, context(), BYPASS);
    expect(outputText(result.content)).toBe("Name:");
  });
});
