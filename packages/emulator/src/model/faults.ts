/**
 * Fault injection: which `POST /v1/messages` requests fail, and how. Per-request specs name the Nth request
 * (1-based); rate specs draw from their own seeded generator once per request, so a run replays exactly.
 */
import { seededRandom } from "./random.js";
import type { FaultKind, FaultSpec } from "./scenario.js";

/** Seed of a rate spec that names none. */
export const DEFAULT_FAULT_SEED = 1;

/** Where a fault strikes: before any response bytes, or after HTTP 200 in the middle of the stream. */
export function faultPhase(kind: FaultKind): "before" | "mid-stream" {
  switch (kind) {
    case "rate_limit":
    case "overloaded":
    case "server_error":
      return "before";
    case "connection_cut":
    case "body_cut":
    case "stream_error":
    case "stall":
      return "mid-stream";
    default: {
      const unknown: never = kind;
      throw new Error(`unknown fault kind ${String(unknown)}`);
    }
  }
}

export class FaultPlan {
  private readonly byRequest = new Map<number, FaultKind>();
  private readonly rates: Array<{ rate: number; kinds: FaultKind[]; random: () => number }> = [];

  constructor(specs: readonly FaultSpec[]) {
    for (const spec of specs) {
      if ("onRequest" in spec) this.byRequest.set(spec.onRequest, spec.kind);
      else
        this.rates.push({ rate: spec.rate, kinds: spec.kinds, random: seededRandom(spec.seed ?? DEFAULT_FAULT_SEED) });
    }
  }

  /** The fault for the `requestNumber`th messages request, if any. */
  decide(requestNumber: number): FaultKind | undefined {
    let chosen = this.byRequest.get(requestNumber);
    for (const rate of this.rates) {
      // Always draw both numbers so later requests' draws do not depend on earlier outcomes.
      const hit = rate.random() < rate.rate;
      const pick = rate.kinds[Math.floor(rate.random() * rate.kinds.length)];
      if (chosen === undefined && hit) chosen = pick;
    }
    return chosen;
  }
}
