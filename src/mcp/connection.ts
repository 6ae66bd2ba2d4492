/**
 * One MCP server, on the official SDK client: stdio, streamable HTTP or SSE; initialize; `tools/list` with
 * pagination and `notifications/tools/list_changed`; `tools/call` with a timeout and cancellation. Failure is
 * a state, not an exception to the session: a server that will not start, exits, hangs or writes malformed
 * JSON is marked failed with its last error, the person is told once, and the next call reconnects
 * (docs/MCP.md).
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import * as z from "zod";
import type { ConfiguredServer } from "./config.js";
import type { McpCallResult } from "./result-content.js";
import { ServerExitWatch } from "./server-exit.js";

/** How long a server may take to start and answer `initialize` and `tools/list`. Claude Code's `MCP_TIMEOUT`. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;
/** How long one `tools/call` may run before it is an error result (and the server is restarted next call). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 120_000;
/** Most `tools/list` pages read from one server (a server that pages forever is cut off here). */
export const DEFAULT_MCP_MAX_LIST_PAGES = 100;

/**
 * Largest stdio message read from a server (the SDK's default is 10 MiB, which a 10 MB result exceeds); a
 * larger one fails the call and restarts the server.
 */
export const DEFAULT_MCP_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export type ServerState = "pending" | "connected" | "failed" | "closed";

/** A tool as the server lists it, after checks (a name, an object input schema). */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ConnectionOptions {
  /** The session's directory (a stdio server's default working directory). */
  cwd: string;
  /** Where the server's stderr is appended (`<name>.log`); default: discarded. */
  logDirectory?: string;
  /** Default `DEFAULT_MCP_CONNECT_TIMEOUT_MS`. */
  connectTimeoutMs?: number;
  /** Default `DEFAULT_MCP_CALL_TIMEOUT_MS`. */
  callTimeoutMs?: number;
  /** One line for the person (a failure, a skipped tool); default: nobody is told. */
  onNotice?: (line: string) => void;
  /** Told after the server's tool list changed (`list_changed`); default nobody. */
  onToolsChanged?: () => void;
  /** Client name and version sent in `initialize`. */
  clientInfo?: { name: string; version: string };
}

const listToolsResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const callToolResult = z.looseObject({
  content: z.array(z.unknown()).optional(),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n").find((line) => line.trim() !== "") ?? "unknown error").trim();
}

/** Characters of a bad stdout line quoted in the error. */
export const DEFAULT_MCP_BAD_LINE_EXCERPT = 80;

/**
 * A line on a stdio server's stdout that is not JSON-RPC fails with the SDK's parse error, whose first line
 * is `[` for a schema mismatch. Wrapping the transport's line reader makes the error quote what came instead
 * (the first characters, JSON-quoted). If the SDK's reader is not where expected, the SDK's error stands.
 */
function nameBadLines(transport: StdioClientTransport): void {
  const buffer = (transport as unknown as { _readBuffer?: { _buffer?: Buffer; readMessage(): unknown } })._readBuffer;
  if (buffer === undefined || typeof buffer.readMessage !== "function") return;
  const read = buffer.readMessage.bind(buffer);
  buffer.readMessage = () => {
    const pending = buffer._buffer;
    try {
      return read();
    } catch (error) {
      const end = pending?.indexOf(0x0a) ?? -1;
      if (pending === undefined || end < 0) throw error;
      const line = pending.toString("utf8", 0, end).replace(/\r$/, "");
      const excerpt =
        line.length > DEFAULT_MCP_BAD_LINE_EXCERPT ? `${line.slice(0, DEFAULT_MCP_BAD_LINE_EXCERPT)}…` : line;
      const why = error instanceof SyntaxError ? "not JSON" : "JSON but not a JSON-RPC message";
      throw new Error(`the server wrote a line that is ${why}: ${JSON.stringify(excerpt)}`);
    }
  };
}

export class McpConnection {
  readonly name: string;
  readonly server: ConfiguredServer;
  #state: ServerState = "pending";
  #lastError: string | undefined;
  #tools: McpToolInfo[] = [];
  #client: Client | undefined;
  #connecting: Promise<void> | undefined;
  /** The first transport error of the current connection attempt. */
  #connectError: string | undefined;
  #log: WriteStream | undefined;
  /** The current stdio process's exit and stderr tail (undefined for HTTP servers). */
  #exitWatch: ServerExitWatch | undefined;
  readonly #options: ConnectionOptions;

  constructor(server: ConfiguredServer, options: ConnectionOptions) {
    this.name = server.name;
    this.server = server;
    this.#options = options;
  }

  get state(): ServerState {
    return this.#state;
  }
  get lastError(): string | undefined {
    return this.#lastError;
  }
  /** The tools of the last successful listing (kept while the server is down, so calls can reconnect). */
  get tools(): readonly McpToolInfo[] {
    return this.#tools;
  }
  /** The stderr log file, when one is kept. */
  get logPath(): string | undefined {
    return this.#options.logDirectory === undefined ? undefined : join(this.#options.logDirectory, `${this.name}.log`);
  }

  /** Connects and lists tools; never throws (a failure leaves state `failed` and one notice). */
  connect(): Promise<void> {
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<void> {
    if (this.#state === "closed") return;
    const timeout = this.#options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    const client = new Client(this.#options.clientInfo ?? { name: "threadline", version: "0" }, {
      capabilities: {},
      listChanged: {
        tools: {
          autoRefresh: false,
          onChanged: () => {
            void this.#refreshTools(client).then(() => this.#options.onToolsChanged?.());
          },
        },
      },
    });
    client.onerror = (error) => this.#onTransportError(client, error);
    client.onclose = () => this.#onClosed(client);
    try {
      const transport = this.#transport();
      this.#client = client;
      await client.connect(transport, { timeout });
      await this.#refreshTools(client, true);
      if (this.#client !== client) throw new Error(this.#lastError ?? "the server closed the connection");
      this.#state = "connected";
      this.#lastError = undefined;
    } catch (error) {
      const reason = await this.#explain(this.#connectError ?? oneLine(error));
      this.#fail(client, `could not connect: ${reason}`);
    } finally {
      this.#connectError = undefined;
    }
  }

  #transport(): Transport {
    const config = this.server.config;
    if (config.type === "stdio") {
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args,
        // The SDK's default environment (PATH, HOME, …) — never the session's keys — plus what the config names.
        env: { ...getDefaultEnvironment(), ...config.env },
        cwd: config.cwd ?? this.#options.cwd,
        stderr: "pipe",
        maxBufferSize: DEFAULT_MCP_MAX_MESSAGE_BYTES,
      });
      nameBadLines(transport);
      this.#exitWatch = new ServerExitWatch();
      this.#exitWatch.attach(transport);
      const log = this.#openLog();
      const stderr = transport.stderr;
      if (stderr !== null) {
        if (log !== undefined) stderr.pipe(log, { end: false });
        else stderr.on("data", () => {});
      }
      return transport;
    }
    const requestInit = { headers: config.headers };
    const url = new URL(config.url);
    return config.type === "sse"
      ? new SSEClientTransport(url, { requestInit })
      : new StreamableHTTPClientTransport(url, { requestInit });
  }

  #openLog(): WriteStream | undefined {
    const path = this.logPath;
    if (path === undefined || this.#options.logDirectory === undefined) return undefined;
    if (this.#log === undefined) {
      mkdirSync(this.#options.logDirectory, { recursive: true });
      this.#log = createWriteStream(path, { flags: "a" });
      this.#log.on("error", () => {});
    }
    return this.#log;
  }

  /** Reads every page of `tools/list`; keeps the tools that can be sent, one notice per tool that cannot. */
  async #refreshTools(client: Client, throwOnError = false): Promise<void> {
    try {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < DEFAULT_MCP_MAX_LIST_PAGES; page++) {
        const result = await client.request(
          { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
          listToolsResult,
          { timeout: this.#options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS },
        );
        for (const raw of result.tools) {
          const checked = checkTool(raw);
          if (typeof checked === "string") this.#options.onNotice?.(`MCP server "${this.name}": ${checked}`);
          else tools.push(checked);
        }
        cursor = result.nextCursor;
        if (cursor === undefined || cursor === "") break;
      }
      this.#tools = tools;
    } catch (error) {
      if (throwOnError) throw error;
      this.#options.onNotice?.(`MCP server "${this.name}": could not refresh its tools: ${oneLine(error)}`);
    }
  }

  /**
   * Calls a tool, connecting first when the server is not connected (a restart after a crash or hang). Throws
   * an Error whose message is one line on failure; the state is then `failed` until the next call.
   */
  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    if (this.#state !== "connected") await this.connect();
    const client = this.#client;
    if (this.#state !== "connected" || client === undefined)
      throw new Error(`MCP server "${this.name}" is not connected (${this.#lastError ?? "unknown error"})`);
    const timeout = this.#options.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
    try {
      const result = await client.request({ method: "tools/call", params: { name, arguments: args } }, callToolResult, {
        signal,
        timeout,
      });
      const mapped: McpCallResult = { content: result.content, structuredContent: result.structuredContent };
      if (result.isError !== undefined) mapped.isError = result.isError;
      return mapped;
    } catch (error) {
      if (signal.aborted) throw error;
      const reason = await this.#explain(oneLine(error));
      // A call that timed out may still be running: restart the server rather than trust it.
      this.#fail(client, `tools/call ${name} failed: ${reason}`);
      throw new Error(`MCP server "${this.name}": ${reason}. It will be restarted on the next call.`);
    }
  }

  /** A transport error (malformed JSON on stdout, a broken stream): the server is not to be trusted. */
  #onTransportError(client: Client, error: Error): void {
    if (this.#client !== client || this.#state === "closed") return;
    if (this.#connecting !== undefined) {
      // While connecting: end the attempt now, and let it report this error as the reason.
      this.#connectError ??= oneLine(error);
      void client.close().catch(() => {});
      return;
    }
    const watch = this.#exitWatch;
    const reason = oneLine(error);
    void (watch === undefined ? Promise.resolve(reason) : watch.explain(reason)).then((explained) =>
      this.#fail(client, `protocol error: ${explained}`),
    );
  }

  /** `reason`, led by the stdio process's exit code and last stderr lines once it has ended. */
  #explain(reason: string): Promise<string> {
    return this.#exitWatch?.explain(reason) ?? Promise.resolve(reason);
  }

  #onClosed(client: Client): void {
    // While connecting, the failed connect reports it (as "could not connect").
    if (this.#client !== client || this.#state === "closed" || this.#connecting !== undefined) return;
    this.#fail(
      client,
      this.#lastError ??
        this.#exitWatch?.explainNow("the server closed the connection") ??
        "the server closed the connection",
    );
  }

  /** Marks the server failed (one notice per failure), closes its client so pending calls end now. */
  #fail(client: Client, reason: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    const wasUp = this.#state !== "failed";
    this.#state = "failed";
    this.#lastError = reason;
    if (wasUp) this.#options.onNotice?.(`MCP server "${this.name}" ${reason}`);
    void client.close().catch(() => {});
  }

  async close(): Promise<void> {
    this.#state = "closed";
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => {});
    this.#log?.end();
    this.#log = undefined;
  }
}

/** The tool as kept, or why it is skipped (the API needs a name and an object schema). */
function checkTool(raw: unknown): McpToolInfo | string {
  if (typeof raw !== "object" || raw === null) return "skipped a tool that is not an object";
  const tool = raw as Record<string, unknown>;
  const name = tool.name;
  if (typeof name !== "string" || name === "") return "skipped a tool without a name";
  const schema = tool.inputSchema;
  if (
    typeof schema !== "object" ||
    schema === null ||
    Array.isArray(schema) ||
    (schema as { type?: unknown }).type !== "object"
  )
    return `tool "${name}" skipped: its inputSchema is not a JSON Schema object (type "object")`;
  const description = typeof tool.description === "string" ? tool.description : "";
  return { name, description, inputSchema: schema as Record<string, unknown> };
}
