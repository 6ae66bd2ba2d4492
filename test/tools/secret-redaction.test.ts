import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { startEmulator } from "@threadline/emulator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { AnthropicProvider } from "../../src/provider/index.js";
import { runTool } from "../../src/tools/run-tool.js";
import {
  DEFAULT_SECRET_ENV_NAMES,
  isSecretEnvName,
  PASS_ENV_VARIABLE,
  SECRET_ENV_VARIABLE,
  SecretEnvironment,
} from "../../src/tools/shell/secret-env.js";
import type { Tool, ToolContext, ToolOutput } from "../../src/tools/types.js";
import { makeTempDir } from "../../support/temp-dir.js";

describe("secret environment", () => {
  it("removes the named list, the name shapes and THREADLINE_SECRET_ENV names; keeps the rest", () => {
    const env = {
      PATH: "/usr/bin",
      HOME: "/home/someone",
      ANTHROPIC_API_KEY: "sk-ant-api03-aaaaaaaaaaaa",
      ANTHROPIC_AUTH_TOKEN: "token-aaaaaaaaaaaa",
      OPENAI_API_KEY: "sk-openai-aaaaaaaaaaaa",
      GITHUB_TOKEN: "ghp_aaaaaaaaaaaaaaaa",
      AWS_SECRET_ACCESS_KEY: "aws-aaaaaaaaaaaaaaaa",
      AWS_SESSION_TOKEN: "aws-session-aaaaaaaa",
      DB_PASSWORD: "hunter2hunter2",
      CLIENT_SECRET: "client-secret-aaaa",
      MY_CORP_CRED: "corp-credential-value",
      [SECRET_ENV_VARIABLE]: "MY_CORP_*",
      NODE_ENV: "test",
      TERM: "xterm",
    };
    const secrets = new SecretEnvironment(env);
    expect(Object.keys(secrets.toolEnv).sort()).toEqual(["HOME", "NODE_ENV", "PATH", "TERM", SECRET_ENV_VARIABLE]);
    expect(secrets.removedNames).toContain("MY_CORP_CRED");
    expect(secrets.redact("a corp-credential-value b hunter2hunter2")).toBe("a [REDACTED] b [REDACTED]");
  });

  it("passes a name through when asked, and still redacts its value", () => {
    const env = { NPM_TOKEN: "npm_aaaaaaaaaaaaaaaa", [PASS_ENV_VARIABLE]: "NPM_TOKEN", PATH: "/bin" };
    const secrets = new SecretEnvironment(env);
    expect(secrets.toolEnv.NPM_TOKEN).toBe("npm_aaaaaaaaaaaaaaaa");
    expect(secrets.redact("token npm_aaaaaaaaaaaaaaaa")).toBe("token [REDACTED]");
  });

  it("knows every name on the documented list", () => {
    for (const name of DEFAULT_SECRET_ENV_NAMES) expect(isSecretEnvName(name)).toBe(true);
    for (const name of ["PATH", "HOME", "LANG", "NODE_OPTIONS", "CI", SECRET_ENV_VARIABLE]) {
      expect(isSecretEnvName(name)).toBe(false);
    }
  });
});

/** A tool that says whatever it is told, in every channel a result has. */
const echoTool: Tool<{ text: string; how: "content" | "blocks" | "error" | "throw" | "display" }> = {
  name: "Echo",
  description: "echo",
  inputSchema: z.strictObject({
    text: z.string(),
    how: z.enum(["content", "blocks", "error", "throw", "display"]),
  }),
  isReadOnly: () => true,
  compactable: true,
  async call(input, context): Promise<ToolOutput> {
    context.onProgress(input.text);
    switch (input.how) {
      case "content":
        return { content: input.text };
      case "blocks":
        return { content: [{ type: "text", text: input.text }] };
      case "error":
        return { content: input.text, isError: true };
      case "throw":
        throw new Error(input.text);
      case "display":
        return { content: "ok", display: { kind: "echo", nested: [{ text: input.text }] } };
    }
  },
};

/** A tool that prints an environment variable of this process (as a careless script would). */
const envTool: Tool<{ name: string }> = {
  name: "EnvValue",
  description: "print an environment variable",
  inputSchema: z.strictObject({ name: z.string() }),
  isReadOnly: () => true,
  compactable: true,
  async call(input): Promise<ToolOutput> {
    return { content: `${input.name}=${process.env[input.name] ?? ""}` };
  },
};

/** Realistic secret values: key-shaped, long enough to redact, not part of the marker itself. */
const secretValue = fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).filter((value) => !"[REDACTED]".includes(value));

describe("redaction of tool results", () => {
  it("property: no tool output containing a secret's value comes out of runTool unredacted", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(secretValue, { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.nat({ max: 2 })), { maxLength: 8 }),
        fc.constantFrom("content", "blocks", "error", "throw", "display") as fc.Arbitrary<
          "content" | "blocks" | "error" | "throw" | "display"
        >,
        async (values, pieces, how) => {
          const env: Record<string, string> = { PATH: "/bin" };
          values.forEach((value, index) => {
            env[`SERVICE${index}_API_KEY`] = value;
          });
          const secrets = new SecretEnvironment(env);
          const text = pieces.map((piece) => (typeof piece === "number" ? (values[piece] ?? "") : piece)).join("");
          const progress: string[] = [];
          const context: ToolContext = {
            cwd: tmpdir(),
            additionalDirectories: [],
            signal: new AbortController().signal,
            toolUseId: "toolu_1",
            onProgress: (message) => progress.push(message),
            runtime: { secrets },
          };
          const output = await runTool(echoTool, { text, how }, context, { mode: "default", allow: [], deny: [] });
          const everything = JSON.stringify({ output, progress });
          for (const value of values) expect(everything).not.toContain(value);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an engine's transcript and requests never hold a secret a tool printed", async () => {
    const secret = "svc-secret-value-0123456789";
    const previous = process.env.ISSUE17_TEST_API_KEY;
    process.env.ISSUE17_TEST_API_KEY = secret;
    const emulator = await startEmulator({
      scenario: [
        { content: [{ type: "tool_use", name: "EnvValue", input: { name: "ISSUE17_TEST_API_KEY" } }] },
        "done",
      ],
    });
    const home = await makeTempDir("redact");
    try {
      const engine = new QueryEngine({
        cwd: home,
        home,
        tools: [envTool],
        // The secret entered the environment after start-up: an engine option names it explicitly.
        secretEnv: { extraNames: ["ISSUE17_TEST_API_KEY"] },
        provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: "sk-ant-test-x", sleep: async () => {} }),
      });
      for await (const _event of engine.submitMessage("print it")) {
        // drain
      }
      await engine.close();
      const transcript = await readFile(engine.transcriptPath ?? "", "utf8");
      expect(transcript).toContain("ISSUE17_TEST_API_KEY=[REDACTED]");
      expect(transcript).not.toContain(secret);
      expect(JSON.stringify(emulator.requests)).not.toContain(secret);
    } finally {
      if (previous === undefined) delete process.env.ISSUE17_TEST_API_KEY;
      else process.env.ISSUE17_TEST_API_KEY = previous;
      await emulator.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
