/**
 * `threadline --provider bedrock|vertex` as a real process: a print-mode answer through each platform's
 * SDK against the emulator, and a one-line refusal when the cloud credentials are missing — decided
 * locally (HOME is empty, the EC2 metadata endpoint is disabled), so nothing leaves loopback.
 */
import { join } from "node:path";
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { FAKE_AWS_ENV, FAKE_GOOGLE_ENV } from "../../support/platform-env.js";
import { makeTempDir } from "../../support/temp-dir.js";
import { runCli } from "./cli-process.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** The test process's environment without any cloud or Anthropic credential, HOME pointing at an empty dir. */
async function bareEnv(extra: Record<string, string> = {}): Promise<{ env: NodeJS.ProcessEnv; cwd: string }> {
  const home = await makeTempDir("home");
  const cwd = await makeTempDir("ws");
  const kept = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(AWS_|GOOGLE_|GCLOUD_|CLOUDSDK_|ANTHROPIC_|CLOUD_ML_|THREADLINE_)/.test(name),
    ),
  );
  return {
    cwd,
    env: {
      ...kept,
      HOME: home,
      THREADLINE_HOME: join(home, ".threadline"),
      AWS_EC2_METADATA_DISABLED: "true",
      METADATA_SERVER_DETECTION: "none",
      NO_COLOR: "1",
      ...extra,
    },
  };
}

describe("threadline --provider", () => {
  it("bedrock with no AWS credentials says in one line what is missing", async () => {
    const { env, cwd } = await bareEnv();
    const result = await runCli(["--provider", "bedrock", "-p", "hi"], { env, cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^threadline: Amazon Bedrock: no AWS credentials found: set AWS_PROFILE/);
  });

  it("THREADLINE_USE_VERTEX=1 with no Google credentials says in one line what is missing", async () => {
    const { env, cwd } = await bareEnv({ THREADLINE_USE_VERTEX: "1", ANTHROPIC_VERTEX_PROJECT_ID: "p" });
    const result = await runCli(["-p", "hi"], { env, cwd });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^threadline: Google Vertex AI: no Google credentials found/);
  });

  it.each([
    ["bedrock", { ...FAKE_AWS_ENV }, "ANTHROPIC_BEDROCK_BASE_URL", /^\/model\/us\.anthropic\.claude-sonnet-4-5-/],
    ["vertex", { ...FAKE_GOOGLE_ENV }, "ANTHROPIC_VERTEX_BASE_URL", /^\/projects\/test-project\/locations\/us-east5\//],
  ])("%s answers a print-mode prompt through its SDK", async (provider, credentials, baseVariable, path) => {
    emulator = await startEmulator({ scenario: ["Hello from the cloud."] });
    const { env, cwd } = await bareEnv({
      ...credentials,
      [baseVariable]: emulator.url,
      ANTHROPIC_MODEL: "claude-sonnet-4-5",
    });
    const result = await runCli(["--provider", provider, "-p", "say hello"], { env, cwd });
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("Hello from the cloud.");
    expect(result.code).toBe(0);
    const paths = emulator.requests.map((request) => request.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((requestPath) => path.test(requestPath))).toBe(true);
    expect(emulator.stats().violations).toBe(0);
  });
});
