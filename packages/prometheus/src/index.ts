export * from "./remote-results.ts";
export * from "./remote-write.ts";
export * from "./series-mapping.ts";
export * from "./rules.ts";
export * from "./exposition.ts";
