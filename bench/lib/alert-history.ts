import type { EvaluationOutcome } from "@tidemark/alerts";
import { hardOutcome } from "@tidemark/alerts/testing";
import { applyEvaluations } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { ensureSeries } from "@tidemark/db/metrics";
import { prng } from "@tidemark/db/seed";
import { evaluationRecords } from "@tidemark/db/testing";
import type { State } from "@tidemark/thresholds";

/**
 * Issue 7's load: 10 000 alerts over 30 days on 250 series (50 hosts × 5 services), made through
 * the worker's writes: states, state changes and alerts in one statement per worker-sized batch
 * (applyEvaluations). Shared by the timeline scenarios (query and browser render).
 */

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
export const HISTORY_DAYS = 30;
const HOSTS = 50;
const ITEMS_PER_HOST = 5;
const ALERTS_PER_SERIES = 40;
const BATCH = 5_000;

/** Per alert: a hard WARNING, often a CRITICAL, the recovery, and ten quiet OK results after it. */
function outcomesFor(seriesId: number, key: string, from: number, random: () => number): EvaluationOutcome[] {
  const out: EvaluationOutcome[] = [];
  const spacing = (HISTORY_DAYS * DAY) / ALERTS_PER_SERIES;
  const push = (ts: number, state: State) => out.push(hardOutcome(seriesId, key, ts, state));
  for (let k = 0; k < ALERTS_PER_SERIES; k++) {
    const start = Math.round((from + k * spacing + random() * (spacing - 6 * HOUR)) / MINUTE) * MINUTE;
    const duration = (5 + Math.floor(random() * 235)) * MINUTE;
    push(start, "WARNING");
    if (random() < 0.5) push(start + Math.min(duration / 2, 30 * MINUTE), "CRITICAL");
    for (let i = 0; i <= 10; i++) push(start + duration + i * 5 * MINUTE, "OK");
  }
  return out;
}

export interface AlertHistory {
  results: number;
  series: number;
  alertsOpened: number;
  applyEvaluationsMs: number;
}

/** Writes the 30 days of results ending at `end` into the organisation. */
export async function seedAlertHistory(db: Database, organizationId: string, end: number): Promise<AlertHistory> {
  const from = end - HISTORY_DAYS * DAY;
  const keys = Array.from(
    { length: HOSTS * ITEMS_PER_HOST },
    (_, i) => `host${String(Math.floor(i / ITEMS_PER_HOST)).padStart(3, "0")}-svc${i % ITEMS_PER_HOST}-value`,
  );
  const ids = await ensureSeries(db, organizationId, keys);
  const random = prng(7);
  const outcomes = keys.flatMap((k) => outcomesFor(ids.get(k) as number, k, from, random)).sort((a, b) => a.ts.getTime() - b.ts.getTime());

  let applyEvaluationsMs = 0;
  let alertsOpened = 0;
  const previous = new Map<number, State>();
  for (let i = 0; i < outcomes.length; i += BATCH) {
    const batch = outcomes.slice(i, i + BATCH);
    const records = evaluationRecords(batch, previous);
    const t0 = performance.now();
    alertsOpened += (await applyEvaluations(db, organizationId, batch, { records })).opened;
    applyEvaluationsMs += performance.now() - t0;
  }
  return { results: outcomes.length, series: keys.length, alertsOpened, applyEvaluationsMs };
}
