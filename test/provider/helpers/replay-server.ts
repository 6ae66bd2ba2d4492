/**
 * A tiny SSE replay server on 127.0.0.1 (port 0): each request gets the next scripted response.
 * Chunks are written one at a time with a pause so the client really sees split events.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReplayResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Body pieces written in order (SSE bytes for streams). */
  chunks?: (string | Buffer)[];
  /** A JSON body (error responses, non-streaming replies). */
  json?: unknown;
  /** Destroy the socket after the chunks: a connection cut mid-stream. */
  cut?: boolean;
  /** Leave the response open after the chunks: a stalled stream. */
  stall?: boolean;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ReplayServer {
  url: string;
  requests: RecordedRequest[];
  /** Responses whose connection closed before the server ended them (the client hung up). */
  readonly hungUp: number;
  close(): Promise<void>;
}

export async function startReplayServer(script: readonly ReplayResponse[]): Promise<ReplayServer> {
  const requests: RecordedRequest[] = [];
  let closing = false;
  const open = new Set<ServerResponse>();
  let hungUp = 0;
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const index = requests.length;
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(parts).toString("utf8"),
      });
      const scripted = script[index] ?? {
        status: 500,
        json: { type: "error", error: { type: "api_error", message: `replay script exhausted at request ${index}` } },
      };
      open.add(response);
      response.on("close", () => {
        open.delete(response);
        if (!response.writableEnded && !closing) hungUp++;
      });
      void serve(response, scripted);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get hungUp() {
      return hungUp;
    },
    async close() {
      closing = true;
      for (const response of open) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

async function serve(response: ServerResponse, scripted: ReplayResponse): Promise<void> {
  const status = scripted.status ?? 200;
  if (scripted.json !== undefined) {
    response.writeHead(status, { "content-type": "application/json", "request-id": "req_replay", ...scripted.headers });
    response.end(JSON.stringify(scripted.json));
    return;
  }
  response.writeHead(status, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "request-id": "req_replay",
    ...scripted.headers,
  });
  response.flushHeaders();
  for (const chunk of scripted.chunks ?? []) {
    if (response.destroyed) return;
    // Waiting for the write to flush, then a turn of the event loop, keeps chunks apart on the wire.
    await new Promise<void>((resolve) => response.write(chunk, () => setImmediate(resolve)));
  }
  if (scripted.cut) {
    response.socket?.destroy();
    return;
  }
  if (scripted.stall) return;
  response.end();
}
