/**
 * A real llama.cpp llama-server for tests (issue 58): set up by support/llama-server/setup.sh (from `.ci/run`, or
 * by hand) into THREADLINE_LLAMA_DIR (default `.cache/llama-server` in the checkout, which git ignores), started
 * here on loopback with one of the test models, behind a recording proxy that keeps every request and the
 * server's answer to it: the oracle the tests judge threadline by (never threadline's own records).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

const REPO = join(import.meta.dirname, "..");

/** Where setup.sh put llama-server and the models. */
export function llamaDir(): string {
  return process.env.THREADLINE_LLAMA_DIR ?? join(REPO, ".cache", "llama-server");
}

/** Why the real-server tests cannot run here (a line for the skip notice), or undefined when they can. */
export function llamaUnavailable(): string | undefined {
  const dir = llamaDir();
  if (!existsSync(join(dir, "READY")))
    return `no llama-server in ${dir} (run support/llama-server/setup.sh ${dir}; .ci/run does)`;
  if (!readFileSync(join(dir, "READY"), "utf8").startsWith("threadline-llama-"))
    return `${dir}/READY is not setup.sh's`;
  return undefined;
}

/** The test models setup.sh builds: each calls Bash with one command on every turn and can write nothing else. */
export type LlamaModel = "toolseq" | "toolmid" | "tool";

export interface LlamaServer {
  url: string;
  /** The server's log so far (for a failing test's message). */
  log(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts llama-server with `model` and a window of `window` tokens (`-c`), one slot, one thread (on a loaded
 * machine a second thread made prompt processing ~2.5× slower: 7.6 s against 19.8 s for 7,500 tokens).
 */
export async function startLlamaServer(model: LlamaModel, window: number): Promise<LlamaServer> {
  const dir = llamaDir();
  const port = await freePort();
  const child: ChildProcess = spawn(
    join(REPO, "support", "llama-server", "run.sh"),
    [
      dir,
      ...["-m", join(dir, "models", `${model}.gguf`), "--host", "127.0.0.1", "--port", String(port)],
      ...["-c", String(window), "-np", "1", "-t", "1", "-ub", "2048", "--no-webui"],
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited: ${log.slice(-2_000)}`);
    try {
      if ((await fetch(`${url}/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 60_000) {
      child.kill();
      throw new Error(`llama-server did not answer /health in 60 s: ${log.slice(-2_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    log: () => log,
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** One request the proxy passed on, and the server's answer. */
export interface ProxiedRequest {
  method: string;
  path: string;
  /** The body exactly as sent. */
  body: string;
  status: number;
  /** The answer's body for a refused request (status ≥ 400); empty otherwise. */
  error: string;
}

export interface RecordingProxy {
  url: string;
  readonly requests: readonly ProxiedRequest[];
  close(): Promise<void>;
}

/** A loopback proxy in front of `target` that records every request and the status it got. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const record: ProxiedRequest = {
        method: incoming.method ?? "GET",
        path: incoming.url ?? "/",
        body: body.toString("utf8"),
        status: 0,
        error: "",
      };
      requests.push(record);
      const { host: _host, ...headers } = incoming.headers;
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: record.method,
          path: record.path,
          headers: { ...headers, "content-length": String(body.length) },
        },
        (answer) => {
          record.status = answer.statusCode ?? 0;
          outgoing.writeHead(record.status, answer.headers);
          answer.on("data", (chunk: Buffer) => {
            if (record.status >= 400) record.error += chunk.toString("utf8");
            outgoing.write(chunk);
          });
          answer.on("end", () => outgoing.end());
        },
      );
      forward.on("error", (error) => {
        record.status = 502;
        record.error = error.message;
        outgoing.writeHead(502).end(error.message);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
