import { type EvaluationOutcome, encodeTimeline } from "@tidemark/alerts";
import { alertTimeline, applyEvaluations, ensureSeries, type TimelineFilters, writeEvaluations } from "@tidemark/db";
import type { State } from "@tidemark/thresholds";
import { layoutTimeline } from "../../apps/web/src/components/alerts/timeline-layout.ts";
import { prng } from "../../packages/db/src/seed/synthetic.ts";
import { benchOrganization } from "../lib/fixtures.ts";
import { summarize } from "../lib/stats.ts";
import type { BenchScenario } from "../scenario.ts";

/**
 * The alert timeline at scale (issue 7): 10 000 alerts over 30 days on 250 series, made through
 * the real path (state changes with writeEvaluations, alerts with applyEvaluations in worker-sized
 * batches), then the 30-day timeline served as the dashboard asks for it.
 * Goals: the timeline query under 1 s (it is the server's share of the < 1 s render), and the
 * layout the browser computes from it well under that.
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const HOSTS = 50;
const ITEMS_PER_HOST = 5;
const ALERTS_PER_SERIES = 40;
const BATCH = 5_000;
const NOW = Date.UTC(2026, 10, 1, 0, 0);
const FROM = NOW - 30 * DAY;

const VALUES: Record<State, number> = { OK: 90, WARNING: 120, CRITICAL: 150, UNKNOWN: 0 };

/** Per alert: a hard WARNING, often a CRITICAL, the recovery, and ten quiet OK results after it. */
function outcomesFor(seriesId: number, key: string, random: () => number): EvaluationOutcome[] {
  const out: EvaluationOutcome[] = [];
  const spacing = (30 * DAY) / ALERTS_PER_SERIES;
  const push = (ts: number, state: State) =>
    out.push({
      seriesId,
      key,
      ts: new Date(ts),
      state,
      hardState: state,
      hard: true,
      value: VALUES[state],
      threshold: 100,
      warning: 110,
      critical: 130,
      explanation: `${state} ${VALUES[state]} (100 < W < 110 < C < 130)`,
    });
  for (let k = 0; k < ALERTS_PER_SERIES; k++) {
    const start = Math.round((FROM + k * spacing + random() * (spacing - 6 * HOUR)) / MINUTE) * MINUTE;
    const duration = (5 + Math.floor(random() * 235)) * MINUTE;
    push(start, "WARNING");
    if (random() < 0.5) push(start + Math.min(duration / 2, 30 * MINUTE), "CRITICAL");
    for (let i = 0; i <= 10; i++) push(start + duration + i * 5 * MINUTE, "OK");
  }
  return out;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

const median = (samples: number[]) => summarize(samples).p50;

export const scenario: BenchScenario = {
  name: "timeline",
  needsDatabase: true,
  async run({ db, log }) {
    if (!db) throw new Error("the timeline scenario needs a database");
    const orgId = await benchOrganization(db);
    const keys = Array.from(
      { length: HOSTS * ITEMS_PER_HOST },
      (_, i) => `host${String(Math.floor(i / ITEMS_PER_HOST)).padStart(3, "0")}-svc${i % ITEMS_PER_HOST}-value`,
    );
    const ids = await ensureSeries(db, orgId, keys);
    const random = prng(7);
    const outcomes = keys.flatMap((k) => outcomesFor(ids.get(k) as number, k, random)).sort((a, b) => a.ts.getTime() - b.ts.getTime());
    log(`timeline: ${outcomes.length} results on ${keys.length} series`);

    let stateMs = 0;
    let alertMs = 0;
    let opened = 0;
    const previous = new Map<number, State>();
    for (let i = 0; i < outcomes.length; i += BATCH) {
      const batch = outcomes.slice(i, i + BATCH);
      const records = batch.map((o) => {
        const changed = previous.get(o.seriesId) !== o.state;
        previous.set(o.seriesId, o.state);
        return { ...o, ts: o.ts.getTime(), softCount: 1, changed };
      });
      const t0 = performance.now();
      const client = await db.pool.connect();
      try {
        await writeEvaluations(client, records);
      } finally {
        client.release();
      }
      const t1 = performance.now();
      opened += (await applyEvaluations(db, orgId, batch)).opened;
      stateMs += t1 - t0;
      alertMs += performance.now() - t1;
    }
    log(`timeline: ${opened} alerts opened in ${round(alertMs / 1000)} s`);

    const all: TimelineFilters = { severities: [], status: "any", host: null, service: null, acknowledged: null, flapping: null };
    const window = { from: new Date(FROM), to: new Date(NOW) };
    const queryMs: number[] = [];
    let timeline = await alertTimeline(db, orgId, window, all);
    for (let run = 0; run < 5; run++) {
      const t0 = performance.now();
      timeline = await alertTimeline(db, orgId, window, all);
      queryMs.push(performance.now() - t0);
    }
    const t0 = performance.now();
    const payload = encodeTimeline(timeline, FROM);
    const serializeMs = performance.now() - t0;
    const layoutMs: number[] = [];
    let lanes = layoutTimeline(timeline, { from: FROM, to: NOW }, 1200, NOW);
    for (let run = 0; run < 5; run++) {
      const t1 = performance.now();
      lanes = layoutTimeline(timeline, { from: FROM, to: NOW }, 1200, NOW);
      layoutMs.push(performance.now() - t1);
    }
    const filteredStart = performance.now();
    const critical = await alertTimeline(db, orgId, window, { ...all, severities: ["CRITICAL"], host: "host01*" });
    const filteredMs = performance.now() - filteredStart;

    const serverMs = median(queryMs) + serializeMs;
    return {
      results: outcomes.length,
      alerts: opened,
      alertsInTimeline: timeline.alerts.length,
      lanes: timeline.lanes.length,
      stateChanges: timeline.changes.length,
      applyEvaluationsResultsPerSecond: Math.round(outcomes.length / (alertMs / 1000)),
      writeEvaluationsResultsPerSecond: Math.round(outcomes.length / (stateMs / 1000)),
      timelineQueryMsMedian: round(median(queryMs)),
      timelineSerializeMs: round(serializeMs),
      timelinePayloadKb: Math.round(payload.length / 1024),
      timelineFilteredQueryMs: round(filteredMs),
      timelineFilteredAlerts: critical.alerts.length,
      layoutMsMedian: round(median(layoutMs)),
      barsDrawn: lanes.reduce((n, l) => n + l.bars.length, 0),
      bandsDrawn: lanes.reduce((n, l) => n + l.bands.length, 0),
      goalServerUnder1s: serverMs < 1000,
    };
  },
};
