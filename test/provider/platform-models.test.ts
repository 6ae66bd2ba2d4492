/**
 * Platform model ids, credential sources and platform selection: pure functions of the environment and
 * the files a probe reports (no real disk, no network).
 */

import { firstPartyModel } from "@threadline/emulator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KNOWN_MODEL_IDS } from "../../src/messages/index.js";
import {
  bedrockInferencePrefix,
  bedrockModelId,
  firstPartyModelId,
  MISSING_AWS_CREDENTIALS,
  MISSING_GOOGLE_CREDENTIALS,
  missingCredentials,
  platformFromEnv,
  resolveAwsAuth,
  resolveGoogleAuth,
  vertexModelId,
} from "../../src/provider/index.js";

describe("platform model ids", () => {
  it.each([
    ["claude-sonnet-4-5", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5@20250929"],
    ["claude-sonnet-4-5-20250929", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5@20250929"],
    ["claude-haiku-4-5", "us.anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5@20251001"],
    ["claude-3-7-sonnet", "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "claude-3-7-sonnet@20250219"],
    ["claude-opus-4-6", "us.anthropic.claude-opus-4-6-v1", "claude-opus-4-6"],
    ["claude-sonnet-4-6", "us.anthropic.claude-sonnet-4-6", "claude-sonnet-4-6"],
  ])("%s → Bedrock %s, Vertex %s", (model, bedrock, vertex) => {
    expect(bedrockModelId(model, "us")).toBe(bedrock);
    expect(vertexModelId(model)).toBe(vertex);
  });

  it("ids already in the platform's form pass through (ANTHROPIC_MODEL / --model overrides)", () => {
    for (const id of [
      "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "anthropic.claude-sonnet-4-6",
      "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123",
    ]) {
      expect(bedrockModelId(id, "eu")).toBe(id);
    }
    expect(vertexModelId("claude-opus-4-1@20250805")).toBe("claude-opus-4-1@20250805");
  });

  it("picks the inference profile of the region", () => {
    expect(
      ["us-east-1", "eu-west-3", "ap-northeast-1", "us-gov-west-1", "sa-east-1"].map(bedrockInferencePrefix),
    ).toEqual(["us", "eu", "apac", "us-gov", "global"]);
  });

  it("every table model round-trips to its first-party id through either platform (provider and emulator agree)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...KNOWN_MODEL_IDS), fc.constantFrom("us", "eu", "global", null), (model, prefix) => {
        for (const platformId of [bedrockModelId(model, prefix), vertexModelId(model)]) {
          const back = firstPartyModelId(platformId);
          expect(back.startsWith(model)).toBe(true);
          expect(firstPartyModel(platformId)).toBe(back);
        }
      }),
    );
  });
});

describe("AWS credential sources, decided without network", () => {
  const nothing = { exists: () => false, read: () => undefined, home: "/home/nobody" };

  it("takes, in order: bearer token, static keys, a profile, the shared files", () => {
    expect(
      resolveAwsAuth({ AWS_BEARER_TOKEN_BEDROCK: "b", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" }, nothing)
        .kind,
    ).toBe("bearer");
    expect(
      resolveAwsAuth({ AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s", AWS_SESSION_TOKEN: "t" }, nothing),
    ).toEqual({
      kind: "static",
      accessKeyId: "a",
      secretAccessKey: "s",
      sessionToken: "t",
    });
    expect(resolveAwsAuth({ AWS_PROFILE: "dev" }, nothing)).toEqual({ kind: "chain", source: "profile dev" });
    const files = { ...nothing, exists: (path: string) => path === "/home/nobody/.aws/config" };
    expect(resolveAwsAuth({}, files)).toEqual({ kind: "chain", source: "/home/nobody/.aws/config" });
  });

  it("nothing configured off EC2 (or with the metadata endpoint disabled) is one line, not a probe", () => {
    expect(resolveAwsAuth({}, nothing)).toEqual({ kind: "missing", message: MISSING_AWS_CREDENTIALS });
    const ec2 = { ...nothing, read: (path: string) => (path.endsWith("sys_vendor") ? "Amazon EC2\n" : undefined) };
    expect(resolveAwsAuth({}, ec2)).toEqual({ kind: "chain", source: "EC2 instance role" });
    expect(resolveAwsAuth({ AWS_EC2_METADATA_DISABLED: "true" }, ec2).kind).toBe("missing");
    expect(resolveAwsAuth({ AWS_ACCESS_KEY_ID: "a" }, nothing)).toEqual({
      kind: "missing",
      message: "Amazon Bedrock: AWS_SECRET_ACCESS_KEY is not set (the two go together)",
    });
  });
});

describe("Google credential sources, decided without network", () => {
  const nothing = { exists: () => false, read: () => undefined, home: "/home/nobody" };

  it("a token, a key file, the gcloud ADC file, else one line", () => {
    expect(resolveGoogleAuth({ GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.x" }, nothing)).toEqual({
      kind: "token",
      token: "ya29.x",
    });
    expect(
      resolveGoogleAuth({ GOOGLE_APPLICATION_CREDENTIALS: "/k.json" }, { ...nothing, exists: () => true }).kind,
    ).toBe("adc");
    expect(resolveGoogleAuth({ GOOGLE_APPLICATION_CREDENTIALS: "/k.json" }, nothing).kind).toBe("missing");
    const adc = {
      ...nothing,
      exists: (path: string) => path === "/home/nobody/.config/gcloud/application_default_credentials.json",
    };
    expect(resolveGoogleAuth({}, adc).kind).toBe("adc");
    expect(resolveGoogleAuth({}, nothing)).toEqual({ kind: "missing", message: MISSING_GOOGLE_CREDENTIALS });
  });
});

describe("platform selection", () => {
  it("THREADLINE_USE_BEDROCK / THREADLINE_USE_VERTEX choose, Bedrock first; default first-party", () => {
    expect(platformFromEnv({})).toBe("anthropic");
    expect(platformFromEnv({ THREADLINE_USE_VERTEX: "1" })).toBe("vertex");
    expect(platformFromEnv({ THREADLINE_USE_BEDROCK: "true", THREADLINE_USE_VERTEX: "1" })).toBe("bedrock");
    expect(platformFromEnv({ THREADLINE_USE_BEDROCK: "0" })).toBe("anthropic");
  });

  it("Vertex without a project says so", () => {
    expect(missingCredentials("vertex", { GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.x" })).toBe(
      "Google Vertex AI: no project: set ANTHROPIC_VERTEX_PROJECT_ID",
    );
    expect(
      missingCredentials("vertex", { GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.x", ANTHROPIC_VERTEX_PROJECT_ID: "p" }),
    ).toBeUndefined();
  });
});
