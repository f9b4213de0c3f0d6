/** `@tidemark/db/alerts`: alerts and their state machines' memory, events, silences, receivers and deliveries. */
export * from "../alert-detail.ts";
export * from "../alert-state.ts";
export * from "../alert-timeline.ts";
export * from "../notification-repeats.ts";
export * from "../retired-series.ts";
export * from "../silences.ts";
export * from "../webhooks.ts";
