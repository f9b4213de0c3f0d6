import { MINUTE, script, T0 } from "@tidemark/alerts/testing";
import {
  AlertAlreadyAcknowledgedError,
  acknowledgeAlert,
  alertDetail,
  alertTimeline,
  applyEvaluations,
  createSilence,
  createWebhook,
  expireSilence,
  listDeliveries,
  listSilences,
  notificationContextOnce,
  type TimelineFilters,
  updateItemAlertSettings,
} from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { deployDraft } from "@tidemark/db/fleet";
import { ensureSeries } from "@tidemark/db/metrics";
import { createTestOrg, deleteWebhooksOf, evaluationRecords, testDatabase } from "@tidemark/db/testing";
import type { State } from "@tidemark/thresholds";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolOf, prismaOf } from "../src/database.ts";

let db: Database;
const organizations: string[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await deleteWebhooksOf(db, organizations);
  await db.close();
});

async function orgWithSeries(keys: string[]) {
  const { organization, user } = await createTestOrg(db, "editor");
  organizations.push(organization.id);
  const ids = await ensureSeries(db, organization.id, keys);
  return { orgId: organization.id, userId: user.id, id: (key: string) => ids.get(key) as number };
}

async function alertsOf(orgId: string) {
  const { rows } = await poolOf(db).query(
    `SELECT a.id, s.key, a.severity, a.peak_severity, a.opened_at, a.closed_at, a.flapping, a.value, a.threshold, a.warning, a.critical, a.explanation
     FROM alerts a JOIN series s ON s.id = a.series_id WHERE a.organization_id = $1 ORDER BY a.opened_at`,
    [orgId],
  );
  return rows;
}

async function eventsOf(alertId: string) {
  const { rows } = await poolOf(db).query(`SELECT kind, severity, detail FROM alert_events WHERE alert_id = $1 ORDER BY ts, id`, [alertId]);
  return rows as { kind: string; severity: State; detail: string }[];
}

describe("applyEvaluations: outcomes to alerts", () => {
  it("opens on a hard problem, escalates, closes on recovery, and keeps the values at firing", async () => {
    const { orgId, id } = await orgWithSeries(["web01-http-latency"]);
    const s = id("web01-http-latency");
    const summary = await applyEvaluations(db, orgId, script(s, "web01-http-latency", "OwwWccCOO"));
    expect(summary).toMatchObject({ opened: 1, closed: 1 });
    const [alert] = await alertsOf(orgId);
    expect(alert).toMatchObject({
      key: "web01-http-latency",
      severity: "CRITICAL",
      peak_severity: "CRITICAL",
      opened_at: new Date(T0 + 3 * MINUTE),
      closed_at: new Date(T0 + 7 * MINUTE),
      value: 120,
      threshold: 100,
      warning: 110,
      critical: 130,
      explanation: "WARNING 120 (100 < W < 110 < C < 130)",
      flapping: false,
    });
    expect((await eventsOf(alert.id)).map((e) => `${e.kind}:${e.severity}`)).toEqual([
      "opened:WARNING",
      "escalated:CRITICAL",
      "closed:CRITICAL",
    ]);
  });

  it("carries an open alert across batches and ignores a replayed batch", async () => {
    const { orgId, id } = await orgWithSeries(["db01-pg-connections"]);
    const s = id("db01-pg-connections");
    const all = script(s, "db01-pg-connections", "WWWCO");
    await applyEvaluations(db, orgId, all.slice(0, 2));
    await applyEvaluations(db, orgId, all.slice(0, 2));
    expect(await alertsOf(orgId)).toHaveLength(1);
    await applyEvaluations(db, orgId, all.slice(2));
    const alerts = await alertsOf(orgId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ severity: "CRITICAL", closed_at: new Date(T0 + 4 * MINUTE) });
  });

  it("leaves a steady series' stored track alone until more than its last instant moves", async () => {
    const { orgId, id } = await orgWithSeries(["web04-http-latency"]);
    const s = id("web04-http-latency");
    const all = script(s, "web04-http-latency", `${"O".repeat(24)}W`);
    const track = async () =>
      (
        await poolOf(db).query<{ version: string; last_ts: Date }>(
          `SELECT xmin::text AS version, last_ts FROM alert_tracks WHERE series_id = $1`,
          [s],
        )
      ).rows[0]!;
    // 21 results fill the flapping history; the next three change nothing but their instant.
    await applyEvaluations(db, orgId, all.slice(0, 21));
    const filled = await track();
    expect(filled.last_ts).toEqual(new Date(T0 + 20 * MINUTE));
    await applyEvaluations(db, orgId, all.slice(21, 24));
    // The same row version: not rewritten.
    expect(await track()).toEqual(filled);
    await applyEvaluations(db, orgId, all.slice(24));
    expect((await track()).last_ts).toEqual(new Date(T0 + 24 * MINUTE));
  });

  it("closes an alert and opens the next one on the same series within one batch", async () => {
    const { orgId, id } = await orgWithSeries(["db02-pg-connections"]);
    const s = id("db02-pg-connections");
    const all = script(s, "db02-pg-connections", "WWOCCOW");
    await applyEvaluations(db, orgId, all.slice(0, 2));
    await applyEvaluations(db, orgId, all.slice(2));
    const alerts = await alertsOf(orgId);
    // The first alert was open before the batch; the batch closed it, opened and closed a second, and opened a third.
    expect(alerts.map((a) => [a.severity, a.closed_at?.getTime() ?? null])).toEqual([
      ["WARNING", T0 + 2 * MINUTE],
      ["CRITICAL", T0 + 5 * MINUTE],
      ["WARNING", null],
    ]);
  });

  it("ignores series of other organisations", async () => {
    const mine = await orgWithSeries(["web02-http-latency"]);
    const theirs = await orgWithSeries(["web02-http-latency"]);
    const summary = await applyEvaluations(db, mine.orgId, script(theirs.id("web02-http-latency"), "web02-http-latency", "C"));
    expect(summary.opened).toBe(0);
    expect(await alertsOf(mine.orgId)).toHaveLength(0);
    expect(await alertsOf(theirs.orgId)).toHaveLength(0);
  });

  it("applies the item's recovery margin and minimum duration", async () => {
    const { orgId, id } = await orgWithSeries(["api01-http-latency"]);
    const host = await prismaOf(db).host.create({ data: { organizationId: orgId, name: "api01" } });
    const service = await prismaOf(db).service.create({
      data: { organizationId: orgId, hostId: host.id, name: "http", url: "shell://", schedules: ["1M"] },
    });
    const item = await prismaOf(db).serviceItem.create({
      data: { organizationId: orgId, serviceId: service.id, name: "latency", execStatement: "check_http", seriesKey: "api01-http-latency" },
    });
    await expect(
      updateItemAlertSettings(db, orgId, item.id, { recoveryMarginPercent: 5, minimumDurationSeconds: 120 }),
    ).resolves.toMatchObject({
      before: { recoveryMarginPercent: 0, minimumDurationSeconds: 0 },
    });
    // Saved settings are a draft: the worker uses them once deployed.
    await deployDraft(db, { organizationId: orgId, createdBy: null, message: "alert settings" });
    // 109 is OK but inside the 5 % margin (must be ≤ 105); 100 clears it from minute 3, held for 2 minutes by minute 5.
    const s = id("api01-http-latency");
    await applyEvaluations(db, orgId, script(s, "api01-http-latency", "WOOOOO", { values: [120, 109, 109, 100, 100, 100] }));
    const [alert] = await alertsOf(orgId);
    expect(alert.closed_at).toEqual(new Date(T0 + 3 * MINUTE));
    const detail = await alertDetail(db, orgId, alert.id);
    expect(detail).toMatchObject({ itemId: item.id, settings: { recoveryMarginPercent: 5, minimumDurationSeconds: 120 } });
  });

  it("marks a flapping series' alert and holds its notifications", async () => {
    const { orgId, id } = await orgWithSeries(["cache01-redis-hits"]);
    await createWebhook(db, orgId, { name: "ops", url: "http://127.0.0.1:9/hook", enabled: true });
    const s = id("cache01-redis-hits");
    await applyEvaluations(db, orgId, script(s, "cache01-redis-hits", `${"CO".repeat(6)}${"CW".repeat(8)}`));
    const alerts = await alertsOf(orgId);
    const flapped = alerts.filter((a) => a.flapping);
    expect(flapped).toHaveLength(1);
    const events = await eventsOf(flapped[0].id);
    expect(events.map((e) => e.kind)).toContain("flapping-started");
    expect(events.filter((e) => e.kind === "notification-held").every((e) => e.detail.includes("flapping"))).toBe(true);
    expect(events.some((e) => e.kind === "notification-held")).toBe(true);
    const track = await poolOf(db).query(`SELECT recent_states, flapping FROM alert_tracks WHERE series_id = $1`, [s]);
    expect(track.rows[0]).toMatchObject({ flapping: true });
    expect(track.rows[0].recent_states).toHaveLength(21);
  });

  it("uses a constant number of statements however many outcomes it gets", async () => {
    const keys = Array.from({ length: 200 }, (_, i) => `fleet${i}-check-value`);
    const { orgId, id } = await orgWithSeries(keys);
    await createWebhook(db, orgId, { name: "ops", url: "http://127.0.0.1:9/hook", enabled: true });
    const outcomes = keys.flatMap((k) => script(id(k), k, "OWWWCCCOOO"));
    const client = await poolOf(db).connect();
    let statements = 0;
    const counting = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === "query")
          return (...args: unknown[]) => {
            statements++;
            return (target.query as (...a: unknown[]) => unknown).apply(target, args);
          };
        return Reflect.get(target, prop, receiver);
      },
    }) as pg.PoolClient;
    try {
      await client.query("BEGIN");
      const summary = await applyEvaluations(counting, orgId, outcomes);
      await client.query("COMMIT");
      // Per series: firing (WARNING), firing (escalated to CRITICAL), resolved.
      expect(summary).toMatchObject({ opened: 200, closed: 200, deliveries: 600 });
    } finally {
      client.release();
    }
    // The alert memory, the notification context (silences, webhooks, acknowledgements), one write.
    expect(statements).toBe(3);
  });
});

describe("notifications: silences and acknowledgements", () => {
  it("queues an Alertmanager payload per enabled webhook, and a resolved one on close", async () => {
    const { orgId, id } = await orgWithSeries(["web03-http-latency"]);
    await createWebhook(db, orgId, { name: "ops", url: "http://127.0.0.1:9/ops", enabled: true });
    await createWebhook(db, orgId, { name: "off", url: "http://127.0.0.1:9/off", enabled: false });
    await applyEvaluations(db, orgId, script(id("web03-http-latency"), "web03-http-latency", "CO"), { externalUrl: "https://tm.example" });
    const deliveries = await listDeliveries(db, orgId, { limit: 10 });
    expect(deliveries.map((d) => `${d.webhookName}:${d.notification}:${d.status}`).sort()).toEqual([
      "ops:firing:pending",
      "ops:resolved:pending",
    ]);
    const { rows } = await poolOf(db).query(`SELECT payload FROM notification_deliveries WHERE id = $1`, [
      deliveries.find((d) => d.notification === "firing")!.id,
    ]);
    expect(rows[0].payload).toMatchObject({
      version: "4",
      status: "firing",
      receiver: "ops",
      commonLabels: { host: "web03", service: "http", item: "latency", severity: "critical" },
      alerts: [
        {
          status: "firing",
          startsAt: new Date(T0).toISOString(),
          generatorURL: expect.stringMatching(/^https:\/\/tm\.example\/alerts\?alert=/),
        },
      ],
    });
  });

  it("does not notify for a silenced series, and records why", async () => {
    const { orgId, userId, id } = await orgWithSeries(["web04-http-latency", "db04-pg-lag"]);
    await createWebhook(db, orgId, { name: "ops", url: "http://127.0.0.1:9/ops", enabled: true });
    const silence = await createSilence(db, orgId, userId, {
      matchers: { host: "web*", service: "*", item: "latency" },
      startsAt: new Date(T0 - MINUTE),
      endsAt: new Date(T0 + 60 * MINUTE),
      comment: "deploy",
    });
    await applyEvaluations(db, orgId, [
      ...script(id("web04-http-latency"), "web04-http-latency", "C"),
      ...script(id("db04-pg-lag"), "db04-pg-lag", "C"),
    ]);
    const deliveries = await listDeliveries(db, orgId, { limit: 10 });
    expect(deliveries).toHaveLength(1);
    const alerts = await alertsOf(orgId);
    const silenced = alerts.find((a) => a.key === "web04-http-latency");
    expect(deliveries[0]!.alertId).not.toBe(silenced.id);
    expect(await eventsOf(silenced.id)).toContainEqual({
      kind: "notification-held",
      severity: "CRITICAL",
      detail: `notification held: silenced by ${silence.id}`,
    });

    expect((await listSilences(db, orgId, { includeExpired: false, now: new Date(T0) })).map((s) => s.id)).toEqual([silence.id]);
    const expired = await expireSilence(db, orgId, silence.id, new Date(T0 + 5 * MINUTE));
    expect(expired?.after.endsAt).toEqual(new Date(T0 + 5 * MINUTE));
    expect(await expireSilence(db, orgId, silence.id, new Date(T0 + 6 * MINUTE))).toBeNull();
    // After the silence ended, an escalation notifies again.
    await applyEvaluations(db, orgId, script(id("web04-http-latency"), "web04-http-latency", "W", { start: T0 + 10 * MINUTE }));
    expect(await listDeliveries(db, orgId, { limit: 10, alertId: silenced.id })).toHaveLength(1);
  });

  it("holds an acknowledged alert's escalation but sends its resolution, and keeps who acknowledged it and why", async () => {
    const { orgId, userId, id } = await orgWithSeries(["queue01-mq-depth"]);
    await createWebhook(db, orgId, { name: "ops", url: "http://127.0.0.1:9/ops", enabled: true });
    const s = id("queue01-mq-depth");
    await applyEvaluations(db, orgId, script(s, "queue01-mq-depth", "W"));
    const [alert] = await alertsOf(orgId);
    const other = await createTestOrg(db, "editor");
    expect(await acknowledgeAlert(db, other.organization.id, alert.id, other.user.id, "not mine")).toBeNull();
    expect(await acknowledgeAlert(db, orgId, alert.id, userId, "looking into it", new Date(T0 + 30_000))).toMatchObject({ id: alert.id });
    await expect(acknowledgeAlert(db, orgId, alert.id, userId, "twice")).rejects.toBeInstanceOf(AlertAlreadyAcknowledgedError);
    await applyEvaluations(db, orgId, script(s, "queue01-mq-depth", "CO", { start: T0 + MINUTE }));
    const deliveries = await listDeliveries(db, orgId, { limit: 10 });
    // Newest first: the resolution is not swallowed by the acknowledgement.
    expect(deliveries.map((d) => d.notification)).toEqual(["resolved", "firing"]);
    const detail = await alertDetail(db, orgId, alert.id);
    expect(detail).toMatchObject({ ackComment: "looking into it", acknowledgedByName: expect.stringMatching(/^User /) });
    expect(detail?.events.map((e) => e.kind)).toEqual(["opened", "acknowledged", "escalated", "notification-held", "closed"]);
  });

  it("reads a batch's context once, on its transaction, for every call whose instants follow the first's", async () => {
    const { organization, user } = await createTestOrg(db, "editor");
    organizations.push(organization.id);
    const orgId = organization.id;
    const key = "web05-http-latency";
    const s = (await ensureSeries(db, orgId, [key])).get(key) as number;
    const hook = await createWebhook(db, orgId, { name: "ops", url: "http://127.0.0.1:9/ops", enabled: true });
    const matchers = { host: "web*", service: "*", item: "latency" };
    const ended = await createSilence(db, orgId, user.id, {
      matchers,
      startsAt: new Date(T0 - 60 * MINUTE),
      endsAt: new Date(T0 - 30 * MINUTE),
      comment: "ended before the batch",
    });
    const later = await createSilence(db, orgId, user.id, {
      matchers,
      startsAt: new Date(T0 + 30 * MINUTE),
      endsAt: new Date(T0 + 60 * MINUTE),
      comment: "starts after the first call's last instant",
    });
    await applyEvaluations(db, orgId, script(s, key, "W"));
    const [alert] = await alertsOf(orgId);
    await acknowledgeAlert(db, orgId, alert.id, user.id, "on it");
    const items = new Map([[key, "item-of-web05"]]);
    const needs = (fromMs: number) => ({ from: new Date(fromMs), to: new Date(fromMs + MINUTE), alertIds: [], keys: [key] });

    const client = await poolOf(db).connect();
    try {
      await client.query("BEGIN");
      const source = notificationContextOnce(client, orgId, items);
      const first = source(needs(T0));
      // A later call (a later slice of the batch) gets what the first read.
      expect(source(needs(T0 + 5 * MINUTE))).toBe(first);
      const context = await first;
      // A superset of each call's needs, which the notification step narrows by instant, key and alert.
      expect(context.silences.map((x) => x.id)).toEqual([later.id]);
      expect(context.receivers.map((r) => r.id)).toEqual([hook.id]);
      expect([...context.acknowledged]).toEqual([alert.id]);
      expect(context.organization).toBe(organization.slug);
      expect(context.items).toBe(items);
      // A call with an instant before the first's reads again, the silences that end after it included.
      const earlier = source(needs(T0 - 45 * MINUTE));
      expect(earlier).not.toBe(first);
      expect((await earlier).silences.map((x) => x.id).sort()).toEqual([ended.id, later.id].sort());
      await client.query("COMMIT");
    } finally {
      client.release();
    }
  });
});

describe("the timeline", () => {
  it("serves alerts overlapping the window with their lanes and state changes, filtered", async () => {
    const keys = ["web05-http-latency", "web06-https-errors", "db05-pg-lag"];
    const { orgId, userId, id } = await orgWithSeries(keys);
    const outcomes = [
      ...script(id(keys[0]!), keys[0]!, "WWO"),
      ...script(id(keys[1]!), keys[1]!, "CC", { start: T0 + 30 * MINUTE }),
      ...script(id(keys[2]!), keys[2]!, "WO", { start: T0 - 120 * MINUTE }),
    ];
    await applyEvaluations(db, orgId, outcomes, { records: evaluationRecords(outcomes) });
    const window = { from: new Date(T0 - 10 * MINUTE), to: new Date(T0 + 60 * MINUTE) };
    const all: TimelineFilters = { severities: [], status: "any", host: null, service: null, acknowledged: null, flapping: null };

    const timeline = await alertTimeline(db, orgId, window, all);
    expect(timeline.lanes.map((l) => `${l.host}/${l.service}/${l.item}`)).toEqual(["web05/http/latency", "web06/https/errors"]);
    expect(timeline.alerts).toHaveLength(2);
    expect(timeline.changes.filter((c) => c.seriesId === id(keys[0]!)).map((c) => c.state)).toEqual(["WARNING", "OK"]);
    expect(timeline.truncated).toBe(false);

    expect((await alertTimeline(db, orgId, window, { ...all, status: "open" })).alerts.map((a) => a.seriesId)).toEqual([id(keys[1]!)]);
    expect((await alertTimeline(db, orgId, window, { ...all, severities: ["WARNING"] })).alerts.map((a) => a.seriesId)).toEqual([
      id(keys[0]!),
    ]);
    expect((await alertTimeline(db, orgId, window, { ...all, service: "https" })).lanes.map((l) => l.key)).toEqual([keys[1]]);
    expect((await alertTimeline(db, orgId, window, { ...all, host: "web0*" })).alerts).toHaveLength(2);
    const wide = await alertTimeline(db, orgId, { from: new Date(T0 - 180 * MINUTE), to: window.to }, { ...all, host: "db" });
    expect(wide.lanes.map((l) => l.key)).toEqual([keys[2]]);

    const open = timeline.alerts.find((a) => a.closedAt === null)!;
    await acknowledgeAlert(db, orgId, open.id, userId, "on it");
    expect((await alertTimeline(db, orgId, window, { ...all, acknowledged: true })).alerts.map((a) => a.id)).toEqual([open.id]);
    expect((await alertTimeline(db, orgId, window, { ...all, acknowledged: false, flapping: false })).alerts).toHaveLength(1);
    expect((await alertTimeline(db, orgId, window, all, { maxAlerts: 1 })).truncated).toBe(true);
  });
});
