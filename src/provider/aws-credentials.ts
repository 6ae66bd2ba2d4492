/**
 * Which AWS credential source Bedrock will use, decided from the environment and files on disk alone.
 * The AWS default chain ends by probing the EC2 instance metadata endpoint (a network call with timeouts);
 * off EC2 that probe can only fail slowly, so when nothing local is configured we say what is missing
 * instead of calling the chain. `AWS_EC2_METADATA_DISABLED=true` rules the probe out even on EC2.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** How the Bedrock client authenticates. */
export type AwsAuth =
  /** A Bedrock API key (`AWS_BEARER_TOKEN_BEDROCK`), sent as a bearer token. */
  | { kind: "bearer"; token: string }
  /** Keys from the environment, signed with SigV4 directly (no chain). */
  | { kind: "static"; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  /** The AWS default credential chain; `source` says why we expect it to succeed. */
  | { kind: "chain"; source: string }
  /** No signing at all (a gateway in front of Bedrock adds credentials). */
  | { kind: "skip" }
  | { kind: "missing"; message: string };

/** The `chain` source on an EC2 instance: the only case where the metadata endpoint may be asked. */
export const EC2_INSTANCE_ROLE = "EC2 instance role";

/** Set to 1 to send requests unsigned (an LLM gateway signs them). */
export const SKIP_BEDROCK_AUTH_ENV = "THREADLINE_SKIP_BEDROCK_AUTH";

/** The one line printed when no AWS credential source is configured. */
export const MISSING_AWS_CREDENTIALS =
  "Amazon Bedrock: no AWS credentials found: set AWS_PROFILE (a profile in ~/.aws/config), AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_BEARER_TOKEN_BEDROCK";

export interface AwsAuthProbe {
  /** Whether a file exists. Default: `existsSync`. */
  exists?: (path: string) => boolean;
  /** Reads a small text file, or undefined. Default: `readFileSync` (errors → undefined). */
  read?: (path: string) => string | undefined;
  /** Home directory for `~/.aws`. Default: `os.homedir()`. */
  home?: string;
}

/** Picks the credential source, in the AWS SDK's own order of precedence. */
export function resolveAwsAuth(env: Readonly<Record<string, string | undefined>>, probe: AwsAuthProbe = {}): AwsAuth {
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw === "" ? undefined : raw;
  };
  if (value(SKIP_BEDROCK_AUTH_ENV) === "1") return { kind: "skip" };
  const bearer = value("AWS_BEARER_TOKEN_BEDROCK");
  if (bearer !== undefined) return { kind: "bearer", token: bearer };
  const accessKeyId = value("AWS_ACCESS_KEY_ID");
  const secretAccessKey = value("AWS_SECRET_ACCESS_KEY");
  if (accessKeyId !== undefined && secretAccessKey !== undefined) {
    const sessionToken = value("AWS_SESSION_TOKEN");
    return { kind: "static", accessKeyId, secretAccessKey, ...(sessionToken !== undefined ? { sessionToken } : {}) };
  }
  if (accessKeyId !== undefined || secretAccessKey !== undefined) {
    return {
      kind: "missing",
      message: `Amazon Bedrock: ${accessKeyId === undefined ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY"} is not set (the two go together)`,
    };
  }
  const exists = probe.exists ?? existsSync;
  const home = probe.home ?? homedir();
  if (value("AWS_PROFILE") !== undefined) return { kind: "chain", source: `profile ${value("AWS_PROFILE")}` };
  if (value("AWS_WEB_IDENTITY_TOKEN_FILE") !== undefined && value("AWS_ROLE_ARN") !== undefined) {
    return { kind: "chain", source: "web identity token" };
  }
  if (value("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") !== undefined || value("AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
    return { kind: "chain", source: "container credentials" };
  }
  const files = [
    value("AWS_SHARED_CREDENTIALS_FILE") ?? join(home, ".aws", "credentials"),
    value("AWS_CONFIG_FILE") ?? join(home, ".aws", "config"),
  ];
  const file = files.find((path) => exists(path));
  if (file !== undefined) return { kind: "chain", source: file };
  if (value("AWS_EC2_METADATA_DISABLED")?.toLowerCase() !== "true" && onEc2(probe.read ?? readSmallFile)) {
    return { kind: "chain", source: EC2_INSTANCE_ROLE };
  }
  return { kind: "missing", message: MISSING_AWS_CREDENTIALS };
}

/** EC2 identifies itself in DMI / the Xen hypervisor uuid (the AWS-documented local check, no network). */
function onEc2(read: (path: string) => string | undefined): boolean {
  const vendor = read("/sys/devices/virtual/dmi/id/sys_vendor") ?? "";
  const uuid = read("/sys/hypervisor/uuid") ?? "";
  return vendor.trim() === "Amazon EC2" || uuid.toLowerCase().startsWith("ec2");
}

function readSmallFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").slice(0, 256);
  } catch {
    return undefined;
  }
}

/** The slice of `@aws-sdk/credential-providers` the chain uses (loaded on first use: it is large). */
type CredentialProviders = typeof import("@aws-sdk/credential-providers");

/**
 * The AWS credential chain for a `chain` source: the SDK's default chain on EC2; elsewhere the same
 * sources (profiles incl. SSO and credential_process, web identity, container) without the instance
 * metadata probe, so a broken profile fails with its own error instead of a request to 169.254.169.254.
 */
export async function awsCredentialChain(
  source: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ReturnType<CredentialProviders["fromNodeProviderChain"]>> {
  const providers: CredentialProviders = await import("@aws-sdk/credential-providers");
  if (source === EC2_INSTANCE_ROLE) return providers.fromNodeProviderChain();
  const set = (name: string): string | undefined => (env[name] === "" ? undefined : env[name]);
  const profile = set("AWS_PROFILE");
  const filepath = set("AWS_SHARED_CREDENTIALS_FILE");
  const configFilepath = set("AWS_CONFIG_FILE");
  const container = env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI ?? env.AWS_CONTAINER_CREDENTIALS_FULL_URI;
  return providers.createCredentialChain(
    providers.fromIni({
      ...(profile !== undefined ? { profile } : {}),
      ...(filepath !== undefined ? { filepath } : {}),
      ...(configFilepath !== undefined ? { configFilepath } : {}),
    }),
    ...(set("AWS_WEB_IDENTITY_TOKEN_FILE") !== undefined ? [providers.fromTokenFile()] : []),
    ...(container !== undefined && container !== "" ? [providers.fromContainerMetadata()] : []),
  );
}
