/**
 * Server profiles for the OpenAI chat-completions protocol (`--provider openai-compatible`): where each server
 * listens by default, what it accepts and where it declares its context window. Declared, never guessed: the
 * profile is named (THREADLINE_SERVER_PROFILE), else `openai-compatible`, which claims nothing beyond the core
 * `/v1/chat/completions` with streaming, tools and `stream_options.include_usage`.
 *
 * None of these servers takes a client's prompt-cache control: llama.cpp keeps its slot's prefix (`cache_prompt`,
 * on by default), vLLM's automatic prefix caching and Ollama's runner reuse a matching prefix by themselves, so
 * what threadline does for them is keep the prefix byte-stable, which it does for every server. None counts
 * tokens for a Messages request, runs server tools or takes Anthropic betas, so every such capability is off.
 */
import type { ProviderCapabilities } from "./types.js";

/** The OpenAI-protocol server profiles. */
export type OpenAIServerProfile = "openai-compatible" | "llama.cpp" | "vllm" | "ollama" | "lmstudio";

export const OPENAI_SERVER_PROFILE_NAMES: readonly OpenAIServerProfile[] = [
  "openai-compatible",
  "llama.cpp",
  "vllm",
  "ollama",
  "lmstudio",
];

/** Where a server says how large its context window is, when it says so at all. */
export type WindowDeclaration =
  /** llama.cpp: `GET /props` → `default_generation_settings.n_ctx` (the slot's window). */
  | { kind: "llama.cpp-props" }
  /** vLLM: `GET /v1/models` → `data[].max_model_len` for the served model. */
  | { kind: "vllm-models" }
  /** Ollama: `POST /api/show {model}` → `model_info["<arch>.context_length"]` (the model's trained window). */
  | { kind: "ollama-show" }
  /** The server declares none (LM Studio's OpenAI routes, OpenAI itself, proxies): learned from its errors. */
  | { kind: "none" };

export interface OpenAIServerProfileInfo {
  name: OpenAIServerProfile;
  /** Human name for messages. */
  title: string;
  /** The base URL the server listens on out of the box (with `/v1`); none for a generic server. */
  defaultBaseURL: string | undefined;
  windowDeclaration: WindowDeclaration;
  /** Where the claims come from. */
  sources: readonly string[];
}

/** What every OpenAI-protocol server accepts beyond chat completions: nothing threadline would send otherwise. */
export const OPENAI_COMPATIBLE_CAPABILITIES: Readonly<ProviderCapabilities> = Object.freeze({
  cacheEdits: false,
  contextManagement: false,
  betas: false,
  cacheTtls: [] as const,
  cacheDiagnostics: false,
  toolChanges: false,
  serverCompaction: false,
  webSearch: false,
  tokenCounting: false,
  structuredOutputs: false,
});

export const OPENAI_SERVER_PROFILES: Readonly<Record<OpenAIServerProfile, Readonly<OpenAIServerProfileInfo>>> =
  Object.freeze({
    "openai-compatible": {
      name: "openai-compatible",
      title: "an OpenAI-compatible server",
      defaultBaseURL: undefined,
      windowDeclaration: { kind: "none" },
      sources: ["openai 6.49.0 resources/chat/completions (the request and chunk types)"],
    },
    "llama.cpp": {
      name: "llama.cpp",
      title: "llama.cpp llama-server",
      defaultBaseURL: "http://127.0.0.1:8080/v1",
      windowDeclaration: { kind: "llama.cpp-props" },
      sources: [
        "llama.cpp tools/server/README.md: --port default 8080, GET /props default_generation_settings.n_ctx",
        "llama.cpp tools/server: cache_prompt defaults to true (the slot reuses the common prefix)",
      ],
    },
    vllm: {
      name: "vllm",
      title: "vLLM",
      defaultBaseURL: "http://127.0.0.1:8000/v1",
      windowDeclaration: { kind: "vllm-models" },
      sources: [
        "vLLM docs, OpenAI-compatible server: `vllm serve` listens on port 8000",
        "vLLM entrypoints/openai/protocol.py ModelCard.max_model_len (GET /v1/models)",
      ],
    },
    ollama: {
      name: "ollama",
      title: "Ollama",
      defaultBaseURL: "http://127.0.0.1:11434/v1",
      windowDeclaration: { kind: "ollama-show" },
      sources: [
        "Ollama docs/openai.md: the OpenAI compatibility endpoint at http://localhost:11434/v1",
        "Ollama docs/api.md: POST /api/show model_info (<arch>.context_length)",
      ],
    },
    lmstudio: {
      name: "lmstudio",
      title: "LM Studio",
      defaultBaseURL: "http://127.0.0.1:1234/v1",
      windowDeclaration: { kind: "none" },
      sources: ["LM Studio docs, OpenAI compatibility endpoints: http://localhost:1234/v1"],
    },
  });

/**
 * The OpenAI-protocol profile `named` (THREADLINE_SERVER_PROFILE's value), `openai-compatible` when none is named;
 * an unknown name throws one line naming the choices.
 */
export function openAIServerProfile(named: string | undefined): OpenAIServerProfile {
  if (named === undefined) return "openai-compatible";
  if ((OPENAI_SERVER_PROFILE_NAMES as readonly string[]).includes(named)) return named as OpenAIServerProfile;
  throw new Error(
    `THREADLINE_SERVER_PROFILE must be one of ${OPENAI_SERVER_PROFILE_NAMES.join("|")} for --provider openai-compatible, got ${JSON.stringify(named)}`,
  );
}

/** The context window a server's declaration states, from the JSON it answered; undefined when it states none. */
export function declaredWindow(declaration: WindowDeclaration, answer: unknown, model: string): number | undefined {
  const positive = (value: unknown): number | undefined =>
    typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
  const object = (value: unknown): Record<string, unknown> | undefined =>
    typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  switch (declaration.kind) {
    case "llama.cpp-props":
      return positive(object(object(answer)?.default_generation_settings)?.n_ctx);
    case "vllm-models": {
      const data = object(answer)?.data;
      if (!Array.isArray(data)) return undefined;
      const card =
        data.map(object).find((entry) => entry?.id === model) ?? (data.length === 1 ? object(data[0]) : undefined);
      return positive(card?.max_model_len);
    }
    case "ollama-show": {
      const info = object(object(answer)?.model_info);
      if (info === undefined) return undefined;
      const key = Object.keys(info).find((name) => name.endsWith(".context_length"));
      return key === undefined ? undefined : positive(info[key]);
    }
    case "none":
      return undefined;
    default: {
      const unknown: never = declaration;
      throw new Error(`unknown window declaration ${JSON.stringify(unknown)}`);
    }
  }
}
