/**
 * The process's streams and environment, passed explicitly so every mode can be driven from tests.
 */
import { fstatSync } from "node:fs";

export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The real process. */
export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/**
 * Whether stdin carries piped input worth waiting for. A shell pipe or redirected file always does; any
 * other non-TTY stdin (an inherited socket that may never close) only when there is no prompt to run with.
 */
export function stdinHasInput(io: CliIo, havePrompt: boolean): boolean {
  if (io.stdin.isTTY === true) return false;
  if (!havePrompt) return true;
  try {
    const info = fstatSync(io.stdin.fd ?? 0);
    return info.isFIFO() || info.isFile();
  } catch {
    return false;
  }
}

/** Reads all of stdin as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return (await readAllBytes(stream)).toString("utf8");
}

/** Reads all of stdin as bytes (piped image data stays whole). */
export async function readAllBytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
