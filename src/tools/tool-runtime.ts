/** Builds the runtime tool processes share for a session: the secret-free environment and the sandbox. */
import { BackgroundTasks } from "./background-tasks.js";
import { MonitorEvents } from "./monitor-events.js";
import { probeSandbox } from "./sandbox.js";
import { ScheduledPrompts } from "./scheduled-prompts.js";
import {
  PASS_ENV_VARIABLE,
  parseEnvNameList,
  processSecretEnvironment,
  SECRET_ENV_VARIABLE,
  SecretEnvironment,
  type SecretEnvSettings,
} from "./secret-env.js";
import type { ToolRuntime } from "./types.js";

/** The runtime of a tool called outside an engine: this process's secrets removed, no sandbox. */
export function defaultToolRuntime(): ToolRuntime {
  return { secrets: processSecretEnvironment() };
}

export interface ToolRuntimeOptions {
  /**
   * Where THREADLINE_SECRET_ENV / THREADLINE_PASS_ENV are read. Default `process.env`. Tool processes always
   * start from this process's own environment (what they would inherit), minus the secrets.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * Variables tool processes get on top of this process's environment (a settings file's `env`); secret names
   * among them are removed like any other. Default none.
   */
  extraEnv?: Readonly<Record<string, string>>;
  /** Extra secret names and pass-throughs. Default: from THREADLINE_SECRET_ENV / THREADLINE_PASS_ENV in `env`. */
  secretEnv?: SecretEnvSettings;
  /** `true` wants the sandbox, `false` refuses it. Default undefined: on when bubblewrap works here. */
  sandbox?: boolean;
  /** Let sandboxed commands use the network. Default false. */
  sandboxNetwork?: boolean;
  /** The clock of scheduled prompts (CronCreate, ScheduleWakeup): the engine's, so tests move it. Default now. */
  now?: () => Date;
}

/** What was decided about the sandbox, for a one-line notice. */
export type SandboxStatus =
  | { state: "on"; network: boolean }
  | { state: "off"; reason: "disabled" }
  | { state: "off"; reason: "unavailable"; detail: string; requested: boolean };

/** The session's tool runtime and what became of the sandbox. */
export function createToolRuntime(options: ToolRuntimeOptions = {}): { runtime: ToolRuntime; sandbox: SandboxStatus } {
  const env = options.env ?? process.env;
  const settings: SecretEnvSettings = options.secretEnv ?? {};
  const extra = options.extraEnv ?? {};
  const base = Object.keys(extra).length > 0 ? { ...process.env, ...extra } : process.env;
  const sameSettings =
    base === process.env &&
    settings.extraNames === undefined &&
    settings.passNames === undefined &&
    env[SECRET_ENV_VARIABLE] === process.env[SECRET_ENV_VARIABLE] &&
    env[PASS_ENV_VARIABLE] === process.env[PASS_ENV_VARIABLE];
  const secrets = sameSettings
    ? processSecretEnvironment()
    : new SecretEnvironment(base, {
        extraNames: settings.extraNames ?? parseEnvNameList(env[SECRET_ENV_VARIABLE]),
        passNames: settings.passNames ?? parseEnvNameList(env[PASS_ENV_VARIABLE]),
      });
  const background = new BackgroundTasks();
  const now = options.now;
  const scheduling = {
    monitorEvents: new MonitorEvents(),
    scheduled: new ScheduledPrompts(now !== undefined ? { now: () => now().getTime() } : {}),
  };
  if (options.sandbox === false)
    return { runtime: { secrets, background, ...scheduling }, sandbox: { state: "off", reason: "disabled" } };
  const probe = probeSandbox(process.env.PATH ?? "");
  if (!probe.available) {
    return {
      runtime: { secrets, background, ...scheduling },
      sandbox: { state: "off", reason: "unavailable", detail: probe.reason, requested: options.sandbox === true },
    };
  }
  const network = options.sandboxNetwork ?? false;
  return {
    runtime: { secrets, background, ...scheduling, sandbox: { bwrapPath: probe.bwrapPath, network } },
    sandbox: { state: "on", network },
  };
}

/** One line for a person about a sandbox that could not start (undefined when there is nothing to say). */
export function sandboxNotice(status: SandboxStatus): string | undefined {
  if (status.state !== "off" || status.reason !== "unavailable") return undefined;
  return `sandbox unavailable: ${status.detail}; Bash runs unsandboxed and asks before anything that is not read-only.`;
}
