export * from "./memory-attachment.js";
export * from "./memory-limits.js";
export * from "./memory-listing.js";
export * from "./memory-reader.js";
export * from "./memory-session.js";
export * from "./memory-sources.js";
export * from "./memory-types.js";
export * from "./reattach.js";
