/**
 * `threadline --provider openai-compatible` on a real llama.cpp llama-server's `/v1/chat/completions` (issue 58):
 * the same server and tiny models as llama-server.e2e.test.ts, reached through the OpenAI protocol. Judged by what
 * a recording proxy saw and by the server's own usage figures, never by threadline's estimate.
 *
 * - `tool` (runs `pwd` every turn) in a window the conversation never fills (the first request's output budget
 *   may be refused, and the window learned from that refusal): every turn runs, every call is answered by a
 *   `tool` message, and llama.cpp's slot reports the byte-stable prefix as cached (`cached_tokens`).
 * - `toolseq` (a `seq` of ~15K tokens by the server's count every turn) at 32K: the window overflows on the chat
 *   endpoint, the overflow is recognised from llama.cpp's own error, and the session still runs every turn.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type LlamaModel,
  llamaUnavailable,
  type ProxiedRequest,
  startLlamaServer,
  startRecordingProxy,
} from "../../support/llama-server.js";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli } from "./cli-process.js";

const unavailable = llamaUnavailable();
if (unavailable !== undefined) console.warn(`llama-server OpenAI tests skip: ${unavailable}`);

const harness = useCliHarness();

/** [window, model, turns]. */
const ROWS: ReadonlyArray<readonly [number, LlamaModel, number]> = [
  [16_384, "tool", 4],
  [32_768, "toolseq", 4],
];

function isChat(request: ProxiedRequest): boolean {
  return request.method === "POST" && request.path.split("?")[0] === "/v1/chat/completions";
}

async function transcript(home: string): Promise<Array<Record<string, unknown>>> {
  const projects = join(home, "projects");
  const out: Array<Record<string, unknown>> = [];
  for (const project of await readdir(projects))
    for (const file of await readdir(join(projects, project)))
      if (file.endsWith(".jsonl"))
        for (const line of (await readFile(join(projects, project, file), "utf8")).split("\n"))
          if (line.trim() !== "") out.push(JSON.parse(line) as Record<string, unknown>);
  return out;
}

interface ChatBody {
  stream?: boolean;
  messages: Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>;
}

describe.skipIf(unavailable !== undefined)(
  "a real llama-server's OpenAI endpoint, a model that calls a tool every turn",
  () => {
    it.each(ROWS)(
      "window %i (%s, %i turns): every turn runs over chat completions",
      async (window, model, turns) => {
        const server = await startLlamaServer(model, window);
        const proxy = await startRecordingProxy(server.url);
        try {
          const home = await harness.tempDir("llama-openai-home");
          const cwd = await harness.tempDir("llama-openai-cwd");
          // No Anthropic variables reach the server: the provider is chosen and addressed by its own flags.
          const { ANTHROPIC_BASE_URL: _url, ANTHROPIC_API_KEY: _key, ...env } = cliEnv("", home);
          const result = await runCli(
            [
              ...["--provider", "openai-compatible", "--base-url", `${proxy.url}/v1`],
              ...["-p", "Run the command again and again.", "--max-turns", String(turns), "--allowedTools", "Bash"],
              ...["--output-format", "json"],
            ],
            { cwd, env: { ...env, THREADLINE_SERVER_PROFILE: "llama.cpp" } },
          );
          const final = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
          const sent = proxy.requests.filter(isChat);
          const refused = sent.filter((request) => request.status >= 400);
          const bodies = sent.map((request) => JSON.parse(request.body) as ChatBody);
          console.log(
            `llama-server openai ${window}: ${sent.length} chat requests (${refused.length} refused), ${String(final.subtype)}, usage ${JSON.stringify(final.usage)}`,
          );
          expect(proxy.requests.filter((request) => request.path.startsWith("/v1/messages"))).toEqual([]);
          expect(final.subtype, `${result.stderr}\n${String(final.result)}`).toBe("error_max_turns");
          // Each turn's call was answered by a tool message naming the server's own call id.
          const calls = new Set<string>();
          const answered = new Set<string>();
          for (const body of bodies)
            for (const message of body.messages) {
              for (const call of message.tool_calls ?? []) calls.add(call.id);
              if (message.role === "tool" && message.tool_call_id !== undefined) answered.add(message.tool_call_id);
            }
          expect(answered.size).toBeGreaterThanOrEqual(turns - 1);
          for (const id of answered) expect(calls.has(id)).toBe(true);
          // No refused body went out again unchanged.
          for (const [index, request] of sent.entries())
            if (request.status >= 400)
              expect(sent.slice(index + 1).some((later) => later.body === request.body)).toBe(false);
          const usage = final.usage as { input_tokens: number; cache_read_input_tokens: number };
          if (refused.length === 0) {
            // The server's own prefix cache: its cached_tokens, reported as cache reads, on a byte-stable prefix.
            expect(usage.cache_read_input_tokens).toBeGreaterThan(0);
          } else {
            // The window threadline learned came from llama.cpp's refusal on the chat endpoint, and was the server's.
            const records = await transcript(home);
            const learned = records.filter((record) => record.type === "context-budget").map((r) => r.learnedWindow);
            expect(new Set(learned.filter((value) => value !== undefined))).toEqual(new Set([window]));
          }
        } finally {
          await proxy.close();
          await server.close();
        }
      },
      900_000,
    );
  },
);
