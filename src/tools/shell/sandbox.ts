/**
 * The Bash sandbox: bubblewrap (`bwrap`, as Claude Code uses on Linux). Inside it the workspace and the
 * additional directories are writable, the rest of the filesystem is read-only, `/tmp` is private, `/proc` shows
 * only the sandbox's own processes (so no parent's `/proc/PID/environ`), and there is no network unless asked.
 * Secrets are kept out by the environment the caller passes (see secret-env.ts), not by bwrap.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import path from "node:path";

/** The bubblewrap binary looked up on PATH. */
export const DEFAULT_BWRAP_COMMAND = "bwrap";

/** How Bash runs inside the sandbox. */
export interface SandboxSettings {
  /** Absolute path of the bwrap binary. */
  bwrapPath: string;
  /** Whether commands may use the network (the host's). Default false: a private, empty network namespace. */
  network: boolean;
}

export type SandboxProbe = { available: true; bwrapPath: string } | { available: false; reason: string };

/** The arguments of the probe: the same namespaces Bash will use, so a probe that passes means Bash can run. */
const PROBE_ARGUMENTS = [
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--tmpfs",
  "/tmp",
  "--unshare-pid",
  "--unshare-net",
  "--die-with-parent",
  "true",
];

/** Longest the probe may take before it counts as not working. */
const PROBE_TIMEOUT_MS = 5000;

function findOnPath(command: string, pathVariable: string): string | undefined {
  for (const directory of pathVariable.split(path.delimiter)) {
    if (directory === "") continue;
    const candidate = path.join(directory, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

let cachedProbe: { key: string; result: SandboxProbe } | undefined;

/**
 * Whether bubblewrap is installed and works here: it is run once (`bwrap --ro-bind / / … true`) and the answer
 * kept for the process. In containers without user namespaces bwrap is present but cannot start; that is "not
 * available" with bwrap's own reason.
 */
export function probeSandbox(pathVariable: string = process.env.PATH ?? ""): SandboxProbe {
  if (process.platform !== "linux") return { available: false, reason: `not supported on ${process.platform}` };
  if (cachedProbe?.key === pathVariable) return cachedProbe.result;
  const bwrapPath = findOnPath(DEFAULT_BWRAP_COMMAND, pathVariable);
  let result: SandboxProbe;
  if (bwrapPath === undefined) {
    result = { available: false, reason: "bwrap (the bubblewrap package) is not installed" };
  } else {
    const run = spawnSync(bwrapPath, PROBE_ARGUMENTS, { timeout: PROBE_TIMEOUT_MS, encoding: "utf8", env: {} });
    if (run.status === 0) result = { available: true, bwrapPath };
    else {
      const why = (run.stderr ?? "").trim().split("\n")[0] || run.error?.message || `exit ${String(run.status)}`;
      result = { available: false, reason: `bwrap cannot run here (${why})` };
    }
  }
  cachedProbe = { key: pathVariable, result };
  return result;
}

function realOrSelf(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}

/**
 * The bwrap argv that runs `bash -c command` in `cwd` with `writableRoots` writable. A root under `/tmp` would
 * vanish under the private `/tmp`, so its top directory there is shown read-only first and the root bound
 * writable on top (a write next to the workspace then fails instead of landing in the private `/tmp`).
 */
export function sandboxArguments(
  settings: SandboxSettings,
  cwd: string,
  writableRoots: readonly string[],
  command: string,
): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  const roots = [...new Set(writableRoots.map(realOrSelf))];
  const shownTmp = new Set<string>();
  for (const root of roots) {
    const relative = path.relative("/tmp", root);
    if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) continue;
    const top = path.join("/tmp", relative.split(path.sep)[0] ?? "");
    if (top === root || shownTmp.has(top)) continue;
    shownTmp.add(top);
    args.push("--ro-bind", top, top);
  }
  for (const root of roots) args.push("--bind", root, root);
  args.push("--unshare-pid", "--die-with-parent");
  if (!settings.network) args.push("--unshare-net");
  args.push("--chdir", path.resolve(cwd), "bash", "-c", command);
  return args;
}
