export * from "./canonical.ts";
export * from "./diff.ts";
export * from "./render.ts";
export * from "./snapshot.ts";
