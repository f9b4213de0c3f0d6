/** Variables of the server's environment that the local agent must not inherit. */
const SERVER_SECRETS = ["DATABASE_URL"];

/**
 * The environment `npm start` gives its local agent: the server's own, minus its secrets (the
 * database URL), plus the agent's settings. The agent's checks get even less (check-identity.ts).
 */
export function localAgentEnvironment(serverEnv: NodeJS.ProcessEnv, agentSettings: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(serverEnv)) {
    if (value !== undefined && !SERVER_SECRETS.includes(name)) env[name] = value;
  }
  return { ...env, ...agentSettings };
}
