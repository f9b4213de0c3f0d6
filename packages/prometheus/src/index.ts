export * from "./exposition.ts";
export * from "./remote-results.ts";
export * from "./remote-write.ts";
export * from "./rules.ts";
export * from "./series-mapping.ts";
