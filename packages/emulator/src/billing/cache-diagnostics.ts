/**
 * Cache diagnostics as the API describes them (SDK `BetaDiagnosticsParam` / `BetaDiagnostics`): a request that
 * carries `diagnostics` stores a fingerprint under its response's id; a later request naming that id in
 * `diagnostics.previous_message_id` is compared with it and told the first divergence, in prompt order (model,
 * tools, system, then messages). The comparison is about the request's structure, not whether the cache hit.
 * Nothing is stored for a request without `diagnostics`. Moved `cache_control` markers are not a divergence:
 * they are not part of the prompt.
 */
import type { EmulatorRequest } from "../request-types.js";
import { TokenRuler } from "../ruler.js";

/** The wire `cache_miss_reason` (SDK `BetaCacheMissReason`). */
export type CacheMissReason =
  | {
      type: "model_changed" | "system_changed" | "tools_changed" | "messages_changed";
      cache_missed_input_tokens: number;
    }
  | { type: "previous_message_not_found" }
  | { type: "unavailable" };

/** What is kept of a request: hashes of its parts as JSON strings and token estimates, never its text. */
interface Fingerprint {
  model: string;
  tools: string;
  system: string;
  /** JSON of each message, markers removed. */
  messages: string[];
  /** Estimated input tokens of the whole request. */
  tokens: number;
}

/** Most fingerprints kept (the API keeps them for a limited time); the oldest go first. */
export const DEFAULT_MAX_FINGERPRINTS = 10_000;

const withoutMarkers = (value: unknown): string =>
  JSON.stringify(value ?? null, (key, inner: unknown) => (key === "cache_control" ? undefined : inner));

function fingerprintOf(request: EmulatorRequest, ruler: TokenRuler): Fingerprint {
  return {
    model: request.model,
    tools: withoutMarkers(request.tools ?? []),
    system: withoutMarkers(request.system ?? []),
    messages: request.messages.map((message) => withoutMarkers(message)),
    tokens: ruler.request(request),
  };
}

/** The `diagnostics` the request asked for, or undefined when it carried none (nothing is compared or kept). */
export function requestedDiagnostics(request: EmulatorRequest): { previousMessageId: string | null } | undefined {
  const diagnostics = request.diagnostics;
  if (diagnostics === undefined || diagnostics === null || typeof diagnostics !== "object") return undefined;
  const previous = (diagnostics as { previous_message_id?: unknown }).previous_message_id;
  return { previousMessageId: typeof previous === "string" ? previous : null };
}

/** Fingerprints by response id, bounded. */
export class CacheDiagnostics {
  readonly #fingerprints = new Map<string, Fingerprint>();
  readonly #max: number;
  readonly #ruler: TokenRuler;

  constructor(max = DEFAULT_MAX_FINGERPRINTS, ruler: TokenRuler = TokenRuler.unscaled) {
    this.#max = max;
    this.#ruler = ruler;
  }

  /**
   * The response's `diagnostics` for `request`, answered under `responseId`: undefined when the request asked for
   * none, `null` when the prefix of the named request was reused in full (or there is none to compare), else the
   * reason. Stores the request's fingerprint under `responseId` either way.
   */
  diagnose(request: EmulatorRequest, responseId: string): { cache_miss_reason: CacheMissReason } | null | undefined {
    const asked = requestedDiagnostics(request);
    if (asked === undefined) return undefined;
    const current = fingerprintOf(request, this.#ruler);
    this.#store(responseId, current);
    if (asked.previousMessageId === null) return null;
    const previous = this.#fingerprints.get(asked.previousMessageId);
    if (previous === undefined) return { cache_miss_reason: { type: "previous_message_not_found" } };
    const reason = divergence(previous, current, this.#ruler);
    return reason === null ? null : { cache_miss_reason: reason };
  }

  #store(id: string, fingerprint: Fingerprint): void {
    this.#fingerprints.set(id, fingerprint);
    if (this.#fingerprints.size > this.#max) {
      const oldest = this.#fingerprints.keys().next().value;
      if (oldest !== undefined) this.#fingerprints.delete(oldest);
    }
  }
}

/** The first divergence of `current` from `previous`, or null when `previous` is a prefix of it. */
function divergence(previous: Fingerprint, current: Fingerprint, ruler: TokenRuler): CacheMissReason | null {
  const missed = previous.tokens;
  if (previous.model !== current.model) return { type: "model_changed", cache_missed_input_tokens: missed };
  if (previous.tools !== current.tools) return { type: "tools_changed", cache_missed_input_tokens: missed };
  if (previous.system !== current.system) return { type: "system_changed", cache_missed_input_tokens: missed };
  for (let index = 0; index < previous.messages.length; index++) {
    if (previous.messages[index] === current.messages[index]) continue;
    // What would have been read from here on: the previous request's messages from the divergence.
    let readable = 0;
    for (let rest = index; rest < previous.messages.length; rest++) readable += ruler.text(previous.messages[rest]!);
    return { type: "messages_changed", cache_missed_input_tokens: readable };
  }
  return null;
}
