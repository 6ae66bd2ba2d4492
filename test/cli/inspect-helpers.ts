import { Writable } from "node:stream";

/** A writable that keeps what was written, for asserting on stdout/stderr. */
export class Collector extends Writable {
  text = "";
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Runs a command function with collected stdout/stderr. */
export async function capture(
  run: (io: { stdout: Collector; stderr: Collector; isTTY: boolean; env: NodeJS.ProcessEnv }) => Promise<number>,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Collector();
  const stderr = new Collector();
  const code = await run({ stdout, stderr, isTTY: false, env });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
