/**
 * Self-healing requests: a 400 naming something the server does not accept (an extra field, an unknown
 * block type, a beta) switches the feature it belongs to off for the session, and the loop resends the
 * request once without it. Each feature can be switched off once, so a server that refuses the request
 * again for the same reason gets its error shown, never a loop.
 */
import { checkNever } from "../../messages/index.js";
import type { ProviderCapabilities, ProviderError, UnsupportedInput } from "../../provider/index.js";
import type { AssembledRequest } from "../../request/index.js";
import { featureOfBeta, OPTIONAL_TOP_LEVEL_FIELDS, type ServerFeature } from "../../request/index.js";

/** What to switch off, and the one line the person sees. */
export interface SelfHealDecision {
  features: ServerFeature[];
  notice: string;
}

/** Field names that only cache editing puts in a request. */
const CACHE_EDITING_NAMES: ReadonlySet<string> = new Set(["cache_reference", "cache_edits"]);

/** The features a refused input belongs to (before checking what the request sent). */
export function featuresOfInput(input: UnsupportedInput): ServerFeature[] {
  switch (input.kind) {
    case "beta":
      return input.names.map(featureOfBeta);
    case "block_type":
      return CACHE_EDITING_NAMES.has(input.type) ? ["cache_editing"] : [];
    case "field": {
      const segments = input.path.split(".");
      if (segments.some((segment) => CACHE_EDITING_NAMES.has(segment))) return ["cache_editing"];
      const [first] = segments;
      const feature = segments.length === 1 && first !== undefined ? OPTIONAL_TOP_LEVEL_FIELDS[first] : undefined;
      return feature !== undefined ? [feature] : [];
    }
    default:
      return checkNever(input);
  }
}

/** Whether `request` used `feature` (a 400 for something not sent is about something else). */
export function requestUses(request: AssembledRequest, feature: ServerFeature): boolean {
  if (feature.startsWith("beta:")) return request.betas.includes(feature.slice("beta:".length));
  switch (feature) {
    case "cache_editing":
      return (
        request.json.includes('"cache_reference"') ||
        request.json.includes('"cache_edits"') ||
        request.betas.some((beta) => featureOfBeta(beta) === "cache_editing")
      );
    case "context_management":
      return (
        request.body.context_management !== undefined || request.betas.some((beta) => featureOfBeta(beta) === feature)
      );
    case "thinking":
      return request.body.thinking !== undefined || request.betas.some((beta) => featureOfBeta(beta) === feature);
    case "metadata":
      return request.body.metadata !== undefined;
    case "tool_choice":
      return request.body.tool_choice !== undefined;
    case "cache_ttl_1h":
      return request.betas.some((beta) => featureOfBeta(beta) === feature);
    default:
      return false;
  }
}

/** The features to switch off after `error`, or undefined when the error is not one self-healing can fix. */
export function decideSelfHeal(
  error: ProviderError,
  request: AssembledRequest,
  off: ReadonlySet<ServerFeature>,
): SelfHealDecision | undefined {
  const input = error.options.unsupported;
  if (error.kind !== "unsupported_input" || input === undefined) return undefined;
  const features = featuresOfInput(input).filter((feature) => !off.has(feature) && requestUses(request, feature));
  if (features.length === 0) return undefined;
  const names = features.map(describeFeature).join(", ");
  return {
    features: [...new Set(features)],
    notice: `The server does not accept ${names}; switched off for this session and the request sent again without it.`,
  };
}

/** `capabilities` minus what the session switched off (compaction reads these to pick its tier). */
export function capabilitiesWithout(
  capabilities: ProviderCapabilities,
  off: ReadonlySet<ServerFeature> | undefined,
): ProviderCapabilities {
  if (off === undefined || off.size === 0) return capabilities;
  return {
    ...capabilities,
    cacheEdits: capabilities.cacheEdits && !off.has("cache_editing"),
    contextManagement: capabilities.contextManagement && !off.has("context_management"),
  };
}

function describeFeature(feature: ServerFeature): string {
  if (feature.startsWith("beta:")) return `the beta ${feature.slice("beta:".length)}`;
  switch (feature) {
    case "cache_editing":
      return "cache editing (cache_edits, cache_reference)";
    case "context_management":
      return "context_management";
    case "cache_ttl_1h":
      return "the 1-hour cache TTL";
    default:
      return `\`${feature}\``;
  }
}
