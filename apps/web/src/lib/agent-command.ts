/** The command that starts a collector agent for this dashboard with its token (shown once, to copy). */
export function agentCommand(origin: string, token: string): string {
  return `TIDEMARK_URL=${origin} TIDEMARK_AGENT_TOKEN=${token} npx tsx apps/agent/src/main.ts`;
}
