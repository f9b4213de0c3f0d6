import type { State } from "@tidemark/thresholds";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type AlertPlan,
  type AlertSettings,
  DEFAULT_ALERT_SETTINGS,
  EMPTY_TRACK,
  type EvaluationOutcome,
  machineSettings,
  NO_NOTIFICATION_CONTEXT,
  type NotificationContext,
  planNotifications,
  type ReceiverPolicy,
  runSeriesMachines,
  type SeriesAlertMemory,
  seriesToLoad,
} from "../src/index.ts";
import { MINUTE, script, T0 } from "./fixture-outcomes.ts";

const fresh = (key: string, settings: AlertSettings = DEFAULT_ALERT_SETTINGS): SeriesAlertMemory => ({
  key,
  settings,
  track: EMPTY_TRACK,
  openAlert: null,
});

const receiver = (name: string, matchers: ReceiverPolicy["matchers"] = {}): ReceiverPolicy => ({
  id: `r-${name}`,
  name,
  kind: "webhook",
  matchers,
  repeatIntervalSeconds: null,
});

const context = (fields: Partial<NotificationContext> = {}): NotificationContext => ({ ...NO_NOTIFICATION_CONTEXT, ...fields });

let alertIds = 0;

/** A batch through both steps; alert ids count up from alert-1 within each test. */
function plan(
  outcomes: EvaluationOutcome[],
  memory: Map<number, SeriesAlertMemory>,
  ctx: NotificationContext = NO_NOTIFICATION_CONTEXT,
  publicUrl = "http://localhost:3000",
): AlertPlan {
  const { runs } = runSeriesMachines(outcomes, (id) => memory.get(id));
  return planNotifications(runs, ctx, { publicUrl, newId: () => `alert-${++alertIds}` });
}

beforeEach(() => {
  alertIds = 0;
});

const memoryFor = (entries: [number, string][]) => new Map(entries.map(([id, key]) => [id, fresh(key)]));
const status = (p: AlertPlan) => p.deliveries.map((d) => `${d.receiverId}:${(d.payload as { status: string }).status}:${d.alertId}`);

describe("planNotifications: outcomes to alerts", () => {
  it("opens on a hard problem, escalates, closes on recovery, and keeps the values at firing", () => {
    const p = plan(script(1, "web01-http-latency", "OwwWccCOO"), memoryFor([[1, "web01-http-latency"]]));
    expect(p.summary).toMatchObject({ opened: 1, closed: 1 });
    expect(p.alerts).toHaveLength(1);
    const [alert] = p.alerts;
    expect(alert).toMatchObject({
      isNew: true,
      key: "web01-http-latency",
      severity: "CRITICAL",
      peakSeverity: "CRITICAL",
      openedAt: new Date(T0 + 3 * MINUTE),
      closedAt: new Date(T0 + 7 * MINUTE),
      flapping: false,
      opening: { value: 120, threshold: 100, warning: 110, critical: 130, explanation: "WARNING 120 (100 < W < 110 < C < 130)" },
    });
    expect(p.events.map((e) => `${e.kind}:${e.severity}`)).toEqual(["opened:WARNING", "escalated:CRITICAL", "closed:CRITICAL"]);
    expect(p.memory.get(1)?.openAlert).toBeNull();
  });

  it("carries an open alert across batches and ignores a replayed batch", () => {
    const all = script(2, "db01-pg-connections", "WWWCO");
    const first = plan(all.slice(0, 2), memoryFor([[2, "db01-pg-connections"]]));
    const opened = first.alerts[0]?.id;
    expect(first.memory.get(2)?.openAlert?.id).toBe(opened);
    const replay = plan(all.slice(0, 2), first.memory);
    expect(replay.alerts).toEqual([]);
    expect(replay.tracks).toEqual([]);
    const rest = plan(all.slice(2), first.memory);
    expect(rest.alerts).toHaveLength(1);
    expect(rest.alerts[0]).toMatchObject({ id: opened, isNew: false, severity: "CRITICAL", closedAt: new Date(T0 + 4 * MINUTE) });
  });

  it("stores a track only when more than its last instant moved, and a replay onto the stored one changes nothing", () => {
    // 21 results fill the flapping history; from then on an OK changes nothing but the instant.
    const all = script(7, "web03-http-latency", `${"O".repeat(25)}W`);
    const filled = plan(all.slice(0, 21), memoryFor([[7, "web03-http-latency"]]));
    expect(filled.tracks.map((t) => t.track.lastTs?.getTime())).toEqual([T0 + 20 * MINUTE]);
    const steady = plan(all.slice(21, 25), filled.memory);
    expect(steady.tracks).toEqual([]);
    // The memory the worker keeps is current all the same.
    expect(steady.memory.get(7)?.track.lastTs).toEqual(new Date(T0 + 24 * MINUTE));
    // A worker that reads the stored track (its instant at minute 20) and is handed minutes 21–24
    // again ends where the one that remembered them did.
    const replayed = plan(all.slice(21, 25), filled.memory);
    expect(replayed.memory.get(7)?.track).toEqual(steady.memory.get(7)?.track);
    const change = plan(all.slice(25), steady.memory);
    expect(change.tracks.map((t) => t.track.recentStates.at(-1))).toEqual(["WARNING"]);
  });

  it("stores the track of a run that opened and closed an alert, even when it ends as it began", () => {
    // A full history of OKs, then a hard WARNING and 21 OKs: the alert opens and closes, and the
    // WARNING has left the history again by the end.
    const all = script(8, "web05-http-latency", `${"O".repeat(21)}W${"O".repeat(21)}`);
    const filled = plan(all.slice(0, 21), memoryFor([[8, "web05-http-latency"]]));
    const run = plan(all.slice(21), filled.memory);
    expect(run.summary).toMatchObject({ opened: 1, closed: 1 });
    expect(run.memory.get(8)?.track.recentStates).toEqual(filled.memory.get(8)?.track.recentStates);
    // Stored at the run's last result: a replay of the WARNING onto it is ignored, not a second alert.
    expect(run.tracks.map((t) => t.track.lastTs?.getTime())).toEqual([T0 + 42 * MINUTE]);
  });

  it("closes an alert and opens the next one on the same series within one batch", () => {
    const all = script(3, "db02-pg-connections", "WWOCCOW");
    const first = plan(all.slice(0, 2), memoryFor([[3, "db02-pg-connections"]]));
    const rest = plan(all.slice(2), first.memory);
    // The first alert was open before the batch; the batch closed it, opened and closed a second, and opened a third.
    expect(rest.alerts.map((a) => [a.isNew, a.severity, a.closedAt?.getTime() ?? null])).toEqual([
      [false, "WARNING", T0 + 2 * MINUTE],
      [true, "CRITICAL", T0 + 5 * MINUTE],
      [true, "WARNING", null],
    ]);
  });

  it("leaves out series it has no memory of (another organisation's)", () => {
    const outcomes = script(4, "web02-http-latency", "C");
    expect(seriesToLoad(outcomes, new Map())).toEqual([4]);
    const p = plan(outcomes, new Map());
    expect(p.summary.opened).toBe(0);
    expect(p.alerts).toEqual([]);
  });

  it("reads an item's deployed settings for the machine, the defaults for an item not deployed", () => {
    expect(machineSettings({ recoveryMarginPercent: 5, minimumDurationSeconds: 120 })).toEqual({
      ...DEFAULT_ALERT_SETTINGS,
      recoveryMarginPercent: 5,
      minimumDurationMs: 120_000,
    });
    expect(machineSettings({ recoveryMarginPercent: null, minimumDurationSeconds: null })).toEqual(DEFAULT_ALERT_SETTINGS);
  });

  it("applies the item's recovery margin and minimum duration", () => {
    const settings = machineSettings({ recoveryMarginPercent: 5, minimumDurationSeconds: 120 });
    // 109 is OK but inside the 5 % margin (must be ≤ 105); 100 clears it from minute 3, held for 2 minutes by minute 5.
    const outcomes = script(5, "api01-http-latency", "WOOOOO", { values: [120, 109, 109, 100, 100, 100] });
    const p = plan(outcomes, new Map([[5, fresh("api01-http-latency", settings)]]));
    expect(p.alerts[0]?.closedAt).toEqual(new Date(T0 + 3 * MINUTE));
  });

  it("marks a flapping series' alert and holds its notifications", () => {
    const outcomes = script(6, "cache01-redis-hits", `${"CO".repeat(6)}${"CW".repeat(8)}`);
    const p = plan(outcomes, memoryFor([[6, "cache01-redis-hits"]]), context({ receivers: [receiver("ops")] }));
    const flapped = p.alerts.filter((a) => a.flapping);
    expect(flapped).toHaveLength(1);
    const events = p.events.filter((e) => e.alertId === flapped[0]?.id);
    expect(events.map((e) => e.kind)).toContain("flapping-started");
    expect(events.some((e) => e.kind === "notification-held")).toBe(true);
    expect(events.filter((e) => e.kind === "notification-held").every((e) => e.detail.includes("flapping"))).toBe(true);
    expect(p.tracks[0]?.track).toMatchObject({ flapping: true });
    expect(p.tracks[0]?.track.recentStates).toHaveLength(21);
  });

  it("sends firing (on opening and escalation) and resolved, per series, with one receiver", () => {
    const keys = Array.from({ length: 200 }, (_, i) => `fleet${i}-check-value`);
    const outcomes = keys.flatMap((k, i) => script(i, k, "OWWWCCCOOO"));
    const p = plan(outcomes, memoryFor(keys.map((k, i) => [i, k])), context({ receivers: [receiver("ops")] }));
    expect(p.summary).toMatchObject({ opened: 200, closed: 200, deliveries: 600, events: p.events.length });
  });
});

describe("planNotifications: which notifications are sent", () => {
  it("builds an Alertmanager payload per receiver with links to the public URL, and a resolved one on close", () => {
    const outcomes = script(7, "web03-http-latency", "CO");
    const ctx = context({ receivers: [receiver("ops")], organization: "acme", items: new Map([["web03-http-latency", "item-7"]]) });
    const p = plan(outcomes, memoryFor([[7, "web03-http-latency"]]), ctx, "https://tm.example/");
    expect(status(p)).toEqual(["r-ops:firing:alert-1", "r-ops:resolved:alert-1"]);
    expect(p.deliveries[0]?.payload).toMatchObject({
      version: "4",
      status: "firing",
      receiver: "ops",
      commonLabels: { host: "web03", service: "http", item: "latency", severity: "critical", organization: "acme" },
      commonAnnotations: { preview: "https://tm.example/items/item-7" },
      alerts: [{ status: "firing", startsAt: new Date(T0).toISOString(), generatorURL: "https://tm.example/alerts?alert=alert-1" }],
    });
    expect(p.alerts[0]?.notifiedAt).toEqual(new Date(T0));
  });

  it("holds a silenced series' firing notification, and records why", () => {
    const silence = {
      id: "s1",
      matchers: { host: "web*", service: "*", item: "latency" },
      startsAt: new Date(T0 - MINUTE),
      endsAt: new Date(T0 + 60 * MINUTE),
    };
    const memory = memoryFor([
      [8, "web04-http-latency"],
      [9, "db04-pg-lag"],
    ]);
    const ctx = context({ receivers: [receiver("ops")], silences: [silence] });
    const p = plan([...script(8, "web04-http-latency", "C"), ...script(9, "db04-pg-lag", "C")], memory, ctx);
    const silenced = p.alerts.find((a) => a.key === "web04-http-latency");
    expect(p.deliveries).toHaveLength(1);
    expect(p.deliveries[0]?.alertId).not.toBe(silenced?.id);
    expect(silenced?.notifiedAt).toBeNull();
    expect(p.events).toContainEqual(
      expect.objectContaining({
        alertId: silenced?.id,
        kind: "notification-held",
        severity: "CRITICAL",
        detail: "notification held: silenced by s1",
      }),
    );
    // After the silence ended, an escalation notifies again.
    const later = plan(script(8, "web04-http-latency", "W", { start: T0 + 70 * MINUTE }), p.memory, ctx);
    expect(later.deliveries.map((d) => d.alertId)).toEqual([silenced?.id]);
  });

  it("holds an acknowledged alert's escalation but sends its resolution", () => {
    const ctx = context({ receivers: [receiver("ops")] });
    const first = plan(script(10, "queue01-mq-depth", "W"), memoryFor([[10, "queue01-mq-depth"]]), ctx);
    const id = first.alerts[0]?.id as string;
    const later = plan(script(10, "queue01-mq-depth", "CO", { start: T0 + MINUTE }), first.memory, {
      ...ctx,
      acknowledged: new Set([id]),
    });
    expect(later.events.map((e) => e.kind)).toEqual(["escalated", "notification-held", "closed"]);
    expect(status(later)).toEqual([`r-ops:resolved:${id}`]);
  });

  it("sends no resolution for an alert whose firing was never sent, and a resolution to receivers of its peak severity", () => {
    const critical = receiver("pager", { severities: ["CRITICAL"] });
    const none = plan(script(11, "web05-http-latency", "WO"), memoryFor([[11, "web05-http-latency"]]), context({ receivers: [critical] }));
    expect(none.deliveries).toEqual([]);
    const peak = plan(
      script(12, "web06-http-latency", "WCWO"),
      memoryFor([[12, "web06-http-latency"]]),
      context({ receivers: [critical] }),
    );
    expect(status(peak)).toEqual(["r-pager:firing:alert-2", "r-pager:resolved:alert-2"]);
  });

  it("asks for the notification context only when a notification is due, over the due results' times", () => {
    expect(runSeriesMachines(script(13, "web07-http-latency", "Oww"), () => fresh("web07-http-latency")).needs).toBeNull();
    const open = { ...fresh("web07-http-latency"), openAlert: { id: "a0", notifiedAt: new Date(T0 - MINUTE) } };
    const withOpen = {
      ...open,
      track: {
        ...EMPTY_TRACK,
        open: { severity: "WARNING" as State, peakSeverity: "WARNING" as State, openedAt: new Date(T0 - MINUTE), flapping: false },
      },
    };
    expect(runSeriesMachines(script(13, "web07-http-latency", "OCO", { start: T0 }), () => withOpen).needs).toEqual({
      from: new Date(T0),
      to: new Date(T0 + 2 * MINUTE),
      alertIds: ["a0"],
      keys: ["web07-http-latency"],
    });
  });
});

describe("planNotifications: properties", () => {
  const scripts = fc.array(fc.stringMatching(/^[OWCUowcu]{1,30}$/), { minLength: 1, maxLength: 4 });
  const batch = (texts: string[]) => {
    const keys = texts.map((_, i) => `web${i}-http-latency`);
    return { outcomes: texts.flatMap((t, i) => script(i, keys[i] as string, t)), memory: memoryFor(keys.map((k, i) => [i, k])) };
  };

  it("a silence over everything lets no firing notification out", () => {
    const everything = { id: "all", matchers: { host: "*", service: "*", item: "*" }, startsAt: new Date(0), endsAt: new Date(T0 * 2) };
    fc.assert(
      fc.property(scripts, (texts) => {
        const { outcomes, memory } = batch(texts);
        const p = plan(outcomes, memory, context({ receivers: [receiver("ops")], silences: [everything] }));
        expect(p.deliveries).toEqual([]);
        expect(p.alerts.every((a) => a.notifiedAt === null)).toBe(true);
      }),
    );
  });

  it("every resolution follows a firing sent for the same alert, and counts add up", () => {
    fc.assert(
      fc.property(scripts, (texts) => {
        const { outcomes, memory } = batch(texts);
        const p = plan(outcomes, memory, context({ receivers: [receiver("ops")] }));
        const fired = new Set<string>();
        for (const d of p.deliveries) {
          const s = (d.payload as { status: string }).status;
          if (s === "firing") fired.add(d.alertId);
          else expect(fired.has(d.alertId)).toBe(true);
        }
        expect(p.summary.opened).toBe(p.alerts.filter((a) => a.isNew).length);
        expect(p.summary.closed).toBe(p.alerts.filter((a) => a.closedAt !== null).length);
        expect(p.summary.deliveries).toBe(p.deliveries.length);
        for (const [seriesId, m] of p.memory) {
          const open = p.alerts.filter((a) => a.seriesId === seriesId && a.closedAt === null);
          expect(m.openAlert?.id ?? null).toBe(open[0]?.id ?? null);
        }
      }),
    );
  });
});
