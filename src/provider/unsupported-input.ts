/**
 * A 400 that names something the server does not accept — an extra field, an unknown block type, a beta it
 * does not know — classified by data, each row with a real server's message beside it. The provider only
 * says *what* was refused (a field path or beta names); the loop decides which feature that is and resends.
 *
 * Sources: the Anthropic API (pydantic: "<path>: Extra inputs are not permitted", "Input tag '<t>' found
 * using 'type' does not match any of the expected tags", "Unexpected value(s) `<beta>` for the
 * `anthropic-beta` header"); vLLM's pydantic 422/400 list (`'loc': ('body', '<field>')`); serde-based
 * proxies ("unknown field `<name>`"); OpenAI-style servers ("Unrecognized request argument supplied: <name>",
 * "Unknown parameter: '<name>'"); llama.cpp ("Unsupported param: <name>").
 */
import type { ClassificationRow, UnsupportedInput } from "./errors.js";

/** Any wording of "this input is not accepted" (the rows below say which part names it). */
const UNSUPPORTED_PHRASES =
  /Extra inputs are not permitted|extra_forbidden|for the `?anthropic-beta`? header|unknown field|Unrecognized request argument|Unknown parameter|Unsupported param|found using 'type' does not match any of the expected tags/i;

/** The rows: a 400 (or 422) whose message says an input is not accepted. */
export const UNSUPPORTED_INPUT_ROWS: readonly ClassificationRow[] = [
  {
    kind: "unsupported_input",
    statuses: [400, 422],
    pattern: UNSUPPORTED_PHRASES,
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message: "messages.2.content.0.cache_reference: Extra inputs are not permitted",
    },
  },
];

interface Extractor {
  pattern: RegExp;
  read: (match: RegExpExecArray) => UnsupportedInput | undefined;
  example: string;
}

const PATH = String.raw`[A-Za-z_][\w]*(?:\.[\w]+)*`;

/** How to read the refused input out of each wording, most specific first. */
export const UNSUPPORTED_INPUT_EXTRACTORS: readonly Extractor[] = [
  {
    pattern: /Unexpected value\(s\) (?<names>.+?) for the `?anthropic-beta`? header/i,
    read: (match) => {
      const names = [...(match.groups?.names ?? "").matchAll(/`?([\w.-]+)`?/g)]
        .map((name) => name[1] ?? "")
        .filter((name) => name !== "" && name !== "and");
      return names.length > 0 ? { kind: "beta", names } : undefined;
    },
    example:
      "Unexpected value(s) `cache-editing-2025-01-01` for the `anthropic-beta` header. Please consult our " +
      "documentation at docs.anthropic.com or try again without the header.",
  },
  {
    pattern: new RegExp(
      `(?<path>${PATH})\\.type: Input tag '(?<type>[\\w-]+)' found using 'type' does not match any of the expected tags`,
    ),
    read: (match) => ({ kind: "block_type", type: match.groups?.type ?? "", path: match.groups?.path ?? "" }),
    example:
      "messages.4.content.1.type: Input tag 'cache_edits' found using 'type' does not match any of the expected tags",
  },
  {
    pattern: new RegExp(`(?<path>${PATH}): Extra inputs are not permitted`),
    read: (match) => field(match.groups?.path),
    example: "context_management: Extra inputs are not permitted",
  },
  {
    // vLLM / FastAPI: [{'type': 'extra_forbidden', 'loc': ('body', 'messages', 2, 'content', 0, 'cache_reference'), …}]
    pattern: /extra_forbidden'?,\s*'loc':\s*\((?<loc>[^)]*)\)/,
    read: (match) => {
      const parts = (match.groups?.loc ?? "")
        .split(",")
        .map((part) => part.trim().replace(/^'|'$/g, ""))
        .filter((part) => part !== "" && part !== "body");
      return field(parts.join("."));
    },
    example:
      "[{'type': 'extra_forbidden', 'loc': ('body', 'context_management'), 'msg': 'Extra inputs are not permitted', 'input': {}}]",
  },
  {
    pattern: /unknown field `(?<name>[\w.]+)`/i,
    read: (match) => field(match.groups?.name),
    example:
      "Failed to deserialize the JSON body into the target type: unknown field `cache_reference`, expected one of `type`, `tool_use_id`, `content`, `is_error` at line 1 column 2301",
  },
  {
    pattern:
      /(?:Unrecognized request argument supplied|Unknown parameter|Unsupported param(?:eter)?):\s*'?(?<name>[\w.]+)'?/i,
    read: (match) => field(match.groups?.name),
    example: "Unrecognized request argument supplied: context_management",
  },
];

function field(path: string | undefined): UnsupportedInput | undefined {
  return path === undefined || path === "" ? undefined : { kind: "field", path };
}

/** What `message` says was refused, or undefined when it names nothing threadline can leave out. */
export function unsupportedInputOf(message: string): UnsupportedInput | undefined {
  for (const extractor of UNSUPPORTED_INPUT_EXTRACTORS) {
    const match = extractor.pattern.exec(message);
    if (match === null) continue;
    const input = extractor.read(match);
    if (input !== undefined) return input;
  }
  return undefined;
}
