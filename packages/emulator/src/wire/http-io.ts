/**
 * Small HTTP helpers: bounded body reading, JSON and error answers, header parsing, loopback checks.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ErrorReply, errorBody } from "./errors.js";

/** Result of reading a body: its bytes, or a sign that it passed the size limit. */
export type BodyRead = { kind: "ok"; bytes: Buffer } | { kind: "too_large"; bytes: number };

/** Reads the body, stopping to collect once it passes `limit` bytes (it is still drained). */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on("end", () =>
      resolve(size > limit ? { kind: "too_large", bytes: size } : { kind: "ok", bytes: Buffer.concat(chunks) }),
    );
    request.on("error", reject);
  });
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

export function sendError(response: ServerResponse, reply: ErrorReply, requestId: string): void {
  sendJson(response, reply.status, errorBody(reply.type, reply.message, requestId), {
    "request-id": requestId,
    ...(reply.headers ?? {}),
  });
}

export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The API key from `x-api-key` or `Authorization: Bearer`. */
export function apiKeyOf(request: IncomingMessage): string | undefined {
  const key = header(request, "x-api-key");
  if (key !== undefined && key.length > 0) return key;
  const authorization = header(request, "authorization");
  const match = authorization?.match(/^Bearer\s+(.+)$/i);
  return match?.[1];
}

/** `anthropic-beta: a,b` as a list. */
export function betasOf(request: IncomingMessage): string[] {
  const value = header(request, "anthropic-beta");
  if (value === undefined) return [];
  return value
    .split(",")
    .map((beta) => beta.trim())
    .filter((beta) => beta.length > 0);
}

/** Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
