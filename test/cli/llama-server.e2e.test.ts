/**
 * threadline on a real llama.cpp llama-server (issue 58; support/llama-server.ts). The models call Bash every turn
 * and cannot summarise, and the server counts ~4× threadline's estimate: the most honest test of compaction by
 * the server's measure. The window is never told to threadline (it learns it from the server's own refusal).
 * Judged by what a recording proxy saw and by the server's own token counts, never by threadline's budget.
 *
 * Sizes are set by CI time (prompt processing is ~1,000 tokens/s on one loaded core, and every turn adds ~15K
 * tokens): at 12K and 16K every `seq` result is bigger than the window, so each one must be cut to fit; at 32K
 * and 65K the window fills within the session, and the chain must drop and cut with no summary to be had.
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
if (unavailable !== undefined) console.warn(`llama-server tests skip: ${unavailable}`);

const harness = useCliHarness();

/** [window, model, turns]. */
const ROWS: ReadonlyArray<readonly [number, LlamaModel, number]> = [
  [12_288, "toolseq", 4],
  [16_384, "toolseq", 4],
  [32_768, "toolseq", 5],
  [65_536, "toolseq", 5],
];

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

function isMessages(request: ProxiedRequest): boolean {
  return request.method === "POST" && request.path.split("?")[0] === "/v1/messages";
}

/** The server's own count of a request's input (its /v1/messages/count_tokens), asked directly. */
async function serverCount(url: string, body: Record<string, unknown>): Promise<number> {
  const { model, messages, system, tools } = body;
  const answer = await fetch(`${url}/v1/messages/count_tokens`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages, system, tools }),
  });
  return ((await answer.json()) as { input_tokens: number }).input_tokens;
}

describe.skipIf(unavailable !== undefined)("a real llama-server, a model that calls a tool every turn", () => {
  it.each(ROWS)(
    "window %i (%s, %i turns): the session runs every turn; the server's numbers rule",
    async (window, model, turns) => {
      const server = await startLlamaServer(model, window);
      const proxy = await startRecordingProxy(server.url);
      try {
        const home = await harness.tempDir("llama-home");
        const cwd = await harness.tempDir("llama-cwd");
        const env = cliEnv(proxy.url, home, { THREADLINE_TOKEN_COUNTING: "on" });
        const started = Date.now();
        const result = await runCli(
          ["-p", "Run the command again and again.", "--max-turns", String(turns), "--allowedTools", "Bash"].concat([
            "--output-format",
            "json",
          ]),
          { cwd, env },
        );
        const seconds = (Date.now() - started) / 1000;
        const final = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
        const records = await transcript(home);
        const sent = proxy.requests.filter(isMessages);
        const refused = sent.filter((request) => request.status >= 400);
        const bodies = sent.map((request) => JSON.parse(request.body) as Record<string, unknown>);
        // Side requests (summaries) go through the provider's one-shot call: the main loop's stream.
        const side = bodies.filter((body) => body.stream !== true);
        console.log(
          `llama-server ${window}: ${final.num_turns} turns, ${sent.length} requests (${refused.length} refused, ${side.length} side), ${final.subtype}, ${seconds.toFixed(0)} s`,
        );

        // Every turn ran: the session ended at --max-turns, not "Context is full" or prompt too long.
        expect(final.subtype, `${result.stderr}\n${String(final.result)}`).toBe("error_max_turns");
        // Each turn's Bash call ran and its result was sent: one tool_result per turn in the last request's
        // history would be cut away by compaction, so count the tool_use ids the requests answered.
        const answered = new Set<string>();
        for (const body of bodies)
          for (const message of body.messages as Array<{ content: unknown }>)
            if (Array.isArray(message.content))
              for (const block of message.content as Array<Record<string, unknown>>)
                if (block.type === "tool_result") answered.add(String(block.tool_use_id));
        expect(answered.size).toBeGreaterThanOrEqual(turns - 1);

        // No body the server refused was sent again unchanged.
        for (const [index, request] of sent.entries())
          if (request.status >= 400)
            expect(
              sent.slice(index + 1).some((later) => later.body === request.body),
              `request ${index + 1} re-sent after "${request.error.slice(0, 120)}"`,
            ).toBe(false);

        // No side request (a summary) asks for more than the window leaves, by the server's own count of its input.
        for (const body of side) {
          expect((await serverCount(server.url, body)) + Number(body.max_tokens)).toBeLessThanOrEqual(window);
        }

        // The window threadline learned is the server's own (from its refusal's numbers), never another.
        const learned = records.filter((record) => record.type === "context-budget").map((r) => r.learnedWindow);
        expect(learned.length).toBeGreaterThan(0);
        expect(new Set(learned.filter((value) => value !== undefined))).toEqual(new Set([window]));
        expect(refused.some((request) => request.error.includes(String(window)))).toBe(true);

        // The calibration asked the server's own count (count_tokens) and every one was answered.
        const counts = proxy.requests.filter((request) => request.path.startsWith("/v1/messages/count_tokens"));
        expect(counts.length).toBeGreaterThan(0);
        expect(counts.every((request) => request.status === 200)).toBe(true);

        // inspect counts every /v1/messages request the proxy passed on: answered and refused.
        const transcriptPath = String(final.transcript_path);
        const inspected = await runCli(["inspect", transcriptPath, "--json"], { cwd, env });
        const report = JSON.parse(inspected.stdout) as {
          totals: { requests: number };
          refused: { requests: number };
        };
        expect(report.refused.requests).toBe(refused.length);
        expect(report.totals.requests).toBe(sent.length - refused.length);
      } finally {
        await proxy.close();
        await server.close();
      }
    },
    900_000,
  );
});
