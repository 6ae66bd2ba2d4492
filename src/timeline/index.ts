export * from "./timeline.js";
export * from "./views.js";
