import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "@tidemark/db/client";
import { ensureAgentChecks } from "@tidemark/db/fleet";
import { queryRows, testDatabase, testPrisma } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentProcess, LoopbackServer, signedInCaller, waitFor } from "./harness.ts";
import { PLUGINS, requireMonitoringPlugins } from "./plugins.ts";

let db: Database;
let server: LoopbackServer;
const stateDirs: string[] = [];
const agents: AgentProcess[] = [];

beforeAll(async () => {
  requireMonitoringPlugins();
  db = await testDatabase();
  server = new LoopbackServer(db);
  await server.start();
});
afterAll(async () => {
  for (const a of agents) await a.stop();
  await server.stop();
  await db.close();
  for (const d of stateDirs) rmSync(d, { recursive: true, force: true });
});

async function setUp(agentName: string) {
  const { organization, caller } = await signedInCaller(db);
  const { agent, token } = await caller.agents.create({ name: agentName });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-agent-it-"));
  stateDirs.push(stateDir);
  const process = new AgentProcess({ TIDEMARK_URL: server.url, TIDEMARK_AGENT_TOKEN: token, TIDEMARK_AGENT_STATE_DIR: stateDir });
  agents.push(process);
  return { organization, caller, agent, process };
}

const tcpCheck = (port: number) => ({
  name: "tcp",
  description: "",
  execStatement: `{"check":"${PLUGINS}/check_tcp -H 127.0.0.1 -p ${port}","label":"time"}`,
});
const dummyCheck = { name: "dummy", description: "", execStatement: `${PLUGINS}/check_dummy 1 "a warning"` };

async function pointsOf(organizationId: string, key: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM metric_points p JOIN series s ON s.id = p.series_id WHERE s.organization_id = $1 AND s.key = $2`,
    [organizationId, key],
  );
  return rows[0]?.n ?? 0;
}

describe("deploying to real agent processes on loopback", () => {
  it("deploys, changes and rolls back; the agent applies each without restarting", async () => {
    const { organization, caller, agent, process } = await setUp("edge");
    await ensureAgentChecks(
      db,
      organization.id,
      agent.id,
      "localhost",
      [{ name: "net", url: "shell://localhost", schedules: ["1S"], items: [tcpCheck(server.port)] }],
      "test",
    );

    const preview = await caller.deploy.preview();
    expect(preview.agents).toHaveLength(1);
    expect(preview.agents[0]).toMatchObject({
      name: "edge",
      affected: true,
      checks: 1,
      diff: { changes: [{ id: "localhost-net", change: "added" }], unchanged: 0 },
    });

    await process.start();
    const v1 = await caller.deploy.deploy({ message: "first" });
    expect(v1).toMatchObject({ version: 1, targets: 1 });
    await waitFor("v1 applied", async () => (await caller.deploy.progress({ version: 1 })).done);
    expect((await caller.deploy.progress({ version: 1 })).targets[0]).toMatchObject({
      agent: "edge",
      state: { kind: "applied" },
      attempts: 1,
    });
    const v1Hash = (await process.health()).configHash;
    await waitFor("check_tcp results stored", async () => (await pointsOf(organization.id, "localhost-net-tcp")) >= 2);

    // Change: one more item, and a second service that runs after the first.
    await ensureAgentChecks(
      db,
      organization.id,
      agent.id,
      "localhost",
      [
        { name: "net", url: "shell://localhost", schedules: ["1S"], items: [tcpCheck(server.port), dummyCheck] },
        { name: "chained", url: "shell://localhost", schedules: ["after:localhost-net"], items: [{ ...dummyCheck, name: "after" }] },
      ],
      "test",
    );
    const changed = await caller.deploy.preview();
    expect(changed.agents[0]?.diff.changes).toMatchObject([
      { id: "localhost-chained", change: "added" },
      {
        id: "localhost-net",
        change: "changed",
        fields: [],
        items: [{ name: "dummy", change: "added", fields: [{ field: "command", before: null }, { field: "series" }] }],
      },
    ]);
    expect((await caller.deploy.deploy({ message: "more" })).version).toBe(2);
    await waitFor("v2 applied", async () => (await process.health()).configVersion === 2);
    expect((await process.health()).checks).toBe(2);
    await waitFor("the after: chain ran", async () => (await pointsOf(organization.id, "localhost-chained-after")) >= 1);

    // Roll back to version 1: a new version 3 with version 1's snapshot, and the agent runs v1's checks again.
    const rolledBack = await caller.deploy.rollback({ version: 1 });
    expect(rolledBack).toMatchObject({ version: 3, targets: 1 });
    await waitFor("v3 applied", async () => (await process.health()).configVersion === 3);
    const health = await process.health();
    expect(health.checks).toBe(1);
    expect(health.configHash).toBe(v1Hash);
    const list = await caller.deploy.list();
    expect(list.map((d) => [d.version, d.rollbackOf, d.counts.applied])).toEqual([
      [3, 1, 1],
      [2, null, 1],
      [1, null, 1],
    ]);
    const audit = await testPrisma(db).auditEntry.findMany({
      where: { organizationId: organization.id, targetType: "deployment" },
      orderBy: { createdAt: "asc" },
    });
    // Each version by the editor, then applied by the agent (its report, recorded as the agent's).
    expect(audit.map((a) => [a.action, a.actorKind])).toEqual([
      ["deployment.create", "user"],
      ["deployment.applied", "agent"],
      ["deployment.create", "user"],
      ["deployment.applied", "agent"],
      ["deployment.rollback", "user"],
      ["deployment.applied", "agent"],
    ]);
    // The editable configuration still is version 2's: deploying it again reaches the agent; then nothing is left to deploy.
    expect((await caller.deploy.deploy({ message: "forward again" })).targets).toBe(1);
    await waitFor("v4 applied", async () => (await process.health()).configVersion === 4);
    expect((await caller.deploy.deploy({ message: "no change" })).targets).toBe(0);
    const metrics = await process.metrics();
    expect(metrics).toMatch(/tidemark_agent_config_applies_total\{outcome="applied"\} 4/);
    expect(await process.stop()).toBe(0);
  });

  it("delivers a deployment made while the agent was down when it starts, and reports a failed one with its reason", async () => {
    const { organization, caller, agent, process } = await setUp("late");
    const runDummy = (schedule: string) =>
      ensureAgentChecks(
        db,
        organization.id,
        agent.id,
        "localhost",
        [{ name: "dummy", url: "shell://localhost", schedules: [schedule], items: [dummyCheck] }],
        "test",
      );
    await runDummy("1S");
    await caller.deploy.deploy({ message: "while down" });
    // The agent never connected yet: the page says so, and the version completes when it starts.
    expect((await caller.deploy.progress({ version: 1 })).targets[0]?.state).toEqual({ kind: "never-connected" });
    await process.start();
    await waitFor("applied after start", async () => (await caller.deploy.progress({ version: 1 })).done);

    // A bad schedule does not get as far as the agent: the deploy refuses it, saying where.
    await runDummy("0 0 25 ? * MON");
    await expect(caller.deploy.deploy({ message: "broken schedule" })).rejects.toThrow(/hours must be 0–23, not 25 \(at character 5\)/);
    // What only the agent can know (a run-after naming no check of its own) it refuses, with its reason.
    await runDummy("after:elsewhere-svc");
    await caller.deploy.deploy({ message: "follows a service the agent does not run" });
    const failed = await waitFor("v2 failed", async () => {
      const target = (await caller.deploy.progress({ version: 2 })).targets[0];
      return target?.state.kind === "failed" ? target.state : null;
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\nagent log:\n${process.log}`);
    });
    expect(failed.error).toMatch(/after:elsewhere-svc names no check of this agent/);
    expect((await process.health()).configVersion).toBe(1);
    // The agent's reports changed the deployments' state: the audit log says the agent did.
    const reports = await testPrisma(db).auditEntry.findMany({
      where: { organizationId: organization.id, action: { in: ["deployment.applied", "deployment.failed"] } },
      orderBy: { id: "asc" },
    });
    expect(reports.map((e) => [e.action, e.actorKind, e.actorName, (e.after as { version: number }).version])).toEqual([
      ["deployment.applied", "agent", "late", 1],
      ["deployment.failed", "agent", "late", 2],
    ]);
    await process.stop();
  });

  it("loses no result while the server is down: the agent spools and resends in order", async () => {
    const { organization, agent, caller, process } = await setUp("spooler");
    await ensureAgentChecks(
      db,
      organization.id,
      agent.id,
      "localhost",
      [
        {
          name: "dummy",
          url: "shell://localhost",
          schedules: ["1S"],
          items: [{ ...dummyCheck, execStatement: `${PLUGINS}/check_dummy 0` }],
        },
      ],
      "test",
    );
    await caller.deploy.deploy({});
    await process.start();
    await waitFor("first results", async () => (await process.health()).results.sent >= 2);

    await server.stop();
    await waitFor("results spooled", async () => (await process.health()).spool.batches >= 3, 20_000);
    await server.start();
    await waitFor("spool drained", async () => (await process.health()).spool.batches === 0, 30_000);

    expect(await process.stop()).toBe(0);
    // Stopped cleanly with the server up: everything it measured was acknowledged, once each.
    const totals = JSON.parse(/\{[^\n]*"msg":"stopped"[^\n]*\}/.exec(process.log)?.[0] ?? "{}") as {
      results?: { sent: number; spooled: number; rejected: number; dropped: number };
      spool?: { batches: number };
    };
    expect(totals.results?.spooled).toBeGreaterThan(0);
    expect(totals.results).toMatchObject({ rejected: 0, dropped: 0 });
    expect(totals.spool?.batches).toBe(0);
    expect(await pointsOf(organization.id, "localhost-dummy-dummy")).toBe(totals.results?.sent);
  });
});
