import { spawn } from "node:child_process";

/** Runs `tasks` with at most `jobs` in flight (benches run their cells in child processes, a few at a time). */
export async function pool<T>(tasks: ReadonlyArray<() => Promise<T>>, jobs: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, tasks.length)) }, worker));
  return results;
}

/** Prefix of the one line a bench's child process prints: its result as JSON. */
export const CHILD_RESULT_PREFIX = "CHILD_RESULT ";

/**
 * Runs `script` again in a child process with `args` (this process's exec flags first) and resolves with the
 * JSON after `CHILD_RESULT_PREFIX`; rejects naming `label` with the end of the child's stderr.
 */
export function runChild<T>(script: string, args: readonly string[], label: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.split("\n").find((text) => text.startsWith(CHILD_RESULT_PREFIX));
      if (code === 0 && line !== undefined) resolve(JSON.parse(line.slice(CHILD_RESULT_PREFIX.length)) as T);
      else reject(new Error(`${label}: child exited ${code}: ${stderr.trim().slice(-2000)}`));
    });
  });
}
