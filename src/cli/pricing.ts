/**
 * How a model's prices are labelled where they are shown: a model the table does not know is priced with
 * placeholder prices, and says so. The cost formula itself is `src/messages/pricing.ts`.
 */
import { isKnownModel } from "../messages/index.js";

/** What is shown beside a price or limit for a model the table does not know. */
export const UNKNOWN_MODEL_NOTE = "unknown model: prices and limits assumed";

/** `model`, or `model (unknown model: prices and limits assumed)`: never silently priced as a known model. */
export function modelPriceLabel(model: string): string {
  return isKnownModel(model) ? model : `${model} (${UNKNOWN_MODEL_NOTE})`;
}
