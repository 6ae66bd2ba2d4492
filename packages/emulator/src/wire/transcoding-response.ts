/**
 * A view of a `ServerResponse` that rewrites what the Messages handler writes into another platform's wire
 * shape, so one handler (faults, validation, ledger, scripted model) serves every platform. It intercepts
 * only `writeHead`, `flushHeaders`, `write` and `end`; everything else (socket, close events, `destroyed`)
 * is the real response's.
 * - JSON answers are held until `end` so an error body can be rewritten (its length changes).
 * - SSE answers are cut into whole events (bytes may arrive split anywhere, even inside a character) and
 *   each event is handed to `encodeEvent`.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { StreamEvent } from "./sse.js";

/** An answer as written by the handler, or as rewritten for the platform. */
export interface WrittenAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Transcoder {
  /** Rewrites a JSON answer (errors above all); return it unchanged to pass it through. */
  answer(written: WrittenAnswer): WrittenAnswer;
  /** When set, a streamed answer is re-framed: these headers replace the SSE ones… */
  streamHeaders?: (written: Record<string, string>) => Record<string, string>;
  /** …and each SSE event becomes these bytes. */
  encodeEvent?: (event: StreamEvent) => Uint8Array;
}

type Chunk = string | Uint8Array;

/** `response` as the handler should see it, rewritten by `transcoder` on the way out. */
export function transcodingResponse(response: ServerResponse, transcoder: Transcoder): ServerResponse {
  let mode: "unknown" | "json" | "stream" | "passthrough" = "unknown";
  let status = 200;
  let headers: Record<string, string> = {};
  const held: Buffer[] = [];
  let pending = Buffer.alloc(0);

  const flushEvents = (): void => {
    for (;;) {
      const end = pending.indexOf("\n\n");
      if (end < 0) return;
      const text = pending.subarray(0, end).toString("utf8");
      pending = pending.subarray(end + 2);
      const event = parseSseEvent(text);
      if (event !== undefined && transcoder.encodeEvent) response.write(transcoder.encodeEvent(event));
    }
  };
  const take = (chunk: Chunk | undefined): void => {
    if (chunk === undefined) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk);
    if (mode === "json") held.push(bytes);
    else if (mode === "stream") {
      pending = Buffer.concat([pending, bytes]);
      flushEvents();
    } else response.write(bytes);
  };

  const overrides = {
    writeHead(code: number, raw?: OutgoingHttpHeaders) {
      status = code;
      headers = flatHeaders(raw);
      const streaming = (headers["content-type"] ?? "").startsWith("text/event-stream");
      if (!streaming) mode = "json";
      else if (transcoder.encodeEvent && transcoder.streamHeaders) {
        mode = "stream";
        response.writeHead(code, transcoder.streamHeaders(headers));
      } else {
        mode = "passthrough";
        response.writeHead(code, headers);
      }
      return proxy;
    },
    flushHeaders() {
      if (mode !== "json") response.flushHeaders();
    },
    write(chunk: Chunk) {
      take(chunk);
      return true;
    },
    end(chunk?: Chunk | (() => void)) {
      take(typeof chunk === "function" ? undefined : chunk);
      if (mode === "json") {
        const answer = transcoder.answer({ status, headers, body: Buffer.concat(held).toString("utf8") });
        const { "content-length": _length, ...rest } = answer.headers;
        response.writeHead(answer.status, { ...rest, "content-length": String(Buffer.byteLength(answer.body)) });
        response.end(answer.body);
      } else response.end();
      return proxy;
    },
  };
  const proxy: ServerResponse = new Proxy(response, {
    get(target, property, _receiver) {
      if (typeof property === "string" && Object.hasOwn(overrides, property)) {
        return overrides[property as keyof typeof overrides];
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return proxy;
}

function flatHeaders(raw: OutgoingHttpHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return out;
}

/** One `event:` / `data:` block as written by `sse.ts` (data is a single JSON line). */
function parseSseEvent(text: string): StreamEvent | undefined {
  let name: string | undefined;
  let data: string | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("event: ")) name = line.slice("event: ".length);
    else if (line.startsWith("data: ")) data = line.slice("data: ".length);
  }
  if (name === undefined || data === undefined) return undefined;
  return { event: name, data: JSON.parse(data) as Record<string, unknown> };
}
