/**
 * `threadline -p`: one prompt (argument, piped stdin, or both), one turn, output as text, one JSON result,
 * or one JSON event a line. Ctrl-C interrupts the turn and still writes a resumable transcript.
 */
import { userPlaces } from "../engine/memory-setup.js";
import { isHookNotice } from "../hooks/index.js";
import type { EngineEvent, TerminalReason } from "../loop/events.js";
import { customCommandPrompt, loadCustomCommands } from "../memory/index.js";
import { checkNever } from "../messages/index.js";
import { sandboxNotice } from "../tools/index.js";
import type { CliOptions } from "./args.js";
import { type CliIo, readAll, stdinHasInput } from "./io.js";
import { resultObject, streamJsonLine } from "./json-output.js";
import { openMcp } from "./mcp-session.js";
import { TurnRenderer } from "./render.js";
import { summarizeProblems } from "./resume-recap.js";
import { RetryCountdown } from "./retry-countdown.js";
import { CliError, engineOptions, openSession, requireCredentials } from "./session.js";

/** Exit code after an interruption (128 + SIGINT). */
export const INTERRUPTED_EXIT_CODE = 130;

/** The prompt: piped stdin first, then the argument, separated by a blank line. */
async function printPrompt(cli: CliOptions, io: CliIo): Promise<string> {
  const parts: string[] = [];
  if (stdinHasInput(io, cli.prompt.trim() !== "")) {
    const piped = (await readAll(io.stdin)).trim();
    if (piped !== "") parts.push(piped);
  }
  if (cli.prompt.trim() !== "") parts.push(cli.prompt);
  const prompt = parts.join("\n\n");
  if (prompt === "") throw new CliError("No prompt: pass one after -p, or pipe it on stdin.");
  return prompt;
}

/** Runs print mode; resolves to the exit code. */
export async function runPrintMode(cli: CliOptions, io: CliIo): Promise<number> {
  let prompt = await printPrompt(cli, io);
  let allowedTools: readonly string[] = [];
  // `-p "/name args"` runs a custom command as in the interactive mode.
  if (cli.prompt.trim().startsWith("/")) {
    const found = await loadCustomCommands(userPlaces(io.cwd, undefined, io.env));
    for (const line of found.notices) io.stderr.write(`threadline: ${line}\n`);
    const custom = customCommandPrompt(cli.prompt, found.commands);
    if (custom !== undefined) {
      // The argument comes last in the prompt (after piped stdin): it is what the command replaces.
      prompt = prompt.slice(0, prompt.length - cli.prompt.length) + custom.prompt;
      allowedTools = custom.command.allowedTools;
    }
  }
  requireCredentials(io.env, cli.provider);
  const mcp = await openMcp(cli, io);
  let opened: Awaited<ReturnType<typeof openSession>>;
  try {
    opened = await openSession(cli, { ...engineOptions(cli, io.cwd), ...mcp.engineOptions });
  } catch (error) {
    await mcp.close();
    throw error;
  }
  const { engine, problems } = opened;
  const write = (text: string) => io.stdout.write(text);
  const problemLine = summarizeProblems(problems);
  if (problemLine !== undefined) io.stderr.write(`threadline: transcript: ${problemLine}\n`);
  // Print mode keeps stderr for problems: the fallback is announced when the sandbox was asked for (or -v).
  const notice = sandboxNotice(engine.sandbox);
  if (notice !== undefined && (cli.sandbox === true || cli.verbose)) io.stderr.write(`threadline: ${notice}\n`);
  const started = Date.now();
  // The -v log on stderr shows requests, tools and notices; the answer is stdout's, so it is not shown twice.
  const renderer = cli.verbose ? new TurnRenderer(io.stderr, { verbose: true, text: false }) : undefined;
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
  try {
    if (cli.outputFormat === "stream-json") {
      write(
        streamJsonLine({
          type: "system",
          subtype: "init",
          session_id: engine.sessionId,
          cwd: engine.cwd,
          model: engine.model,
          tools: engine.tools.map((tool) => tool.name),
          permissionMode: cli.permissionMode,
          transcript_path: engine.transcriptPath ?? null,
        }),
      );
    }
    let sawPrompt = false;
    for await (const event of engine.submitMessage(prompt, allowedTools.length > 0 ? { allowedTools } : {})) {
      renderer?.handle(event);
      // A hook that failed, timed out or was cut is one line even without -v: never a silent loss.
      if (renderer === undefined && event.type === "notice" && isHookNotice(event.message))
        io.stderr.write(`threadline: ${event.message}\n`);
      countdown?.handle(event);
      if (event.type === "turn_end") end = event;
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
    await engine.close();
    await mcp.close();
  }
  if (end === undefined) throw new CliError("The turn ended without a result.");
  const result = resultObject(end, {
    sessionId: engine.sessionId,
    durationMs: Date.now() - started,
    totals: engine.totals,
    transcriptPath: engine.transcriptPath,
  });
  if (cli.outputFormat === "text") {
    if (result.is_error) io.stderr.write(`threadline: ${result.result || end.reason}\n`);
    else write(end.lastText.endsWith("\n") ? end.lastText : `${end.lastText}\n`);
  } else {
    write(streamJsonLine(result));
  }
  return exitCode(end.reason);
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
    case "request_start":
      return cli.verbose
        ? streamJsonLine({
            type: "system",
            subtype: "request_start",
            iteration: event.iteration,
            bytes: event.request.json.length,
            session_id: sessionId,
          })
        : undefined;
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
