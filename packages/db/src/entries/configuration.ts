/** `@tidemark/db/configuration`: the draft configuration (hosts, services, items, their policies) and what reads it. */
export * from "../configuration-overview.ts";
export * from "../draft-configuration.ts";
export * from "../draft-status.ts";
export * from "../item-bounds.ts";
