/**
 * Effort levels (the Messages API's `output_config.effort`, pinned SDK `OutputConfig`): how much reasoning a
 * request asks for. Which levels a model takes is the server's to declare (the Models API's
 * `capabilities.effort`), never guessed from the model's name.
 */

/** The levels, as the API and Claude Code 2.1.328's Agent `effort` enum name them, least first. */
export const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const;

export type EffortLevel = (typeof EFFORT_LEVELS)[number];

/** Whether `value` names an effort level. */
export function isEffortLevel(value: unknown): value is EffortLevel {
  return typeof value === "string" && (EFFORT_LEVELS as readonly string[]).includes(value);
}
