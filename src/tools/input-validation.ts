/** Turns zod issues into one message the model can act on. */
import type * as z from "zod";

function fieldName(issuePath: readonly PropertyKey[]): string {
  return issuePath.length === 0 ? "(input)" : issuePath.map(String).join(".");
}

function describeIssue(issue: z.core.$ZodIssue, knownFields: readonly string[]): string {
  const field = fieldName(issue.path);
  if (issue.code === "unrecognized_keys") {
    const accepted = knownFields.length > 0 ? ` (accepted fields: ${knownFields.join(", ")})` : "";
    const plural = issue.keys.length === 1 ? "" : "s";
    return `${field}: unexpected field${plural} ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}${accepted}`;
  }
  if (issue.code === "invalid_type" && / received undefined$/.test(issue.message)) {
    return `${field}: required field is missing (expected ${issue.expected})`;
  }
  return `${field}: ${issue.message.replace(/^Invalid input: /, "")}`;
}

/** The field names of an object schema, for "accepted fields" hints; empty for other schemas. */
function objectFields(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: unknown }).shape;
  return typeof shape === "object" && shape !== null ? Object.keys(shape) : [];
}

/** `InputValidationError: file_path: expected string, received number; ...` for a failed parse. */
export function formatInputValidationError(toolName: string, schema: z.ZodType, error: z.ZodError): string {
  const fields = objectFields(schema);
  const details = error.issues.map((issue) => describeIssue(issue, fields)).join("; ");
  return `InputValidationError: ${details}. Fix the ${toolName} input and call it again.`;
}
