/**
 * A hostile server cannot hang a session or keep it silent (issue 53 item 5): a server that never answers,
 * one that sends headers and then nothing, one that only sends keep-alive pings, one that cuts the stream (each retried),
 * and one that sends malformed JSON (not retried: one line at once). With short deadlines from the environment (API_TIMEOUT_MS,
 * THREADLINE_STREAM_IDLE_TIMEOUT_MS, CLAUDE_CODE_MAX_RETRIES=2) print mode writes one line per retry with its
 * reason on stderr and ends with exit 1. Oracles: the stderr lines, the exit code, the server's request count.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli } from "../cli/cli-process.js";

const harness = useCliHarness();

type Mode = "silent" | "headers-then-nothing" | "pings-forever" | "cut" | "malformed";

const MESSAGE_START = {
  type: "message_start",
  message: {
    id: "msg_hostile",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-20250514",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 1 },
  },
};

const sse = (event: unknown) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A loopback server that answers every POST /v1/messages the hostile way `mode` names. */
async function hostileServer(mode: Mode): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "POST" || !request.url?.startsWith("/v1/messages")) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "no" } }));
      return;
    }
    requests++;
    open.add(response);
    request.resume();
    if (mode === "silent") return;
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.flushHeaders();
    if (mode === "headers-then-nothing") return;
    if (mode === "pings-forever") {
      response.write(sse(MESSAGE_START));
      const timer = setInterval(() => response.write(sse({ type: "ping" })), 100);
      timers.add(timer);
      return;
    }
    if (mode === "cut") {
      response.write(sse(MESSAGE_START));
      setTimeout(() => response.socket?.destroy(), 50);
      return;
    }
    response.write('event: message_start\ndata: {"type":"message_start","message":{not json\n\n');
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = async () => {
    for (const timer of timers) clearInterval(timer);
    for (const response of open) response.socket?.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

const REASONS: Record<Mode, RegExp> = {
  silent: /timed out/i,
  "headers-then-nothing": /no response data for 800 ms/,
  "pings-forever": /no response data for 800 ms \(keep-alive pings do not count\)/,
  cut: /terminated|socket|closed|ended|premature|aborted/i,
  malformed: /JSON|Unexpected|parse/i,
};

/** Malformed JSON is no weather: it is not retried, and ends at once in one line naming the parse error. */
const RETRIED: Record<Mode, number> = {
  silent: 2,
  "headers-then-nothing": 2,
  "pings-forever": 2,
  cut: 2,
  malformed: 0,
};

describe("a hostile server: every retry is one line with its reason, and the wait ends", () => {
  it.each(Object.keys(REASONS) as Mode[])(
    "%s",
    async (mode) => {
      const server = await hostileServer(mode);
      const home = await harness.tempDir("hostile-home");
      const cwd = await harness.tempDir("hostile-cwd");
      const env = cliEnv(server.url, home, {
        API_TIMEOUT_MS: "800",
        THREADLINE_STREAM_IDLE_TIMEOUT_MS: "800",
        CLAUDE_CODE_MAX_RETRIES: "2",
      });
      const run = await runCli(["-p", "hello"], { cwd, env });
      expect(run.code).toBe(1);
      const retries = run.stderr.split("\n").filter((line) => / — retrying in \d+s \(attempt \d\)$/.test(line));
      expect(retries, run.stderr).toHaveLength(RETRIED[mode]);
      for (const line of retries) expect(line, run.stderr).toMatch(REASONS[mode]);
      const last = run.stderr.trim().split("\n").at(-1) ?? "";
      expect(last).toMatch(/^threadline: /);
      if (RETRIED[mode] === 0) expect(last).toMatch(REASONS[mode]);
      expect(server.requests()).toBe(RETRIED[mode] + 1);
    },
    60_000,
  );
});
