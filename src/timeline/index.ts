export * from "./branch.js";
export * from "./identity-memo.js";
export * from "./prefix.js";
export * from "./session-account.js";
export * from "./timeline.js";
export * from "./views.js";
