import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { issueToken } from "@tidemark/auth";
import type { Database } from "@tidemark/db/client";
import { hostIdsByPrefix } from "@tidemark/db/configuration";
import { agentExists, assignServices, deployDraft, deploymentChange, provisionAgent } from "@tidemark/db/fleet";
import { findOrganizationBySlug, oldestMember, systemActor } from "@tidemark/db/organizations";

/**
 * `npm start`'s demo agents: two agents of the demo organisation that take over its synthetic
 * hosts and keep producing their values through the real agent protocol (config long-poll,
 * status report, ingest) while Tidemark runs — see scripts/demo-fleet.ts. Like the local agent,
 * their token secrets live only in <dataDir>/demo-agents/ (mode 0600); a revoked one stays revoked.
 */
export const DEMO_AGENTS = [
  { name: "demo-east", hostPrefixes: ["web", "api"] },
  { name: "demo-west", hostPrefixes: ["db", "cache", "queue"] },
] as const;

export interface DemoAgentToken {
  name: string;
  token: string;
}

function tokenOf(dir: string, name: string): string {
  const file = path.join(dir, `${name}-token`);
  if (!existsSync(file)) writeFileSync(file, `${issueToken("tm_agent").secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return readFileSync(file, "utf8").trim();
}

/**
 * Makes the demo agents exist (first start: assigns them the demo hosts and deploys that), and
 * returns the tokens of those not revoked. Null when there is no demo organisation.
 */
export async function provisionDemoFleet(
  db: Database,
  opts: { dataDir: string; organizationSlug: string },
): Promise<DemoAgentToken[] | null> {
  const organization = await findOrganizationBySlug(db, opts.organizationSlug);
  if (!organization) return null;
  const owner = await oldestMember(db, organization.id, { roles: ["admin"] });
  // What npm start does here is the system's doing, not the owner's.
  const by = "npm start (the demo agents)";
  const system = systemActor(organization.id, by);
  const dir = path.join(opts.dataDir, "demo-agents");
  mkdirSync(dir, { recursive: true });
  const tokens: DemoAgentToken[] = [];
  let assigned = 0;
  for (const agent of DEMO_AGENTS) {
    const existed = await agentExists(db, organization.id, agent.name);
    const token = tokenOf(dir, agent.name);
    const agentId = await provisionAgent(db, organization.id, agent.name, token, by);
    if (agentId === null) continue;
    tokens.push({ name: agent.name, token });
    // Only when the agent is new: what people reassigned since is theirs.
    if (existed || !owner) continue;
    for (const hostId of await hostIdsByPrefix(db, organization.id, agent.hostPrefixes)) {
      assigned += (await assignServices(db, system, agentId, { hostId })).assigned;
    }
  }
  if (assigned > 0) {
    const message = "the demo agents take over the demo hosts";
    await deployDraft(
      db,
      { organizationId: organization.id, createdBy: owner?.userId ?? null, message },
      { actor: system, describe: deploymentChange({ message, rollbackOf: null }) },
    );
  }
  return tokens;
}
