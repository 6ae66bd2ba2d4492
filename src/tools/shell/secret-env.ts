/**
 * Which environment variables are secrets: by name (below) or by value (secret-values.ts). Tool processes (Bash, REPL's Bash, ripgrep) start without them, and
 * their values, read once from the environment threadline started with, are redacted from every tool result.
 */
import { redactableSecrets, redactSecrets, redactSecretsDeep } from "../../messages/index.js";
import { isSecretEnvValue } from "./secret-values.js";

/** Names that are always secrets, whatever their shape. */
export const DEFAULT_SECRET_ENV_NAMES: readonly string[] = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_CUSTOM_HEADERS",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "AZURE_CLIENT_SECRET",
  "DATABASE_URL",
  "PGPASSWORD",
  "THREADLINE_STORE",
  "NPM_TOKEN",
  "NODE_AUTH_TOKEN",
];

/**
 * Name shapes that are secrets: anything ending in `_API_KEY`, `_KEY` after `ANTHROPIC_`, `_TOKEN`, `_SECRET`,
 * `_PASSWORD`, `_PASSWD`, `_CREDENTIALS`, `_PRIVATE_KEY`, `_ACCESS_KEY`, or containing `SECRET`.
 */
export const DEFAULT_SECRET_ENV_PATTERNS: readonly RegExp[] = [
  /^ANTHROPIC_.*KEY/i,
  /(?:^|_)API_?KEY$/i,
  /(?:^|_)TOKEN$/i,
  /SECRET/i,
  /(?:^|_)PASSWORD$/i,
  /(?:^|_)PASSWD$/i,
  /(?:^|_)CREDENTIALS?$/i,
  /(?:^|_)PRIVATE_KEY$/i,
  /(?:^|_)ACCESS_KEY$/i,
];

/** Comma-separated extra names (or `PREFIX_*` shapes) to treat as secrets. */
export const SECRET_ENV_VARIABLE = "THREADLINE_SECRET_ENV";
/** Comma-separated names to pass to tool processes even though they look secret (their values stay redacted). */
export const PASS_ENV_VARIABLE = "THREADLINE_PASS_ENV";

/** The settings that decide which names are secret. */
export interface SecretEnvSettings {
  /** Extra names or `PREFIX_*` shapes. Default: THREADLINE_SECRET_ENV. */
  extraNames?: readonly string[];
  /** Names handed to tool processes anyway. Default: THREADLINE_PASS_ENV. */
  passNames?: readonly string[];
}

/** The names in a comma-separated setting (blanks dropped). */
export function parseEnvNameList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

function matchesName(name: string, shape: string): boolean {
  return shape.endsWith("*") ? name.startsWith(shape.slice(0, -1)) : name === shape;
}

/** Everything a tool run needs to keep secrets in: the clean environment and the redactor. */
export class SecretEnvironment {
  /** The environment for tool processes: the original minus every secret name (unless passed through). */
  readonly toolEnv: Readonly<Record<string, string>>;
  /** Names removed from the tool environment, sorted (for the README and diagnostics; never the values). */
  readonly removedNames: readonly string[];
  readonly #secrets: readonly string[];

  constructor(env: NodeJS.ProcessEnv = process.env, settings: SecretEnvSettings = {}) {
    const extra = settings.extraNames ?? parseEnvNameList(env[SECRET_ENV_VARIABLE]);
    const pass = settings.passNames ?? parseEnvNameList(env[PASS_ENV_VARIABLE]);
    const toolEnv: Record<string, string> = {};
    const removed: string[] = [];
    const secrets: string[] = [];
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) continue;
      if (isSecretEnvName(name, extra) || isSecretEnvValue(value)) {
        secrets.push(value);
        if (!pass.some((shape) => matchesName(name, shape))) {
          removed.push(name);
          continue;
        }
      }
      toolEnv[name] = value;
    }
    this.toolEnv = toolEnv;
    this.removedNames = removed.sort();
    this.#secrets = redactableSecrets(secrets);
  }

  /** `text` with every secret value (and any `sk-ant-…` token) replaced by `[REDACTED]`. */
  redact(text: string): string {
    return redactSecrets(text, this.#secrets);
  }

  /** A copy of structured data with every string in it redacted. */
  redactDeep<T>(value: T): T {
    return redactSecretsDeep(value, this.#secrets);
  }

  /** The secret values (for error redaction elsewhere); never log them. */
  get values(): readonly string[] {
    return this.#secrets;
  }
}

/** Whether an environment variable name holds a secret: the named list, the shapes, or `extraNames`. */
export function isSecretEnvName(name: string, extraNames: readonly string[] = []): boolean {
  if (name === SECRET_ENV_VARIABLE || name === PASS_ENV_VARIABLE) return false;
  if (DEFAULT_SECRET_ENV_NAMES.includes(name)) return true;
  if (extraNames.some((shape) => matchesName(name, shape))) return true;
  return DEFAULT_SECRET_ENV_PATTERNS.some((pattern) => pattern.test(name));
}

let processDefault: SecretEnvironment | undefined;

/** The secret environment of this process as it started (computed on first use, then kept). */
export function processSecretEnvironment(): SecretEnvironment {
  processDefault ??= new SecretEnvironment(process.env);
  return processDefault;
}
