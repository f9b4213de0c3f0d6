/** `@tidemark/db/fleet`: agents, which services they run, and the deployed versions they receive. */
export * from "../agent-auth.ts";
export * from "../agents.ts";
export * from "../assignment.ts";
export * from "../deploy.ts";
export * from "../deployed-policy.ts";
export * from "../deployments.ts";
