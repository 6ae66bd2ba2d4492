/** `threadline --help`: the options grouped as Claude Code's `--help` groups them, then Claude Code's others. */
import { CONTEXT_WINDOW_ENV, SANDBOX_ENV } from "./args.js";

/** The hint printed after a usage error's one line (the full usage is one `--help` away). */
export const USAGE_HINT = "(run `threadline --help` for usage)";

/** The usage text printed by `--help`. */
export const USAGE = `Usage: threadline [options] [prompt]
       threadline demo | emulator [options] | inspect <transcript.jsonl | session-id>   (each answers --help)
       threadline sessions [--project <key>] | export <session-id> > file.jsonl | import <file.jsonl>
       threadline mcp list | get <name> | add [-s local|project|user] <name> <command or url> [args…] | add-json <name> <json> | remove <name>

Starts an interactive session by default; use -p/--print for a single non-interactive answer.

Options:
  -p, --print                      Print the answer and exit (reads stdin when piped)
  -c, --continue                   Continue the latest session in this directory
  -r, --resume <session-id>        Resume a session by id (or a transcript file threadline wrote)
      --fork-session               With --resume/--continue: go on in a new session id (the saved one is only read)
      --session-id <uuid>          Start a new session with this id
      --project <key>              Project the session is filed under (default: this directory)
      --model <model>              Model (default: $ANTHROPIC_MODEL, else settings "model", else claude-opus-5-5)
      --provider <protocol>        anthropic | bedrock | vertex | openai-compatible (default: $THREADLINE_USE_BEDROCK /
                                   $THREADLINE_USE_VERTEX / $THREADLINE_USE_OPENAI_COMPATIBLE, else anthropic)
      --base-url <url>             The server (default: $ANTHROPIC_BASE_URL, or $OPENAI_BASE_URL for openai-compatible)
      --fallback-model <model>     Model to switch to when the main one is overloaded
      --effort <level>             low | medium | high | xhigh | max, where the server declares it for the model
      --max-turns <n>              Answered model requests (agentic turns) allowed per prompt
      --output-format <format>     text | json | stream-json (with --print; default text)
      --include-partial-messages   With stream-json: also print raw stream events
      --permission-mode <mode>     default | acceptEdits | bypassPermissions | plan | dontAsk | manual
      --dangerously-skip-permissions   Same as --permission-mode bypassPermissions
      --settings <file|json>       One more settings file (or inline JSON), above every other settings file
      --allowedTools <rules...>    Tools allowed without asking, e.g. "Read,Bash(npm test:*)"
      --disallowedTools <rules...> Tools always denied
      --system-prompt <text>       Replace the default instructions
      --append-system-prompt <text>    Append to the default instructions
      --context-window <tokens>    Override the model's context window ($${CONTEXT_WINDOW_ENV})
      --sandbox / --no-sandbox     Run Bash under bubblewrap (default: on when bwrap works here; $${SANDBOX_ENV})
      --sandbox-network            Let sandboxed commands use the network
      --mcp-config <file|json>     MCP servers ({"mcpServers":{…}} as in .mcp.json); repeatable
      --strict-mcp-config          Use only the --mcp-config servers (not .mcp.json or settings)
      --trust-folder               Run this folder's project hooks, MCP servers and env for this run (untrusted: withheld)
      --without-project-code       -p in an untrusted folder: go on without them (else it stops before the first request)
      --plugin-dir <path>          Load a Claude Code plugin folder for this run; repeatable
      --no-memory                  Read no CLAUDE.md / AGENTS.md memory files, offer no skills ($THREADLINE_DISABLE_MEMORY=1)
      --rewind-to <n|prompt-id>    With -r/-c: go back to the end of prompt n's turn (see /rewind)
      --rewind-mode <mode>         both | conversation | code: what --rewind-to restores (default both)
      --verbose                    Show tool calls, notices and requests (headers redacted)
  -d, --debug [filter]             Same as --verbose (the filter selects nothing)

Claude Code's other options (docs/CLAUDE-CODE-KEYS.md):
      --add-dir <directories...>   More folders the tools may use without asking
      --agents <json>              Subagents: '{"name":{"description":"…","prompt":"…","tools":[…],"model":"…"}}'
      --tools <names>              Only these built-in tools ("" none, "default" all), e.g. "Bash,Edit,Read"
      --system-prompt-file <file>  Replace the default instructions with a file's text
      --append-system-prompt-file <file>   Append a file's text to the default instructions
      --setting-sources <list>     Settings files read: user,project,local (managed and --settings always)
      --input-format <format>      text | stream-json (user messages as JSON lines on stdin; with -p)
      --replay-user-messages       With stream-json in and out: echo the user messages read
      --max-budget-usd <dollars>   With -p: stop once the run has cost more (result error_max_budget_usd)
      --no-session-persistence     With -p: keep no transcript
      --autocompact / --no-autocompact   Autocompaction on or off for this session
  Accepted, no effect here: --exclude-dynamic-system-prompt-sections, --betas, -n/--name, --disable-slash-commands,
      --allow-dangerously-skip-permissions, --no-chrome
  Refused with the reason: --json-schema, -w/--worktree, --include-hook-events, --permission-mode auto, --agent,
      --permission-prompt-tool, --from-pr, --remote, --teleport, --ide, --chrome, --debug-file
  -h, --help                       Show this help
  -v, --version                    Show the version

Environment: ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL, THREADLINE_HOME, ${CONTEXT_WINDOW_ENV},
             ${SANDBOX_ENV}, THREADLINE_SECRET_ENV, THREADLINE_PASS_ENV,
             THREADLINE_STORE (postgres://… keeps sessions in PostgreSQL; unset: JSONL files under THREADLINE_HOME),
             THREADLINE_SERVER_PROFILE (what a Messages API server accepts: anthropic | anthropic-compatible | emulator)
  Bedrock: THREADLINE_USE_BEDROCK=1, AWS_REGION, AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_BEARER_TOKEN_BEDROCK
  Vertex:  THREADLINE_USE_VERTEX=1, CLOUD_ML_REGION, ANTHROPIC_VERTEX_PROJECT_ID, Google ADC or GOOGLE_OAUTH_ACCESS_TOKEN
  OpenAI-compatible (llama.cpp, vLLM, Ollama, LM Studio): THREADLINE_USE_OPENAI_COMPATIBLE=1, OPENAI_BASE_URL,
           OPENAI_API_KEY (optional), THREADLINE_SERVER_PROFILE=llama.cpp|vllm|ollama|lmstudio|openai-compatible`;
