/**
 * A built copy of threadline at another commit, for benchmarks that compare "before" and "after" in the same
 * run (issue 44: start-up and memory measured against the previous commit). Timings on a shared machine move
 * with its load from one minute to the next, so two builds measured in two runs cannot be compared; measured
 * alternately in one run they share the load.
 *
 * The copy is a detached `git worktree` of the commit in a temporary directory, with this checkout's
 * node_modules linked in (the dependencies are the same unless the commit changed package.json, which the
 * caller is told about) and its `npm run build` run there. It is removed by `dispose()`.
 */
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { readFile, rm, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTempDir } from "../../support/temp-dir.js";

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface PreviousBuild {
  /** The commit, 12 hex digits. */
  commit: string;
  /** What the caller asked for (`HEAD~1`, a hash). */
  ref: string;
  /** `bin/threadline` of the built copy. */
  bin: string;
  /** True when the commit's package.json differs from this checkout's (its node_modules may not match). */
  packageDiffers: boolean;
  dispose: () => Promise<void>;
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    const why = (result.stderr || result.stdout || String(result.error ?? "")).trim().split("\n")[0];
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}: ${why}`);
  }
  return result.stdout.trim();
}

/** Checks out and builds `ref` of this repository in a temporary directory. Takes as long as `npm run build`. */
export async function buildPrevious(ref: string): Promise<PreviousBuild> {
  const commit = run("git", ["rev-parse", "--verify", "--short=12", `${ref}^{commit}`], REPOSITORY);
  const parent = await makeTempDir("previous-build");
  const tree = join(parent, "tree");
  run("git", ["worktree", "add", "--detach", tree, commit], REPOSITORY);
  const dispose = async () => {
    spawnSync("git", ["worktree", "remove", "--force", tree], { cwd: REPOSITORY });
    await rm(parent, { recursive: true, force: true });
    spawnSync("git", ["worktree", "prune"], { cwd: REPOSITORY });
  };
  try {
    await symlink(realpathSync(join(REPOSITORY, "node_modules")), join(tree, "node_modules"));
    const [ours, theirs] = await Promise.all([
      readFile(join(REPOSITORY, "package.json"), "utf8"),
      readFile(join(tree, "package.json"), "utf8"),
    ]);
    // The commit's own build script: a commit that changed how the bundle is made is built its way.
    run("npm", ["run", "--silent", "build"], tree);
    return { commit, ref, bin: join(tree, "bin", "threadline"), packageDiffers: ours !== theirs, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
