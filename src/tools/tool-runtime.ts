/** Builds the runtime tool processes share for a session: the secret-free environment and the sandbox. */

import { ScheduledPrompts } from "./schedule/scheduled-prompts.js";
import { BackgroundTasks } from "./shell/background-tasks.js";
import { MonitorEvents } from "./shell/monitor-events.js";
import type { SandboxSettings } from "./shell/sandbox.js";
import { probeSandbox } from "./shell/sandbox.js";
import {
  PASS_ENV_VARIABLE,
  parseEnvNameList,
  processSecretEnvironment,
  SECRET_ENV_VARIABLE,
  SecretEnvironment,
  type SecretEnvSettings,
} from "./shell/secret-env.js";
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

/** The session's tool runtime, and what became of the sandbox (decided when first asked: see below). */
export interface CreatedToolRuntime {
  runtime: ToolRuntime;
  /**
   * Whether Bash runs sandboxed. Reading it decides (runs the bubblewrap probe once); so does the first Bash
   * call. Nothing reads it before a print-mode session's first request unless `--sandbox` or `-v` asks for the
   * notice. Do not destructure it from the result before it is needed.
   */
  readonly sandbox: SandboxStatus;
}

export function createToolRuntime(options: ToolRuntimeOptions = {}): CreatedToolRuntime {
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
  // The probe starts a bwrap process and waits for it (~20 ms): at start-up that delayed every print-mode
  // session's first request, and most sessions that run no command never needed it (docs/PERFORMANCE.md).
  const pathVariable = process.env.PATH ?? "";
  let decided: { status: SandboxStatus; settings?: SandboxSettings } | undefined;
  const decide = () => {
    decided ??= decideSandbox(pathVariable, options);
    return decided;
  };
  return {
    runtime: { secrets, background, ...scheduling, sandbox: () => decide().settings },
    get sandbox() {
      return decide().status;
    },
  };
}

function decideSandbox(
  pathVariable: string,
  options: ToolRuntimeOptions,
): { status: SandboxStatus; settings?: SandboxSettings } {
  const probe = probeSandbox(pathVariable);
  if (!probe.available)
    return {
      status: { state: "off", reason: "unavailable", detail: probe.reason, requested: options.sandbox === true },
    };
  const network = options.sandboxNetwork ?? false;
  return { status: { state: "on", network }, settings: { bwrapPath: probe.bwrapPath, network } };
}

/** The sandbox a command runs under: the runtime's settings, asked for now when they are decided lazily. */
export function sandboxOf(runtime: ToolRuntime): SandboxSettings | undefined {
  return typeof runtime.sandbox === "function" ? runtime.sandbox() : runtime.sandbox;
}

/** One line for a person about a sandbox that could not start (undefined when there is nothing to say). */
export function sandboxNotice(status: SandboxStatus): string | undefined {
  if (status.state !== "off" || status.reason !== "unavailable") return undefined;
  return `sandbox unavailable: ${status.detail}; Bash runs unsandboxed and asks before anything that is not read-only.`;
}
