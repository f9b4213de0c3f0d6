import { readFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "@tidemark/db/client";
import { ensureSeries, insertPoints } from "@tidemark/db/metrics";
import type { Role } from "@tidemark/db/organizations";
import { testDatabase, testPrisma } from "@tidemark/db/testing";
import type { ThresholdPolicy } from "@tidemark/thresholds";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInMember } from "./signed-in.ts";

const SHARED = path.join(import.meta.dirname, "..", "..", "..", "..", "shared", "bischeck");
const MINUTE = 60_000;
let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

const callerFor = (role: Role) => signedInMember(db, role);

function constantPolicy(value: number, calcMethod: "<" | ">" = "<"): ThresholdPolicy {
  return {
    periods: [
      {
        months: [],
        weeks: [],
        calcMethod,
        warning: 10,
        critical: 30,
        hours: { entries: Array.from({ length: 24 }, () => ({ kind: "constant", value }) as const), levels: Array(24).fill(null) },
      },
    ],
    holidays: [],
    nullState: "UNKNOWN",
    // Bischeck's ServiceState: hard on the third problem result in a row.
    maxSoft: 2,
    timeZone: "UTC",
  };
}

const service = { name: "http", description: "", schedules: ["1M"], url: "https://example.test/", sendServiceData: true };
const itemFields = (name: string) => ({
  name,
  description: "",
  execStatement: "check_http",
  thresholdClass: null,
  serviceItemClass: null,
  cacheMaxCount: null,
});

describe("configuration editing", () => {
  it("creates, renames (moving the history), clones and deletes, with an audit entry for each change", async () => {
    const { caller, organization } = await callerFor("editor");
    const host = await caller.config.hosts.create({ name: "web01", alias: null, description: "" });
    const svc = await caller.config.services.create({ hostId: host.id, fields: service });
    const item = await caller.config.items.create({ serviceId: svc.id, fields: itemFields("latency"), policy: constantPolicy(100) });
    const ids = await ensureSeries(db, organization.id, ["web01-http-latency"]);
    await insertPoints(db, [{ seriesId: ids.get("web01-http-latency") as number, ts: new Date(Date.UTC(2026, 0, 5)), value: 1 }]);

    await caller.config.hosts.update({ id: host.id, fields: { name: "web02", alias: "w2", description: "renamed" } });
    const renamed = await caller.thresholds.item({ id: item.id });
    expect(renamed.seriesKey).toBe("web02-http-latency");
    expect(renamed.seriesId).toBe(ids.get("web01-http-latency"));

    const clone = await caller.config.hosts.clone({ id: host.id, name: "web03" });
    const cloneItems = await caller.config.items.list({ hostId: clone.id, sort: "asc", limit: 10 });
    expect(cloneItems.rows.map((r) => r.seriesKey)).toEqual(["web03-http-latency"]);
    const cloned = await caller.thresholds.item({ id: cloneItems.rows[0]!.id });
    expect(cloned.policy).toEqual(renamed.policy);
    expect(cloned.policyId).not.toBe(renamed.policyId);

    await caller.config.hosts.delete({ id: clone.id });
    await expect(caller.config.hosts.get({ id: clone.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const actions = await testPrisma(db).auditEntry.findMany({ where: { organizationId: organization.id }, orderBy: { id: "asc" } });
    expect(actions.map((a) => a.action)).toEqual([
      "host.create",
      "service.create",
      "item.create",
      "host.update",
      "host.clone",
      "host.delete",
    ]);
    expect(actions[3]).toMatchObject({ before: { name: "web01" }, after: { name: "web02", alias: "w2" } });
  });

  it("refuses taken names, viewers, other organisations' rows and invalid fields", async () => {
    const a = await callerFor("editor");
    const b = await callerFor("editor");
    const viewer = await callerFor("viewer");
    const host = await a.caller.config.hosts.create({ name: "db01", alias: null, description: "" });
    await expect(a.caller.config.hosts.create({ name: "db01", alias: null, description: "" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(viewer.caller.config.hosts.create({ name: "x", alias: null, description: "" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(b.caller.config.hosts.get({ id: host.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(b.caller.config.hosts.delete({ id: host.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(a.caller.config.hosts.create({ name: "has space", alias: null, description: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(a.caller.config.services.create({ hostId: host.id, fields: { ...service, url: "ftp://x" } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect((await b.caller.config.hosts.list({ limit: 10 })).rows).toEqual([]);
  });

  it("pages items by keyset in both directions, with filters", async () => {
    const { caller } = await callerFor("editor");
    const host = await caller.config.hosts.create({ name: "h", alias: null, description: "" });
    const svc = await caller.config.services.create({ hostId: host.id, fields: service });
    for (const name of ["a", "b", "c", "d", "e"]) {
      await caller.config.items.create({ serviceId: svc.id, fields: itemFields(name), policy: name === "c" ? constantPolicy(1) : null });
    }
    const first = await caller.config.items.list({ sort: "asc", limit: 2 });
    const second = await caller.config.items.list({ sort: "asc", limit: 2, after: first.next });
    const third = await caller.config.items.list({ sort: "asc", limit: 2, after: second.next });
    expect([...first.rows, ...second.rows, ...third.rows].map((r) => r.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(third.next).toBeNull();
    const desc = await caller.config.items.list({ sort: "desc", limit: 3 });
    expect(desc.rows.map((r) => r.name)).toEqual(["e", "d", "c"]);
    expect((await caller.config.items.list({ sort: "desc", limit: 3, after: desc.next })).rows.map((r) => r.name)).toEqual(["b", "a"]);
    expect((await caller.config.items.list({ sort: "asc", limit: 10, policy: "with" })).rows.map((r) => r.name)).toEqual(["c"]);
    expect((await caller.config.items.list({ sort: "asc", limit: 10, runner: "shell" })).rows).toEqual([]);
    expect(await caller.config.seriesKeys({ prefix: "h-http-", limit: 2 })).toEqual(["h-http-a", "h-http-b"]);
    // Expressions' references: configured items are known, anything else is flagged.
    expect(await caller.config.unknownSeries({ keys: ["h-http-a", "h-http-zz", "h-http-e", "h-http-zz", "nowhere"] })).toEqual([
      "h-http-zz",
      "nowhere",
    ]);
  });

  it("saves a policy with a revision check and applies a template to many items", async () => {
    const { caller } = await callerFor("editor");
    const host = await caller.config.hosts.create({ name: "h", alias: null, description: "" });
    const svc = await caller.config.services.create({ hostId: host.id, fields: service });
    const item = await caller.config.items.create({ serviceId: svc.id, fields: itemFields("i"), policy: null });
    const other = await caller.config.items.create({ serviceId: svc.id, fields: itemFields("j"), policy: constantPolicy(5) });

    const first = await caller.thresholds.save({ itemId: item.id, policy: constantPolicy(10), revision: null });
    expect(first.revision).toBe(1);
    const withHolidays = { ...constantPolicy(20), holidays: [{ year: 2026, days: ["0101", "1225"] }], timeZone: "Europe/Stockholm" };
    expect((await caller.thresholds.save({ itemId: item.id, policy: withHolidays, revision: 1 })).revision).toBe(2);
    expect((await caller.thresholds.item({ id: item.id })).policy).toEqual(withHolidays);
    await expect(caller.thresholds.save({ itemId: item.id, policy: constantPolicy(30), revision: 1 })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(
      caller.thresholds.save({ itemId: item.id, policy: { ...constantPolicy(30), timeZone: "Mars/Olympus" }, revision: 2 }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });

    const applied = await caller.config.items.applyTemplate({ name: "shared", policy: constantPolicy(42), itemIds: [item.id, other.id] });
    expect(applied.items).toBe(2);
    const [a, b] = await Promise.all([caller.thresholds.item({ id: item.id }), caller.thresholds.item({ id: other.id })]);
    expect(a.policyId).toBe(b.policyId);
    expect(a).toMatchObject({ policyName: "shared", sharedWith: 1 });
    expect(a.policy?.periods[0]?.hours.entries[0]).toEqual({ kind: "constant", value: 42 });
  });
});

describe("preview and suggestions", () => {
  async function itemWithHistory(values: (ts: number) => number, policy: ThresholdPolicy, to: number) {
    const ctx = await callerFor("editor");
    const host = await ctx.caller.config.hosts.create({ name: "h", alias: null, description: "" });
    const svc = await ctx.caller.config.services.create({ hostId: host.id, fields: service });
    const item = await ctx.caller.config.items.create({ serviceId: svc.id, fields: itemFields("i"), policy });
    const ref = await ctx.caller.config.items.create({ serviceId: svc.id, fields: itemFields("ref"), policy: null });
    const ids = await ensureSeries(db, ctx.organization.id, ["h-http-i", "h-http-ref"]);
    const points = [];
    for (let ts = to - 3 * 86_400_000; ts < to; ts += MINUTE) {
      points.push({ seriesId: ids.get("h-http-i") as number, ts: new Date(ts), value: values(ts) });
      points.push({ seriesId: ids.get("h-http-ref") as number, ts: new Date(ts), value: 50 });
    }
    await insertPoints(db, points);
    return { ...ctx, item, ref };
  }

  const to = Date.UTC(2026, 2, 4, 12, 0);
  const spike = (ts: number) => (ts >= to - 6 * 3_600_000 && ts < to - 5 * 3_600_000 ? 200 : 90);

  it("backtests the saved policy, a draft and the deployed version over the same history", async () => {
    const { caller, item, organization } = await itemWithHistory(spike, constantPolicy(100), to);
    const window = { itemId: item.id, from: new Date(to - 86_400_000), to: new Date(to) };
    const saved = await caller.preview.run({ ...window, draft: null });
    expect(saved.resolution).toBe("raw");
    expect(saved.draft?.summary).toMatchObject({ alerts: 1, criticalAlerts: 1, criticalMinutes: 58 });
    expect(saved.draft?.spans).toEqual([{ from: to - 6 * 3_600_000 + 2 * MINUTE, to: to - 5 * 3_600_000, state: "CRITICAL" }]);
    expect(saved.deployed).toEqual({ status: "not-deployed" });
    expect(saved.points.some((p) => p.max === 200)).toBe(true);
    expect(saved.points.every((p) => p.threshold === 100 && p.deployedThreshold === null)).toBe(true);

    const quiet = await caller.preview.run({ ...window, draft: constantPolicy(300) });
    expect(quiet.draft?.summary.alerts).toBe(0);

    await testPrisma(db).deployment.create({
      data: {
        organizationId: organization.id,
        version: 1,
        configHash: "x",
        snapshot: {
          configuration: {
            hosts: [
              {
                name: "h",
                alias: null,
                description: "",
                services: [{ ...service, items: [{ ...itemFields("i"), policy: constantPolicy(80) }] }],
              },
            ],
          },
          assignments: [],
        },
      },
    });
    const compared = await caller.preview.run({ ...window, draft: constantPolicy(300) });
    expect(compared.deployed).toMatchObject({ status: "deployed", version: 1 });
    expect(compared.points.every((p) => p.threshold === 300 && p.deployedThreshold === 80)).toBe(true);
    expect(compared.deployed.status === "deployed" && compared.deployed.outcome?.summary.warningMinutes).toBeGreaterThan(1000);
  });

  it("evaluates expression hours against referenced series fetched over the reach of their offsets", async () => {
    const expr: ThresholdPolicy = {
      ...constantPolicy(0),
      periods: [
        {
          ...constantPolicy(0).periods[0]!,
          hours: {
            entries: Array(24).fill({ kind: "expression", source: "$$HOSTNAME$$-http-ref[-30H] * 2" }),
            levels: Array(24).fill(null),
          },
        },
      ],
    };
    const { caller, item } = await itemWithHistory(spike, expr, to);
    const result = await caller.preview.run({ itemId: item.id, from: new Date(to - 86_400_000), to: new Date(to), draft: null });
    expect(result.draft?.errors).toEqual([]);
    expect(result.points.every((p) => p.threshold === 100)).toBe(true);
    expect(result.draft?.summary.alerts).toBe(1);

    const unknown = {
      ...expr,
      periods: [
        {
          ...expr.periods[0]!,
          hours: { ...expr.periods[0]!.hours, entries: Array(24).fill({ kind: "expression", source: "nosuch-http-x[0]" }) },
        },
      ],
    };
    const broken = await caller.preview.run({ itemId: item.id, from: new Date(to - 86_400_000), to: new Date(to), draft: unknown });
    expect(broken.draft?.errors).toEqual(["unknown series 'nosuch-http-x'"]);
    expect(broken.draft?.summary.withoutThreshold).toBe(broken.draft?.summary.results);
  });

  it("suggests hour values from the 5-minute and hourly aggregates, with the alerts a week expected on later history", async () => {
    const now = Date.now();
    const hourly = (ts: number) => 100 + new Date(ts).getUTCHours() * 10;
    const { caller, item } = await itemWithHistory(hourly, constantPolicy(100), Math.floor(now / 3_600_000) * 3_600_000);
    const suggestion = await caller.thresholds.suggest({
      itemId: item.id,
      policy: constantPolicy(100),
      periodIndex: 0,
      percentile: 95,
      alertsPerWeek: 1,
      weeks: 1,
    });
    expect(suggestion.buckets).toBeGreaterThanOrEqual(71);
    expect(suggestion.seasonality).toBe("hour-of-day");
    expect(suggestion.history.weeks).toBeCloseTo(3 / 7, 2);
    expect(suggestion.expected.basis).toBe("later-part");
    expect(suggestion.bounds).toMatchObject({ min: 0, source: "detected" });
    // Each hour's warning line (T + 10 %) clears that hour's value; the numbers are ones a person writes.
    suggestion.hours.forEach((t, h) => {
      expect(t).not.toBeNull();
      expect((t as number) * 1.1).toBeGreaterThanOrEqual(100 + h * 10);
      expect(String(t)).toMatch(/^\d+(\.\d)?$/);
    });

    const declared = await caller.thresholds.suggest({
      itemId: item.id,
      policy: constantPolicy(100),
      periodIndex: 0,
      bounds: { min: 0, max: 200 },
      maxSoft: 3,
    });
    expect(declared.bounds).toEqual({ min: 0, max: 200, source: "declared" });
    expect(declared.maxSoft).toBe(3);
    for (const t of declared.hours) expect((t as number) * 1.1).toBeLessThan(200);
    await expect(
      caller.thresholds.suggest({ itemId: item.id, policy: constantPolicy(100), periodIndex: 0, bounds: { min: 100, max: 0 } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("keeps bounds declared on the item, refuses an empty range with a 400, and suggests within them", async () => {
    const now = Date.now();
    const { caller, item, organization } = await itemWithHistory(
      (ts) => 40 + new Date(ts).getUTCHours(),
      constantPolicy(100),
      Math.floor(now / 3_600_000) * 3_600_000,
    );
    expect(await caller.thresholds.valueBounds({ itemId: item.id })).toEqual({ min: null, max: null });
    const request = { itemId: item.id, policy: constantPolicy(100), periodIndex: 0, weeks: 1 };
    expect((await caller.thresholds.suggest(request)).bounds.source).toBe("detected");

    await expect(caller.thresholds.setValueBounds({ itemId: item.id, bounds: { min: 50, max: 50 } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("the lower bound must be below the upper bound"),
    });
    await expect(caller.thresholds.setValueBounds({ itemId: crypto.randomUUID(), bounds: { min: 0, max: 1 } })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await caller.thresholds.valueBounds({ itemId: item.id })).toEqual({ min: null, max: null });

    await caller.thresholds.setValueBounds({ itemId: item.id, bounds: { min: 0, max: 70 } });
    expect(await caller.thresholds.valueBounds({ itemId: item.id })).toEqual({ min: 0, max: 70 });
    const declared = await caller.thresholds.suggest(request);
    expect(declared.bounds).toEqual({ min: 0, max: 70, source: "declared" });
    declared.hours.forEach((t, h) => {
      const levels = declared.levels[h] ?? { warning: 10, critical: 30 };
      expect((t as number) * (1 + levels.critical / 100)).toBeLessThan(70);
    });
    // A request's own bounds still win over the item's.
    expect((await caller.thresholds.suggest({ ...request, bounds: { min: null, max: null } })).bounds.source).toBe("declared");
    expect((await caller.thresholds.suggest({ ...request, bounds: { min: 0, max: 1000 } })).bounds.max).toBe(1000);

    const audit = await testPrisma(db).auditEntry.findMany({ where: { organizationId: organization.id, action: "item.valueBounds" } });
    expect(audit.map((a) => a.after)).toEqual([{ min: 0, max: 70 }]);
    await caller.thresholds.setValueBounds({ itemId: item.id, bounds: { min: null, max: null } });
    expect((await caller.thresholds.suggest(request)).bounds.source).toBe("detected");
  });
});

describe("Bischeck import and export", () => {
  const files = {
    bischeckXml: readFileSync(path.join(SHARED, "bischeck.xml"), "utf8"),
    thresholdsXml: readFileSync(path.join(SHARED, "24thresholds.xml"), "utf8"),
  };

  it("previews, imports all or nothing, and exports what was imported", async () => {
    const { caller, organization } = await callerFor("editor");
    const preview = await caller.bischeck.previewImport(files);
    if (!preview.ok) throw new Error("the example files should import");
    expect(preview.counts.hosts).toBe(1);
    expect(preview.existingHosts).toEqual([]);
    expect((await caller.config.hosts.list({ limit: 10 })).rows).toEqual([]);

    const summary = await caller.bischeck.commitImport(files);
    expect(summary).toEqual({ ...preview.counts, existingHosts: 0 });
    await expect(caller.bischeck.commitImport(files)).rejects.toMatchObject({ code: "CONFLICT" });
    const again = await caller.bischeck.previewImport(files);
    expect(again).toMatchObject({ existingHosts: ["localhost"], existingServices: ["localhost-sshport"] });
    const audit = await testPrisma(db).auditEntry.findMany({ where: { organizationId: organization.id, action: "configuration.import" } });
    expect(audit).toHaveLength(1);

    const exported = await caller.bischeck.export();
    expect(exported.counts).toEqual({
      hosts: 1,
      services: preview.counts.services,
      items: preview.counts.items,
      policies: preview.counts.policies,
    });
    expect(exported.bischeckXml).toContain("<name>localhost</name>");
  });

  it("50 000-deep XML is a positioned problem in the preview and a 400 on commit, never a 500", async () => {
    const { caller } = await callerFor("editor");
    const deep = { bischeckXml: `<bischeck>\n${"<host>".repeat(50_000)}${"</host>".repeat(50_000)}</bischeck>` };
    const preview = await caller.bischeck.previewImport(deep);
    expect(preview).toMatchObject({
      ok: false,
      issues: [{ file: "bischeck.xml", line: 2, message: expect.stringMatching(/deeper than 100/) }],
    });
    await expect(caller.bischeck.commitImport(deep)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("previews which services are kept, mapped to another check or kept disabled, and the files not read", async () => {
    const { caller } = await callerFor("editor");
    const bischeckXml = files.bischeckXml.replace(
      "</host>",
      "<service><name>live</name><schedule>5M</schedule><url>livestatus://m:6557</url><serviceitem><name>i</name><execstatement>GET hosts</execstatement></serviceitem></service></host>",
    );
    const preview = await caller.bischeck.previewImport({ bischeckXml, otherFiles: ["servers.xml"] });
    if (!preview.ok) throw new Error("should import");
    expect(preview.fates).toEqual({ kept: 1, mapped: 0, disabled: 1 });
    expect(preview.changedServices).toEqual([
      { host: "localhost", service: "live", url: "livestatus://m:6557", fate: "disabled", from: null },
    ]);
    expect(preview.notes).toEqual([expect.stringMatching(/^servers\.xml/)]);
  });

  it("adds the imported services to a host that exists, and changes nothing when one of them exists", async () => {
    const { caller } = await callerFor("editor");
    const host = await caller.config.hosts.create({ name: "localhost", alias: null, description: "kept" });
    await caller.config.services.create({ hostId: host.id, fields: { ...service, name: "tidemark" } });
    const summary = await caller.bischeck.commitImport(files);
    expect(summary).toMatchObject({ hosts: 0, existingHosts: 1, services: 1 });
    const services = await caller.config.services.list({ hostId: host.id, limit: 10 });
    expect(services.rows.map((s) => s.name)).toEqual(["sshport", "tidemark"]);
    expect((await caller.config.hosts.get({ id: host.id })).description).toBe("kept");

    const other = await callerFor("editor");
    const taken = await other.caller.config.hosts.create({ name: "localhost", alias: null, description: "" });
    await other.caller.config.services.create({ hostId: taken.id, fields: { ...service, name: "sshport" } });
    await expect(other.caller.bischeck.commitImport(files)).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await other.caller.config.items.list({ sort: "asc", limit: 10 })).rows).toEqual([]);
  });

  it("reports every problem with its position and imports nothing", async () => {
    const { caller } = await callerFor("editor");
    const result = await caller.bischeck.previewImport({ bischeckXml: "<bischeck>\n  <host><name>x</name><bogus/></host>\n</bischeck>" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]).toMatchObject({ file: "bischeck.xml", line: 2 });
    await expect(caller.bischeck.commitImport({ bischeckXml: "<bischeck><bogus/></bischeck>" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
