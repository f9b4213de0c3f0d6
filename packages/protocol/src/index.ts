export * from "./agent-config.ts";
export * from "./ingest.ts";
export * from "./text.ts";
