export * from "./messages/index.js";
export * from "./provider/types.js";
export type * from "./request/types.js";
export * from "./timeline/index.js";
export type * from "./tools/types.js";
