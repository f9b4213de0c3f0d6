import type { Database } from "@tidemark/db/client";
import { constantPolicy, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInMember } from "./signed-in.ts";
import { itemFields, miniBischeckXml, serviceFields } from "./tenant-fixtures.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

async function fleet() {
  const { caller } = await signedInMember(db, "admin");
  const web = await caller.config.hosts.create({ name: "web01", alias: null, description: "" });
  const db1 = await caller.config.hosts.create({ name: "db01", alias: null, description: "" });
  const services = {
    ping: await caller.config.services.create({ hostId: web.id, fields: serviceFields("ping") }),
    http: await caller.config.services.create({ hostId: web.id, fields: { ...serviceFields("http"), url: "https://web01/health" } }),
    calc: await caller.config.services.create({ hostId: web.id, fields: { ...serviceFields("calc"), url: "bischeck://cache" } }),
    pg: await caller.config.services.create({ hostId: db1.id, fields: { ...serviceFields("pg"), url: "postgres://db01/postgres" } }),
  };
  const item = await caller.config.items.create({ serviceId: services.ping.id, fields: itemFields("rtt"), policy: constantPolicy(20) });
  const { agent: edge } = await caller.agents.create({ name: "edge" });
  const { agent: core } = await caller.agents.create({ name: "core" });
  return { caller, web, db1, services, item, edge, core };
}

const runsOn = async (caller: Awaited<ReturnType<typeof fleet>>["caller"]) =>
  Object.fromEntries(
    (await caller.config.services.list({})).rows.map((r) => [`${r.host}-${r.name}`, r.runsNowhere ? "nowhere" : (r.agent ?? "server")]),
  );

describe("assigning services to agents", () => {
  it("assigns selected rows, every row matching a search and every service of a host; calculations stay on the server", async () => {
    const { caller, web, services, edge, core } = await fleet();
    expect(await runsOn(caller)).toEqual({
      "db01-pg": "nowhere",
      "web01-calc": "server",
      "web01-http": "nowhere",
      "web01-ping": "nowhere",
    });
    expect((await caller.deploy.preview()).runningNowhere).toHaveLength(3);

    expect(await caller.config.services.assign({ agentId: edge.id, target: { serviceIds: [services.ping.id, services.calc.id] } })).toEqual(
      {
        assigned: 1,
        calculations: 1,
      },
    );
    expect(await caller.config.services.assign({ agentId: core.id, target: { search: "db01" } })).toEqual({ assigned: 1, calculations: 0 });
    expect(await runsOn(caller)).toEqual({ "db01-pg": "core", "web01-calc": "server", "web01-http": "nowhere", "web01-ping": "edge" });
    await caller.config.services.assign({ agentId: edge.id, target: { hostId: web.id } });
    expect(await runsOn(caller)).toEqual({ "db01-pg": "core", "web01-calc": "server", "web01-http": "edge", "web01-ping": "edge" });
    expect((await caller.agents.get({ id: edge.id })).services.map((s) => `${s.host}-${s.service}`)).toEqual(["web01-http", "web01-ping"]);
    expect((await caller.deploy.preview()).runningNowhere).toEqual([]);

    // The service form sets (and clears) it too; a revoked agent runs nothing.
    await caller.config.services.update({
      id: services.http.id,
      fields: { ...serviceFields("http"), url: "https://web01/health" },
      agentId: null,
    });
    expect((await caller.config.services.get({ id: services.http.id })).agentId).toBeNull();
    await caller.agents.revoke({ id: core.id });
    expect((await runsOn(caller))["db01-pg"]).toBe("nowhere");
    await expect(caller.config.services.assign({ agentId: core.id, target: { search: "" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("deploying thresholds", () => {
  it("diffs the draft against the deployed version item by item, old → new, and says when the draft differs", async () => {
    const { caller, services, item, edge } = await fleet();
    await caller.config.services.assign({ agentId: edge.id, target: { serviceIds: [services.ping.id] } });
    expect(await caller.thresholds.deployment({ id: item.id })).toEqual({ status: "not-deployed" });
    const first = await caller.deploy.preview();
    expect(first).toMatchObject({ deployedVersion: null, differs: true });
    expect(first.evaluation.map((c) => [c.seriesKey, c.change])).toEqual([["web01-ping-rtt", "added"]]);
    expect(first.agents.find((a) => a.name === "edge")?.diff.changes.map((c) => [c.id, c.change])).toEqual([["web01-ping", "added"]]);
    await caller.deploy.deploy({ message: "v1" });
    expect(await caller.thresholds.deployment({ id: item.id })).toMatchObject({
      status: "deployed",
      version: 1,
      differs: false,
      changes: [],
    });

    const saved = await caller.thresholds.item({ id: item.id });
    await caller.thresholds.save({ itemId: item.id, policy: constantPolicy(25), revision: saved.policyRevision });
    expect(await caller.thresholds.deployment({ id: item.id })).toMatchObject({
      status: "deployed",
      version: 1,
      differs: true,
      changes: [{ field: "period 1 · hours 0–23", before: "20", after: "25" }],
    });
    const second = await caller.deploy.preview();
    expect(second).toMatchObject({ deployedVersion: 1, differs: true });
    expect(second.evaluation).toEqual([
      expect.objectContaining({
        seriesKey: "web01-ping-rtt",
        change: "changed",
        fields: [{ field: "period 1 · hours 0–23", before: "20", after: "25" }],
      }),
    ]);
    // Only thresholds changed: no agent's checks, so the version is sent to none, and the worker takes it.
    expect(second.agents.every((a) => !a.affected)).toBe(true);
    expect(await caller.deploy.deploy({ message: "v2" })).toMatchObject({ version: 2, targets: 0 });
    expect((await caller.deploy.preview()).differs).toBe(false);

    await caller.deploy.rollback({ version: 1 });
    const back = await caller.thresholds.deployment({ id: item.id });
    expect(back).toMatchObject({ version: 3, differs: true, changes: [{ before: "20", after: "25" }] });
  });
});

describe("Bischeck import", () => {
  it("assigns the imported hosts' services by the first matching host rule, shown in the preview", async () => {
    const { caller, edge } = await fleet();
    const files = { bischeckXml: miniBischeckXml("imported01"), agentRules: [{ hostPattern: "imported*", agentId: edge.id }] };
    const preview = await caller.bischeck.previewImport(files);
    if (!preview.ok) throw new Error("the mini bischeck.xml should import");
    const runsOnInPreview = preview.hosts.flatMap((h) => h.services.map((s) => s.runsOn));
    expect(runsOnInPreview.length).toBeGreaterThan(0);
    expect(runsOnInPreview.every((r) => r === "edge" || r === "server")).toBe(true);
    await caller.bischeck.commitImport(files);
    const imported = (await caller.config.services.list({ search: "imported01" })).rows;
    expect(imported.filter((s) => !s.url.startsWith("bischeck://")).every((s) => s.agent === "edge")).toBe(true);
    await expect(
      caller.bischeck.previewImport({ ...files, agentRules: [{ hostPattern: "*", agentId: crypto.randomUUID() }] }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
