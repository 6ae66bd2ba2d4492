export { confinedPath } from "./confine.js";
export {
  createTrustGate,
  isYes,
  PERMISSION_KINDS,
  type ProjectCodeKind,
  TRUST_PROMPT,
  type TrustGate,
  type TrustGateOptions,
  trustQuestionLines,
  type WithheldItem,
  withheldLine,
} from "./trust-gate.js";
export { isFolderTrusted, TRUST_FILE, trustFolder } from "./trust-store.js";
