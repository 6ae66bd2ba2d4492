/**
 * Model ids as Amazon Bedrock and Google Vertex AI spell them, mapped from the first-party ids of the
 * model table. The rules are Anthropic's published ones (platform.claude.com, "Model IDs and versions"):
 * - dated models (before the 4.6 generation): Bedrock `anthropic.claude-sonnet-4-5-20250929-v1:0`,
 *   Vertex `claude-sonnet-4-5@20250929`;
 * - the 4.6 generation on: dateless, Bedrock `anthropic.claude-sonnet-4-6` (Opus 4.6 is the last with a
 *   `-v1` suffix: `anthropic.claude-opus-4-6-v1`), Vertex the same as the first-party id.
 * Bedrock serves newer models only through inference profiles (`us.`, `eu.`, `apac.`, `global.` prefixes),
 * so a bare id gets the prefix of its region. An id already in the platform's form (or a Bedrock ARN)
 * passes through untouched, so `--model` / `ANTHROPIC_MODEL` can name anything the platform accepts.
 */

/** Snapshot date of each dated model the table knows (an undated alias maps to its snapshot). */
export const MODEL_SNAPSHOTS: Readonly<Record<string, string>> = {
  "claude-opus-4-5": "20251101",
  "claude-opus-4-1": "20250805",
  "claude-opus-4": "20250514",
  "claude-sonnet-4-5": "20250929",
  "claude-sonnet-4": "20250514",
  "claude-haiku-4-5": "20251001",
  "claude-3-7-sonnet": "20250219",
  "claude-3-5-haiku": "20241022",
};

/** Dateless models whose Bedrock id still carries the `-v1` suffix. */
const BEDROCK_V1_SUFFIX: ReadonlySet<string> = new Set(["claude-opus-4-6"]);

const DATED = /^(claude-[a-z0-9-]+?)-(\d{8})$/;
const BEDROCK_FORM = /^(?:arn:|(?:[a-z-]+\.)?anthropic\.)/;

/** `{ base, date }` of a first-party id: `claude-sonnet-4-5-20250929` → base `claude-sonnet-4-5`, that date. */
function splitDate(model: string): { base: string; date: string | undefined } {
  const match = DATED.exec(model);
  if (match?.[1] !== undefined && match[2] !== undefined) return { base: match[1], date: match[2] };
  return { base: model, date: MODEL_SNAPSHOTS[model] };
}

/**
 * The inference-profile prefix for an AWS region: `us-east-1` → `us`, `eu-west-1` → `eu`,
 * `ap-northeast-1` → `apac`, `us-gov-west-1` → `us-gov`; other regions use the `global` profile.
 */
export function bedrockInferencePrefix(region: string): string {
  if (region.startsWith("us-gov-")) return "us-gov";
  if (region.startsWith("us-")) return "us";
  if (region.startsWith("eu-")) return "eu";
  if (region.startsWith("ap-")) return "apac";
  return "global";
}

/**
 * The Bedrock model id for `model`: a first-party id becomes `{prefix}.anthropic.…`; an id already in
 * Bedrock form (`anthropic.…`, `us.anthropic.…`, an ARN) is returned as given. `prefix` null: no profile.
 */
export function bedrockModelId(model: string, prefix: string | null): string {
  if (BEDROCK_FORM.test(model)) return model;
  const { base, date } = splitDate(model);
  const id =
    date !== undefined
      ? `anthropic.${base}-${date}-v1:0`
      : BEDROCK_V1_SUFFIX.has(base)
        ? `anthropic.${base}-v1`
        : `anthropic.${base}`;
  return prefix === null ? id : `${prefix}.${id}`;
}

/** The Vertex model id for `model`: dated models use `@date`; an id that has an `@` already is kept. */
export function vertexModelId(model: string): string {
  if (model.includes("@")) return model;
  const { base, date } = splitDate(model);
  return date !== undefined ? `${base}@${date}` : base;
}

/**
 * The first-party id behind a platform id (for the model table: limits, prices):
 * `us.anthropic.claude-sonnet-4-5-20250929-v1:0` and `claude-sonnet-4-5@20250929` → `claude-sonnet-4-5-20250929`.
 * Ids that are not Anthropic model ids (ARNs, other vendors) are returned unchanged.
 */
export function firstPartyModelId(model: string): string {
  let id = model.replace(/^(?:[a-z-]+\.)?anthropic\./, "");
  if (id === model && !model.includes("@")) return model;
  id = id.replace(/-v\d+(?::\d+)?$/, "").replace("@", "-");
  return id;
}
