/** Fake cloud credentials for tests: nothing here is real, and nothing lets a lookup leave loopback. */

/** Fake AWS keys; the EC2 metadata endpoint is ruled out so the credential chain never probes it. */
export const FAKE_AWS_ENV: Readonly<Record<string, string>> = {
  AWS_ACCESS_KEY_ID: "test",
  AWS_SECRET_ACCESS_KEY: "test-secret-not-real",
  AWS_REGION: "us-east-1",
  AWS_EC2_METADATA_DISABLED: "true",
};

/** A fake Google access token: the provider hands the SDK a fixed-header auth client (no ADC, no metadata server). */
export const FAKE_GOOGLE_ENV: Readonly<Record<string, string>> = {
  GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.test-token-not-real",
  ANTHROPIC_VERTEX_PROJECT_ID: "test-project",
  CLOUD_ML_REGION: "us-east5",
  METADATA_SERVER_DETECTION: "none",
};
