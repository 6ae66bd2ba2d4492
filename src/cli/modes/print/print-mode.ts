/**
 * `threadline -p`: one prompt (argument, piped stdin, or both), one turn, output as text, one JSON result,
 * or one JSON event a line. Ctrl-C interrupts the turn and still writes a resumable transcript.
 */
import { rm } from "node:fs/promises";
import { budgetLimits } from "../../../compaction/index.js";
import { isEffortNotice } from "../../../engine/effort-support.js";
import type { SubmitOptions } from "../../../engine/engine-options.js";
import { isHookNotice } from "../../../hooks/index.js";
import type { EngineEvent, TerminalReason } from "../../../loop/events.js";
import { checkNever, requestCostUsd } from "../../../messages/index.js";
import { sandboxNotice } from "../../../tools/index.js";
import type { CliOptions } from "../../args.js";
import { type CliIo, readAllBytes, stdinHasInput } from "../../io.js";
import { mediaInput, sniffImage } from "../../prompt-media.js";
import { CliError, engineOptions, openSession, requireCredentials } from "../../session-flags.js";
import { openMcp, settingsServers } from "../mcp-session.js";
import { TurnRenderer } from "../render/render.js";
import { summarizeProblems } from "../resume-recap.js";
import { commandPermission, commandTurn, loadUserSetup, unknownCommandLine } from "../user-setup.js";
import { type PermissionDenial, permissionDenial, resultObject, streamJsonLine } from "./json-output.js";
import { RetryCountdown } from "./retry-countdown.js";
import { rewindFromFlags, rewindOnly } from "./rewind-flags.js";
import { initObject, streamJsonPrompt } from "./stream-json-io.js";

/** Exit code after an interruption (128 + SIGINT). */
export const INTERRUPTED_EXIT_CODE = 130;

/**
 * The prompt: piped stdin first, then the argument, separated by a blank line. Piped bytes that are an image
 * (PNG, JPEG, GIF, WebP by their magic bytes) are not text: they are kept apart and sent as an image block.
 */
async function printPrompt(
  cli: CliOptions,
  io: CliIo,
): Promise<{ prompt: string; image?: Buffer; replay?: unknown[] }> {
  const parts: string[] = [];
  let image: Buffer | undefined;
  if (cli.inputFormat === "stream-json") {
    const input = streamJsonPrompt(await readAllBytes(io.stdin));
    const prompt = [input.prompt, cli.prompt.trim()].filter((part) => part !== "").join("\n\n");
    if (prompt === "") throw new CliError("No prompt: --input-format stream-json read no user message on stdin.");
    return { prompt, replay: input.messages };
  }
  if (stdinHasInput(io, cli.prompt.trim() !== "")) {
    const bytes = await readAllBytes(io.stdin);
    if (sniffImage(bytes) !== undefined) image = bytes;
    else if (bytes.toString("utf8").trim() !== "") parts.push(bytes.toString("utf8").trim());
  }
  if (cli.prompt.trim() !== "") parts.push(cli.prompt);
  const prompt = parts.join("\n\n");
  if (prompt === "" && image === undefined) throw new CliError("No prompt: pass one after -p, or pipe it on stdin.");
  return image !== undefined ? { prompt, image } : { prompt };
}

/**
 * A new session whose one turn failed before any server answered (no response started: connection refused,
 * DNS) is removed, said on the error's own line, rather than left as a
 * transcript of a prompt and nothing else. Nothing is lost: the prompt is the command's own (its argument or
 * what was piped in), and a resumed session is always kept. Resolves to whether the transcript was kept.
 */
async function dropUnansweredSession(
  end: Extract<EngineEvent, { type: "turn_end" }>,
  run: { reachedServer: boolean; resumed: boolean; path: string | undefined },
  io: CliIo,
): Promise<boolean> {
  if (run.reachedServer || run.resumed || run.path === undefined || end.reason !== "error") return true;
  try {
    await rm(run.path, { force: true });
    // Its checkpoints (the snapshot taken when the prompt arrived) go with it (docs/REWIND.md).
    await rm(run.path.replace(/\.jsonl$/, ".checkpoints"), { recursive: true, force: true });
  } catch (error) {
    io.stderr.write(`threadline: could not remove the unanswered session ${run.path}: ${(error as Error).message}\n`);
    return true;
  }
  return false;
}

/** Runs print mode; resolves to the exit code. */
export async function runPrintMode(cli: CliOptions, io: CliIo): Promise<number> {
  // `--rewind-to` alone only rewinds; with a prompt (or piped input) the prompt follows the rewind.
  // (Only a real pipe or file on stdin counts here: /dev/null or an inherited socket is no prompt.)
  if (cli.rewindTo !== undefined && cli.prompt.trim() === "" && !stdinHasInput(io, true)) return rewindOnly(cli, io);
  const given = await printPrompt(cli, io);
  let prompt = given.prompt;
  let turnOptions: SubmitOptions = {};
  // Plugins, commands, skills and agents: every line about them once, before anything runs.
  const setup = await loadUserSetup(cli, io);
  for (const line of setup.notices) io.stderr.write(`threadline: ${line}\n`);
  // `-p "/name args"` runs a custom command (or a skill) as in the interactive mode.
  if (cli.prompt.trim().startsWith("/")) {
    const policy = commandPermission(engineOptions(cli, io.cwd).permission ?? {}, cli, io.cwd);
    const custom = await commandTurn(cli.prompt, setup.commands, io, policy);
    if (custom !== undefined) {
      for (const line of custom.notices) io.stderr.write(`threadline: ${line}\n`);
      // The argument comes last in the prompt (after piped stdin): it is what the command replaces.
      prompt = prompt.slice(0, prompt.length - cli.prompt.length) + custom.prompt;
      turnOptions = custom.options;
    } else {
      const unknown = unknownCommandLine(cli.prompt, setup.commands);
      if (unknown !== undefined) {
        io.stderr.write(`threadline: ${unknown}\n`);
        return 1;
      }
    }
  }
  // Media is checked before anything opens: an oversized image or PDF is one line and no request.
  const input = await mediaInput(prompt, io, given.image);
  if (input === undefined) return 1;
  requireCredentials(io.env, cli.provider, cli.baseURL);
  const mcp = await openMcp(cli, io, [...settingsServers(cli), ...setup.mcpServers]);
  // A -p session never sees a gap of its own: the person's earlier ones pick its cache TTL (pause-habits.ts).
  const options = engineOptions(cli, io.cwd);
  const pause = { ...options.pause, earlierGapsMs: setup.habits.earlierGapsMs };
  let opened: Awaited<ReturnType<typeof openSession>>;
  try {
    opened = await openSession(cli, { ...options, pause, ...setup.engineOptions, ...mcp.engineOptions });
  } catch (error) {
    await mcp.close();
    throw error;
  }
  const { engine, problems, resumed } = opened;
  if (cli.rewindTo !== undefined && !(await rewindFromFlags(engine, cli, io))) {
    await engine.close();
    await mcp.close();
    return 1;
  }
  const write = (text: string) => io.stdout.write(text);
  const problemLine = summarizeProblems(problems);
  if (problemLine !== undefined) io.stderr.write(`threadline: transcript: ${problemLine}\n`);
  // Print mode keeps stderr for problems: the fallback is announced when the sandbox was asked for (or -v).
  // Asked only then: reading engine.sandbox runs the bubblewrap probe, which otherwise waits for the first Bash call.
  const notice = cli.sandbox === true || cli.verbose ? sandboxNotice(engine.sandbox) : undefined;
  if (notice !== undefined) io.stderr.write(`threadline: ${notice}\n`);
  const started = Date.now();
  // The -v log on stderr shows requests, tools, notices and the text between tool calls; the answer is stdout's,
  // so it is not shown twice.
  const renderer = cli.verbose ? new TurnRenderer(io.stderr, { verbose: true, text: "intermediate" }) : undefined;
  // Verbose output already shows every notice; otherwise retries of HTTP failures still get a countdown.
  const countdown = cli.verbose ? undefined : new RetryCountdown(io.stderr);
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(INTERRUPTED_EXIT_CODE);
    engine.interrupt();
  };
  process.on("SIGINT", onSigint);
  let end: Extract<EngineEvent, { type: "turn_end" }> | undefined;
  let reachedServer = false;
  // For the result: time waiting on the API, the last stop_reason, refused calls, the budget (--max-budget-usd).
  let apiDurationMs = 0;
  let requestStarted: number | undefined;
  let stopReason: string | undefined;
  let overBudget = false;
  let spentUsd = 0;
  const denials: PermissionDenial[] = [];
  try {
    if (cli.outputFormat === "stream-json") {
      write(streamJsonLine(initObject(engine, cli, setup, mcp.servers())));
      // `--replay-user-messages`: the user messages read on stdin, echoed as Claude Code does.
      for (const message of cli.replayUserMessages === true ? (given.replay ?? []) : [])
        write(streamJsonLine({ ...(message as object), session_id: engine.sessionId, isReplay: true }));
    }
    let sawPrompt = false;
    for await (const event of engine.submitMessage(input, turnOptions)) {
      renderer?.handle(event);
      // A hook that failed, timed out or was cut is one line even without -v: never a silent loss. So is an effort
      // the server does not declare for the model (dropped, said once).
      if (
        renderer === undefined &&
        event.type === "notice" &&
        (isHookNotice(event.message) || isEffortNotice(event.message))
      )
        io.stderr.write(`threadline: ${event.message}\n`);
      countdown?.handle(event);
      if (event.type === "turn_end") end = event;
      if (event.type === "message_start") reachedServer = true;
      if (event.type === "request_start") requestStarted = Date.now();
      if (event.type === "message_end") {
        if (requestStarted !== undefined) apiDurationMs += Date.now() - requestStarted;
        requestStarted = undefined;
        stopReason = event.stopReason ?? undefined;
        const usage = event.usage;
        spentUsd += requestCostUsd(event.model, {
          inputTokens: usage.input_tokens,
          outputTokens: usage.output_tokens,
          cacheReadTokens: usage.cache_read_input_tokens ?? 0,
          cacheWrite5mTokens: usage.cache_creation_input_tokens ?? 0,
          cacheWrite1hTokens: 0,
        });
        if (cli.maxBudgetUsd !== undefined && !overBudget && spentUsd > cli.maxBudgetUsd) {
          overBudget = true; // Claude Code's budget: checked after each response; the turn stops there
          engine.interrupt();
        }
      }
      if (event.type === "tool_end") {
        const denial = permissionDenial(event);
        if (denial !== undefined) denials.push(denial);
      }
      if (cli.outputFormat !== "stream-json") continue;
      if (event.type === "user" && !sawPrompt) {
        sawPrompt = true; // the prompt itself is not echoed, as in Claude Code
        continue;
      }
      const line = streamJsonEvent(event, engine.sessionId, cli);
      if (line !== undefined) write(line);
    }
  } finally {
    process.off("SIGINT", onSigint);
    countdown?.stop();
    for (const line of await engine.close()) io.stderr.write(`threadline: ${line}\n`);
    await mcp.close();
    if (reachedServer) await setup.habits.save(engine.timeline.entries);
  }
  if (end === undefined) throw new CliError("The turn ended without a result.");
  const kept = await dropUnansweredSession(end, { reachedServer, resumed, path: engine.transcriptPath }, io);
  // The model table's window with --context-window over it, worked out by its one owner (compaction/budget/context-budget.ts).
  const limits = budgetLimits(
    engine.model,
    cli.contextWindow !== undefined ? { contextWindow: cli.contextWindow } : undefined,
    undefined,
  );
  const result = resultObject(end, {
    sessionId: engine.sessionId,
    durationMs: Date.now() - started,
    apiDurationMs,
    totals: engine.totals,
    transcriptPath: kept ? engine.transcriptPath : undefined,
    model: engine.model,
    contextWindow: limits.serverWindow,
    maxOutputTokens: limits.maxOutputTokens,
    stopReason,
    permissionDenials: denials,
    overBudget,
  });
  if (cli.outputFormat === "text") {
    // One line: the failure, and that the session it never started was not kept.
    const dropped = kept ? "" : " (no server answered: no session kept)";
    if (result.is_error) io.stderr.write(`threadline: ${result.result || end.reason}${dropped}\n`);
    else write(end.lastText.endsWith("\n") ? end.lastText : `${end.lastText}\n`);
  } else {
    write(streamJsonLine(result));
  }
  return overBudget ? 1 : exitCode(end.reason);
}

function exitCode(reason: TerminalReason): number {
  if (reason === "completed") return 0;
  if (reason === "aborted") return INTERRUPTED_EXIT_CODE;
  return 1;
}

function streamJsonEvent(event: EngineEvent, sessionId: string, cli: CliOptions): string | undefined {
  switch (event.type) {
    case "assistant":
      return streamJsonLine({
        type: "assistant",
        message: event.entry.message,
        session_id: sessionId,
        uuid: event.entry.uuid,
      });
    case "user":
      return streamJsonLine({
        type: "user",
        message: event.entry.message,
        session_id: sessionId,
        uuid: event.entry.uuid,
      });
    case "tool_end":
      return streamJsonLine({
        type: "user",
        message: event.entry.message,
        session_id: sessionId,
        uuid: event.entry.uuid,
        is_error: event.isError,
      });
    case "tool_progress":
      return streamJsonLine({
        type: "system",
        subtype: "tool_progress",
        tool_use_id: event.toolUseId,
        message: event.message,
        session_id: sessionId,
      });
    case "notice":
      return streamJsonLine({
        type: "system",
        subtype: "notice",
        level: event.level,
        message: event.message,
        session_id: sessionId,
      });
    case "entry":
      return streamJsonLine({ type: "system", subtype: "entry", entry: event.entry, session_id: sessionId });
    // Claude Code's partial messages are the raw server events: passed through untouched, with threadline's
    // stream warnings in the same line shape as before.
    case "sse_passthrough":
      return cli.includePartialMessages
        ? streamJsonLine({ type: "stream_event", event: event.event, session_id: sessionId })
        : undefined;
    case "stream_warning":
      return cli.includePartialMessages
        ? streamJsonLine({
            type: "stream_event",
            event: {
              type: "warning",
              message: event.message,
              ...(event.index !== undefined ? { index: event.index } : {}),
            },
            session_id: sessionId,
          })
        : undefined;
    // Claude Code has no request event: a strict consumer of its stream-json would stop at an unknown one.
    case "request_start":
    case "turn_start":
    case "tool_start":
    case "loop_continue":
    case "turn_end":
    case "message_start":
    case "block_start":
    case "text_delta":
    case "thinking_delta":
    case "tool_input_delta":
    case "block_end":
    case "message_end":
      return undefined;
    default:
      return checkNever(event);
  }
}
