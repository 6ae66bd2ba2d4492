export * from "./constructors.js";
export * from "./content.js";
export * from "./entries.js";
export * from "./memory-text.js";
export * from "./models.js";
export * from "./redact-secrets.js";
export * from "./terminal-reason.js";
export * from "./tokens.js";
