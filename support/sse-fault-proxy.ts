/**
 * A loopback HTTP proxy in front of a real Messages API server that cuts a streamed response after a chosen
 * server-sent event, as a flaky network does: the events before the cut arrive whole, then the socket is
 * destroyed. Nothing is simulated past that: the request, headers and event bytes are the server's own.
 *
 * The plan is asked once per streamed `POST /v1/messages` (or `/v1/chat/completions`) with the request's 1-based
 * number and returns where to cut: after event N (1-based, counting every event block), after the first
 * `content_block_stop` that closes a `tool_use` block, or nowhere. Every decision is logged, so a test can count
 * the cuts it made. In a chat-completions stream a tool call is complete once a later chunk carries something
 * else (text, the next call, the finish reason): "after the tool_use stop" is after that chunk.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";

export type CutPoint =
  | { afterEvent: number }
  | { afterToolUseStop: true }
  /** Not a cut: the stream pauses this long after the first tool_use block closes, then goes on. */
  | { afterToolUseStop: true; pauseMs: number }
  | undefined;

export interface SseFaultProxy {
  /** `http://127.0.0.1:<port>`: give this to the client as its base URL. */
  readonly url: string;
  /** Where requests go (`http://host:port`); may be set after start. */
  target: string;
  /** One row per proxied messages request: its number, the plan, and whether a cut happened. */
  readonly log: { request: number; plan: CutPoint; cut: boolean }[];
  close(): Promise<void>;
}

export async function startSseFaultProxy(plan: (request: number) => CutPoint, target = ""): Promise<SseFaultProxy> {
  let count = 0;
  const proxy: SseFaultProxy = {
    url: "",
    target,
    log: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const isMessages =
      req.method === "POST" &&
      (((req.url ?? "").startsWith("/v1/messages") && !req.url?.includes("count_tokens")) ||
        req.url === "/v1/chat/completions");
    const row = isMessages ? { request: ++count, plan: undefined as CutPoint, cut: false } : undefined;
    if (row) {
      row.plan = plan(row.request);
      proxy.log.push(row);
    }
    forward(proxy.target, req, res, row);
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  (proxy as { url: string }).url = `http://127.0.0.1:${port}`;
  return proxy;
}

function forward(
  target: string,
  req: IncomingMessage,
  res: ServerResponse,
  row: { plan: CutPoint; cut: boolean } | undefined,
): void {
  const upstream = httpRequest(
    new URL(req.url ?? "/", target),
    { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const streamed = String(answer.headers["content-type"] ?? "").includes("text/event-stream");
      if (row?.plan === undefined || !streamed) {
        answer.pipe(res);
        return;
      }
      const plan = row.plan;
      const pauseMs = "pauseMs" in plan ? plan.pauseMs : undefined;
      const cutter = new EventCutter(plan);
      let passThrough = false;
      answer.on("data", (chunk: Buffer) => {
        if (passThrough) {
          res.write(chunk);
          return;
        }
        if (row.cut) return;
        const { out, cut } = cutter.push(chunk.toString("utf8"));
        if (out) res.write(out);
        if (cut && pauseMs !== undefined) {
          answer.pause();
          setTimeout(() => {
            passThrough = true;
            res.write(cutter.rest());
            answer.resume();
          }, pauseMs);
          return;
        }
        if (cut) {
          row.cut = true;
          answer.destroy();
          // Flush what was written, then drop the connection without ending the chunked body.
          setImmediate(() => res.socket?.destroy());
        }
      });
      answer.on("end", () => {
        if (passThrough) res.end();
        else if (!row.cut) res.end(cutter.rest());
      });
    },
  );
  upstream.on("error", () => res.socket?.destroy());
  req.pipe(upstream);
}

/** Splits SSE text into events and says where the plan cuts. */
class EventCutter {
  #buffer = "";
  #events = 0;
  readonly #toolBlocks = new Set<number>();
  /** The chat-completions tool call streaming now, if any. */
  #openCall: number | undefined;
  constructor(private readonly plan: NonNullable<CutPoint>) {}

  push(text: string): { out: string; cut: boolean } {
    this.#buffer += text;
    let out = "";
    for (let end = this.#buffer.indexOf("\n\n"); end >= 0; end = this.#buffer.indexOf("\n\n")) {
      const event = this.#buffer.slice(0, end + 2);
      this.#buffer = this.#buffer.slice(end + 2);
      out += event;
      this.#events++;
      if (this.#cutsAfter(event)) return { out, cut: true };
    }
    return { out, cut: false };
  }

  rest(): string {
    return this.#buffer;
  }

  #cutsAfter(event: string): boolean {
    if ("afterEvent" in this.plan) return this.#events >= this.plan.afterEvent;
    const data = event.split("\n").find((line) => line.startsWith("data:"));
    if (data === undefined) return false;
    if (data.slice(5).trim() === "[DONE]") return false;
    const parsed = JSON.parse(data.slice(5)) as {
      type?: string;
      index?: number;
      content_block?: { type?: string };
      object?: string;
      choices?: Array<{
        delta?: { content?: string | null; tool_calls?: Array<{ index: number }> };
        finish_reason?: string | null;
      }>;
    };
    if (parsed.object === "chat.completion.chunk") {
      const choice = parsed.choices?.[0];
      const call = choice?.delta?.tool_calls?.[0]?.index;
      const closes =
        this.#openCall !== undefined &&
        ((call !== undefined && call !== this.#openCall) ||
          (choice?.delta?.content ?? "") !== "" ||
          (choice?.finish_reason ?? null) !== null);
      if (call !== undefined) this.#openCall = call;
      return closes;
    }
    if (parsed.type === "content_block_start" && parsed.content_block?.type === "tool_use")
      this.#toolBlocks.add(parsed.index ?? -1);
    return parsed.type === "content_block_stop" && this.#toolBlocks.has(parsed.index ?? -1);
  }
}

/** A seeded generator in [0, 1) (mulberry32), so a run's cuts can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
