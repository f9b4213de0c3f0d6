import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { issueToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { ensureAgentChecks, provisionAgent } from "@tidemark/db/fleet";
import { findOrganizationBySlug } from "@tidemark/db/organizations";

const PLUGINS = "/usr/lib/nagios/plugins";
/** The system actor the audit log names for what `npm start` does to its local agent. */
const BY = "npm start (the local agent)";

/**
 * `npm start`'s own agent: an agent "local" in the demo organisation whose token secret lives
 * only in <dataDir>/agent-token (mode 0600; the database keeps its hash), with real checks of the
 * Tidemark server on this machine. They run once deployed: the first click on Deploy does that.
 * Returns the environment the agent process needs, or null when there is no such organisation or
 * someone revoked the local agent (a revoked agent stays revoked: it is neither re-keyed nor started).
 */
export async function provisionLocalAgent(
  db: Database,
  opts: { dataDir: string; organizationSlug: string; webPort: number },
): Promise<Record<string, string> | null> {
  const organization = await findOrganizationBySlug(db, opts.organizationSlug);
  if (!organization) return null;
  const tokenFile = path.join(opts.dataDir, "agent-token");
  mkdirSync(opts.dataDir, { recursive: true });
  if (!existsSync(tokenFile)) writeFileSync(tokenFile, `${issueToken("tm_agent").secret}\n`, { mode: 0o600 });
  chmodSync(tokenFile, 0o600);
  const token = readFileSync(tokenFile, "utf8").trim();
  const agentId = await provisionAgent(db, organization.id, "local", token, BY);
  if (agentId === null) return null;
  await ensureAgentChecks(
    db,
    organization.id,
    agentId,
    "localhost",
    [
      {
        name: "tidemark",
        url: "shell://localhost",
        schedules: ["30S"],
        items: [
          {
            name: "tcp",
            description: "Web port answers (s)",
            execStatement: JSON.stringify({ check: `${PLUGINS}/check_tcp -H 127.0.0.1 -p ${opts.webPort}`, label: "time" }),
          },
        ],
      },
      {
        name: "health",
        url: `http://127.0.0.1:${opts.webPort}/api/health`,
        schedules: ["30S"],
        items: [
          { name: "status", description: "HTTP status of /api/health", execStatement: "status" },
          { name: "latency", description: "Response time of /api/health (ms)", execStatement: "latency" },
        ],
      },
    ],
    BY,
  );
  return { TIDEMARK_AGENT_TOKEN: token, TIDEMARK_AGENT_STATE_DIR: path.join(opts.dataDir, "agent") };
}
