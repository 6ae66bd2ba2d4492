/**
 * How a stdio server's process ended, for the failure line (issue 53 item 5): a server that exits with code 3
 * used to be reported as "write EPIPE" (the client's next write hit the closed pipe), naming neither the exit
 * code nor what the server said. This watches the process and keeps the tail of its stderr, so the line reads
 * `the server exited with code 3 (write EPIPE); its stderr ended: "fatal: no config"`.
 */
import type { ChildProcess } from "node:child_process";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** How long a failure waits for the process's exit to be known (a broken pipe is seen before the exit). */
export const DEFAULT_MCP_EXIT_WAIT_MS = 500;
/** Last non-empty stderr lines quoted in the failure line. */
export const DEFAULT_MCP_STDERR_TAIL_LINES = 3;
/** Characters of each quoted stderr line. */
const STDERR_LINE_CHARS = 200;
/** Characters of stderr kept in memory (the log file keeps all of it). */
const STDERR_TAIL_CHARS = 4096;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ServerExitWatch {
  #tail = "";
  #exit: Exit | undefined;
  readonly #exited: Promise<void>;
  #markExited: () => void = () => {};

  constructor() {
    this.#exited = new Promise((resolve) => {
      this.#markExited = resolve;
    });
  }

  /** Keeps the tail of the transport's stderr and learns its process's exit once it has started. */
  attach(transport: StdioClientTransport): void {
    transport.stderr?.on("data", (chunk: Buffer | string) => {
      this.#tail = (this.#tail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      // The SDK keeps the child private; without it, failures keep the transport's own words.
      const child = (transport as unknown as { _process?: ChildProcess })._process;
      if (child === undefined) return;
      if (child.exitCode !== null || child.signalCode !== null) this.#record(child.exitCode, child.signalCode);
      else child.once("exit", (code, signal) => this.#record(code, signal));
    };
  }

  #record(code: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { code, signal };
    this.#markExited();
  }

  /** `reason`, led by how the process ended, waiting up to `waitMs` for that to be known. */
  async explain(reason: string, waitMs = DEFAULT_MCP_EXIT_WAIT_MS): Promise<string> {
    if (this.#exit === undefined) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.#exited, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    }
    return this.explainNow(reason);
  }

  /** `reason`, led by how the process ended if that is known now; `reason` alone while it runs. */
  explainNow(reason: string): string {
    const exit = this.#exit;
    if (exit === undefined) return reason;
    const how =
      exit.code !== null
        ? `the server exited with code ${exit.code}`
        : `the server was killed by ${exit.signal ?? "a signal"}`;
    const lines = this.#tail
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .slice(-DEFAULT_MCP_STDERR_TAIL_LINES)
      .map((line) => JSON.stringify(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line));
    const said = lines.length > 0 ? `its stderr ended: ${lines.join(" / ")}` : "it wrote nothing to stderr";
    return `${how} (${reason}); ${said}`;
  }
}
