import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_ALERT_SETTINGS,
  EMPTY_TRACK,
  machineSettings,
  NO_NOTIFICATION_CONTEXT,
  type NotificationContext,
  planNotifications,
  RETIRED_SERIES_KEPT_MS,
  type ReceiverPolicy,
  removedItemReason,
  retireAlert,
  retiredSeriesAction,
  retirementOutcome,
  retirementRuns,
  runSeriesMachines,
  type SeriesAlertMemory,
} from "../src/index.ts";
import { MINUTE, script, T0 } from "./fixture-outcomes.ts";

const pager: ReceiverPolicy = { id: "r-pager", name: "pager", kind: "alertmanager", matchers: {}, repeatIntervalSeconds: null };
const withPager: NotificationContext = { ...NO_NOTIFICATION_CONTEXT, receivers: [pager] };

let ids = 0;
const newId = () => `alert-${++ids}`;

/** The memory a series has after its scripted results went through the machine (and notified `pager`). */
function memoryAfter(seriesId: number, key: string, text: string, settings = DEFAULT_ALERT_SETTINGS): SeriesAlertMemory {
  const fresh: SeriesAlertMemory = { key, settings, track: EMPTY_TRACK, openAlert: null };
  const { runs } = runSeriesMachines(script(seriesId, key, text), () => fresh);
  const memory = planNotifications(runs, withPager, { publicUrl: "https://tm.example", newId }).memory.get(seriesId);
  if (!memory) throw new Error("no memory");
  return memory;
}

const AT = new Date(T0 + 60 * MINUTE);
const retire = (memory: SeriesAlertMemory, seriesId: number) => ({
  memory,
  outcome: retirementOutcome(seriesId, memory.key, AT, removedItemReason(7)),
});

describe("retirement: the alerts of series the configuration no longer has", () => {
  it("closes an open alert at once and sends the resolution where its firing went", () => {
    const memory = memoryAfter(1, "web01-http-latency", "OWC");
    const { runs, needs } = retirementRuns([retire(memory, 1)]);
    expect(needs).toEqual({ from: AT, to: AT, alertIds: [memory.openAlert?.id], keys: ["web01-http-latency"] });
    const plan = planNotifications(runs, withPager, { publicUrl: "https://tm.example", newId });
    expect(plan.summary).toMatchObject({ opened: 0, closed: 1, deliveries: 1 });
    expect(plan.alerts).toMatchObject([{ id: memory.openAlert?.id, isNew: false, closedAt: AT, severity: "CRITICAL" }]);
    expect(plan.events).toMatchObject([
      { kind: "closed", ts: AT, severity: "CRITICAL", detail: "retired: the item is no longer in the configuration (deployment v7)" },
    ]);
    expect(plan.deliveries[0]?.payload).toMatchObject({
      status: "resolved",
      alerts: [{ status: "resolved", endsAt: AT.toISOString(), annotations: { description: removedItemReason(7) } }],
    });
    expect(plan.memory.get(1)?.openAlert).toBeNull();
  });

  it("closes whatever the hysteresis, the minimum duration or flapping would wait for", () => {
    const slow = machineSettings({ recoveryMarginPercent: 50, minimumDurationSeconds: 3600 });
    const recovering = memoryAfter(2, "db01-pg-lag", "CCOO", slow);
    expect(recovering.openAlert).not.toBeNull();
    const flapping = memoryAfter(3, "cache01-redis-hits", `${"CO".repeat(6)}${"CW".repeat(8)}`);
    expect(flapping.track.flapping).toBe(true);
    const plan = planNotifications(retirementRuns([retire(recovering, 2), retire(flapping, 3)]).runs, withPager, {
      publicUrl: "https://tm.example",
      newId,
    });
    expect(plan.alerts.map((a) => a.closedAt)).toEqual([AT, AT]);
    expect(plan.events.map((e) => e.kind)).toEqual(["closed", "closed"]);
  });

  it("leaves series without an open alert alone: no run, nothing to load", () => {
    const closed = memoryAfter(4, "web02-http-latency", "OCO");
    expect(closed.openAlert).toBeNull();
    expect(
      retirementRuns([
        retire(closed, 4),
        retire({ key: "x-y-z", settings: DEFAULT_ALERT_SETTINGS, track: EMPTY_TRACK, openAlert: null }, 5),
      ]),
    ).toEqual({
      runs: [],
      needs: null,
    });
  });

  it("keeps the track's states and last instant, so that the series' results, should it come back, are not replays", () => {
    const memory = memoryAfter(6, "web03-http-latency", "OOC");
    const step = retireAlert(memory.track, retirementOutcome(6, memory.key, AT, "gone"));
    expect(step?.track).toEqual({ ...memory.track, open: null, recoveringSince: null });
    expect(step?.track.lastTs).toEqual(new Date(T0 + 2 * MINUTE));
  });

  it("property: any open alert closes at the retirement instant, with one resolution if and only if its firing was sent", () => {
    const scripts = fc.stringMatching(/^[OWCUowcu]{1,40}$/);
    fc.assert(
      fc.property(scripts, fc.boolean(), (text, receiverKnown) => {
        const memory = memoryAfter(9, "h-s-i", text);
        const context = receiverKnown ? withPager : NO_NOTIFICATION_CONTEXT;
        const plan = planNotifications(retirementRuns([retire(memory, 9)]).runs, context, { publicUrl: "https://tm.example", newId });
        if (!memory.openAlert) return plan.alerts.length === 0 && plan.deliveries.length === 0;
        const firingSent = memory.openAlert.notifiedAt !== null;
        return (
          plan.alerts.length === 1 &&
          plan.alerts[0]?.closedAt?.getTime() === AT.getTime() &&
          plan.deliveries.length === (firingSent && receiverKnown ? 1 : 0)
        );
      }),
    );
  });
});

describe("retiredSeriesAction", () => {
  const retiredAt = T0;
  it.each([
    { watched: true, alertOpen: true, after: 0, action: "forget", why: "deployed again: its own results decide its alert" },
    { watched: false, alertOpen: true, after: 0, action: "close", why: "an alert no result will close" },
    { watched: false, alertOpen: true, after: RETIRED_SERIES_KEPT_MS * 2, action: "close", why: "however long ago it was retired" },
    { watched: false, alertOpen: false, after: RETIRED_SERIES_KEPT_MS - 1, action: "keep", why: "queued points may still come" },
    { watched: false, alertOpen: false, after: RETIRED_SERIES_KEPT_MS, action: "forget", why: "long enough for every worker" },
  ])("$action: $why", ({ watched, alertOpen, after, action }) => {
    expect(retiredSeriesAction({ watched, alertOpen, retiredAt, now: retiredAt + after })).toBe(action);
  });
});
