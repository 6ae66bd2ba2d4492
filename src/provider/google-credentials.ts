/**
 * Which Google credential source Vertex will use, decided from the environment and files on disk alone.
 * Application Default Credentials end by probing the GCE metadata server (a network call with a
 * multi-second timeout); off Google Cloud that probe can only fail slowly, so when no credential file is
 * configured we say what is missing instead.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export type GoogleAuthChoice =
  /** A ready OAuth access token (`GOOGLE_OAUTH_ACCESS_TOKEN`, e.g. from `gcloud auth print-access-token`). */
  | { kind: "token"; token: string }
  /** Application Default Credentials through google-auth-library; `source` says where they come from. */
  | { kind: "adc"; source: string }
  /** No Authorization header (a gateway in front of Vertex adds credentials). */
  | { kind: "skip" }
  | { kind: "missing"; message: string };

/** A ready access token; when set, ADC is not consulted. */
export const GOOGLE_ACCESS_TOKEN_ENV = "GOOGLE_OAUTH_ACCESS_TOKEN";
/** Set to 1 to send requests without Google credentials (an LLM gateway adds them). */
export const SKIP_VERTEX_AUTH_ENV = "THREADLINE_SKIP_VERTEX_AUTH";

export const MISSING_GOOGLE_CREDENTIALS =
  "Google Vertex AI: no Google credentials found: run `gcloud auth application-default login`, set GOOGLE_APPLICATION_CREDENTIALS to a key file, or set GOOGLE_OAUTH_ACCESS_TOKEN";

export interface GoogleAuthProbe {
  exists?: (path: string) => boolean;
  read?: (path: string) => string | undefined;
  home?: string;
}

/** Picks the credential source. */
export function resolveGoogleAuth(
  env: Readonly<Record<string, string | undefined>>,
  probe: GoogleAuthProbe = {},
): GoogleAuthChoice {
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw === "" ? undefined : raw;
  };
  if (value(SKIP_VERTEX_AUTH_ENV) === "1") return { kind: "skip" };
  const token = value(GOOGLE_ACCESS_TOKEN_ENV);
  if (token !== undefined) return { kind: "token", token };
  const exists = probe.exists ?? existsSync;
  const keyFile = value("GOOGLE_APPLICATION_CREDENTIALS");
  if (keyFile !== undefined) {
    return exists(keyFile)
      ? { kind: "adc", source: keyFile }
      : {
          kind: "missing",
          message: `Google Vertex AI: GOOGLE_APPLICATION_CREDENTIALS names ${keyFile}, which does not exist`,
        };
  }
  const configDir = value("CLOUDSDK_CONFIG") ?? join(probe.home ?? homedir(), ".config", "gcloud");
  const wellKnown = join(configDir, "application_default_credentials.json");
  if (exists(wellKnown)) return { kind: "adc", source: wellKnown };
  if (value("METADATA_SERVER_DETECTION") !== "none" && onGoogleCloud(probe.read ?? readSmallFile)) {
    return { kind: "adc", source: "the GCE metadata server" };
  }
  return { kind: "missing", message: MISSING_GOOGLE_CREDENTIALS };
}

/** Google Compute Engine names itself in DMI (the check google-auth-library itself makes, no network). */
function onGoogleCloud(read: (path: string) => string | undefined): boolean {
  return /Google/.test(read("/sys/class/dmi/id/product_name") ?? "");
}

function readSmallFile(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").slice(0, 256);
  } catch {
    return undefined;
  }
}
