import type { Service } from "@tidemark/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AgentPlan,
  configRetryDelayMs,
  type DeploymentSnapshot,
  DraftInvalidError,
  deploymentContents,
  draftSnapshot,
  MAX_CONFIG_RETRY_DELAY_MS,
  planDeployment,
  planStoredAgents,
  readSnapshot,
  rollbackMessage,
  SnapshotUnreadableError,
  type StoredAgentState,
  snapshotHash,
} from "../src/index.ts";
import { item } from "./fixtures.ts";

const service = (name: string, url: string, exec: string): Service => ({
  name,
  description: "",
  schedules: ["1M"],
  url,
  sendServiceData: true,
  items: [item("value", exec)],
});

function snapshotOf(tcpCheck: string, assignments: DeploymentSnapshot["assignments"]): DeploymentSnapshot {
  return {
    alerting: [],
    configuration: {
      hosts: [
        {
          name: "web01",
          alias: null,
          description: "",
          services: [service("tcp", "shell://localhost", tcpCheck), service("http", "https://web01/health", "status")],
        },
      ],
    },
    assignments,
  };
}

const NOW = Date.UTC(2026, 10, 24, 8, 0);
const onlyTcp = [{ host: "web01", service: "tcp", agentId: "a1" }];
const before = snapshotOf("check_tcp -p 80", onlyTcp);
const after = snapshotOf("check_tcp -p 443", onlyTcp);

const agent = (agentId: string, applied: DeploymentSnapshot | null, latestTargetHash: string | null): StoredAgentState => ({
  agentId,
  name: `agent-${agentId}`,
  lastSeenAt: new Date(NOW - 10_000),
  appliedVersion: applied ? 1 : null,
  appliedSnapshot: applied,
  latestTargetHash,
});

describe("draftSnapshot and readSnapshot", () => {
  it("takes a draft the model accepts, alert settings defaulted", () => {
    const { alerting: _, ...withoutAlerting } = before;
    expect(draftSnapshot(withoutAlerting)).toEqual(before);
  });

  it("refuses a draft the model does not accept, naming its first five problems", () => {
    const broken = { ...before, assignments: Array.from({ length: 7 }, () => ({ host: "", service: "", agentId: 1 })) };
    expect(() => draftSnapshot(broken)).toThrow(DraftInvalidError);
    const message = (() => {
      try {
        draftSnapshot(broken);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^the configuration cannot be deployed: assignments\.0\./);
    expect(message.split("; ")).toHaveLength(5);
  });

  it("says which stored version it cannot read", () => {
    expect(readSnapshot(before, "version 1")).toEqual(before);
    expect(() => readSnapshot({ hosts: [] }, "version 3")).toThrow(
      new SnapshotUnreadableError("version 3 holds a snapshot this server cannot read"),
    );
  });
});

describe("planDeployment", () => {
  const plans = (snapshot: DeploymentSnapshot, agents: StoredAgentState[]) => planStoredAgents(snapshot, agents, NOW);

  it("differs from nothing deployed, and from a deployed version with another hash only", () => {
    const agents = plans(after, [agent("a1", before, null)]);
    expect(planDeployment(after, null, agents)).toMatchObject({ deployedVersion: null, differs: true, configHash: snapshotHash(after) });
    const deployed = { version: 4, createdAt: new Date(NOW), snapshot: before };
    expect(planDeployment(after, deployed, agents)).toMatchObject({ deployedVersion: 4, differs: true });
    expect(planDeployment(before, deployed, agents)).toMatchObject({ deployedVersion: 4, differs: false, evaluation: [] });
  });

  it("shows each agent's checks against what it applied, and the agent-run services no active agent runs", () => {
    const plan = planDeployment(after, null, plans(after, [agent("a1", before, null)]));
    expect(plan.agents[0]?.diff.changes.map((c) => c.change)).toEqual(["changed"]);
    expect(plan.runningNowhere).toEqual([{ host: "web01", service: "http" }]);
    expect(planDeployment(after, null, []).runningNowhere).toEqual([
      { host: "web01", service: "tcp" },
      { host: "web01", service: "http" },
    ]);
  });

  it("refuses an agent's applied snapshot it cannot read", () => {
    expect(() => plans(after, [{ ...agent("a1", null, null), appliedVersion: 2, appliedSnapshot: { nonsense: true } }])).toThrow(
      SnapshotUnreadableError,
    );
  });
});

describe("deploymentContents", () => {
  it("targets only the agents whose last deployed rendering differs", () => {
    const first = planStoredAgents(before, [agent("a1", null, null), agent("a2", null, null)], NOW);
    const a1Hash = (first[0] as AgentPlan).renderedHash;
    const a2Hash = (first[1] as AgentPlan).renderedHash;
    expect(deploymentContents(before, first).targets.map((t) => t.agentId)).toEqual(["a1", "a2"]);
    // Both got `before`; `after` changes a1's check only (a2 runs nothing).
    const next = planStoredAgents(after, [agent("a1", before, a1Hash), agent("a2", before, a2Hash)], NOW);
    const contents = deploymentContents(after, next);
    expect(contents.targets).toEqual([{ agentId: "a1", name: "agent-a1", renderedHash: (next[0] as AgentPlan).renderedHash }]);
    expect(contents.configHash).toBe(snapshotHash(after));
    expect(contents.evaluated.map((i) => i.seriesKey)).toEqual(["web01-tcp-value", "web01-http-value"]);
    expect(deploymentContents(before, planStoredAgents(before, [agent("a1", before, a1Hash)], NOW)).targets).toEqual([]);
  });
});

describe("rollbacks and retries", () => {
  it("names the version rolled back to", () => {
    expect(rollbackMessage(7)).toBe("roll back to version 7");
  });

  it.each([
    { attempts: 0, ms: 5000 },
    { attempts: 1, ms: 5000 },
    { attempts: 2, ms: 10_000 },
    { attempts: 5, ms: 80_000 },
    { attempts: 8, ms: 600_000 },
    { attempts: 40, ms: 600_000 },
  ])("offers a failed configuration again after $ms ms at attempt $attempts", ({ attempts, ms }) => {
    expect(configRetryDelayMs(attempts)).toBe(ms);
  });

  it("never waits less after more attempts, nor longer than the cap", () => {
    fc.assert(
      fc.property(fc.nat(1000), (n) => {
        expect(configRetryDelayMs(n + 1)).toBeGreaterThanOrEqual(configRetryDelayMs(n));
        expect(configRetryDelayMs(n)).toBeLessThanOrEqual(MAX_CONFIG_RETRY_DELAY_MS);
      }),
    );
  });
});
