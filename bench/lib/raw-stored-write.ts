import type { Database } from "@tidemark/db/client";
import { insertPoints } from "@tidemark/db/metrics";
import { execute, queryRows } from "@tidemark/db/testing";
import { postgresServerCpuMs } from "./server-cpu.ts";
import { cpuMs } from "./stats.ts";
import { walPosition } from "./wal.ts";

/**
 * The raw limit of a pipeline cycle, measured in the run that measured the cycle: the rows one
 * cycle stores, each kind written straight into its table by one plain statement — no queue, no
 * lookups, no decisions. Two figures come out of it:
 *
 * - `pointsMs`: the cycle's points alone (the `cycleToRawInsertRatio` denominator): a point in
 *   each series the last cycle stored a point in, at a new instant — the same points, as the
 *   pipeline writes them, each appended at its own series' end of the index;
 * - `pointsIntoOneSeriesMs`: as many points into one series (the denominator until the sixth
 *   round, kept to compare): all appended at one place in the index, 10–27 % cheaper than the
 *   cycle's 6 000 places in issue 22's sixth round;
 * - `storedMs`: the points plus every row a cycle durably stores besides them — each evaluated
 *   series' latest state (`item_states`), its alert memory (`alert_tracks`) and the cycle's state
 *   changes — counted in the database after the cycle, not assumed;
 * - `storedWalBytes`: the write-ahead log those raw writes produce, against which a cycle's own
 *   tells whether the pipeline writes more than what it stores needs.
 *
 * Each write goes three times with new instants (the median is kept, as one short write on a
 * shared machine varies 3×). Run after the measured cycles: it overwrites the series' states.
 */
export async function rawWriteOfOneCycle(
  db: Database,
  organizationId: string,
  { lastCycleTs, freshFromMs }: { lastCycleTs: number; freshFromMs: number },
) {
  const [counts] = await queryRows<{ cycleSeries: number[]; states: number[]; tracks: number[]; changes: number; probe: number }>(
    db,
    `SELECT (SELECT coalesce(array_agg(p.series_id::float8), '{}') FROM metric_points p
              WHERE p.organization_id = $1 AND p.ts >= to_timestamp($2::float8 / 1000)) AS "cycleSeries",
            (SELECT array_agg(series_id::float8) FROM item_states WHERE organization_id = $1) AS states,
            (SELECT array_agg(series_id::float8) FROM alert_tracks WHERE organization_id = $1) AS tracks,
            (SELECT count(*)::int FROM state_changes WHERE organization_id = $1 AND ts >= to_timestamp($2::float8 / 1000)) AS changes,
            (SELECT min(id)::float8 FROM series WHERE organization_id = $1) AS probe`,
    [organizationId, lastCycleTs],
  );
  const cycleSeries = counts?.cycleSeries ?? [];
  const states = counts?.states ?? [];
  const tracks = counts?.tracks ?? [];
  const changes = counts?.changes ?? 0;
  const probe = counts?.probe ?? 0;

  // Each round's wall time, PostgreSQL's CPU for it and the WAL it wrote (both null on the
  // embedded server, which is this process).
  const rounds = async (write: (round: number) => Promise<unknown>) => {
    const measured: { wallMs: number; serverCpuMs: number | null; walBytes: number | null }[] = [];
    for (let round = 1; round <= 3; round++) {
      const wal = await walPosition(db);
      const server = db.info.embedded ? null : postgresServerCpuMs();
      const { wallMs } = await cpuMs(() => write(round));
      const serverCpuMs = server === null ? null : postgresServerCpuMs() - server;
      const walAfter = await walPosition(db);
      measured.push({ wallMs, serverCpuMs, walBytes: wal === null || walAfter === null ? null : walAfter - wal });
    }
    return measured;
  };
  const middle = (values: number[]) => values.sort((a, b) => a - b)[1]!;
  const middleOrNull = (values: (number | null)[]) => (values.some((v) => v === null) ? null : middle(values.map((v) => v ?? 0)));
  // The median round's wall time, and the medians of the rounds' PostgreSQL CPU and WAL.
  const median = async (write: (round: number) => Promise<unknown>) => {
    const measured = await rounds(write);
    return {
      ms: middle(measured.map((r) => r.wallMs)),
      // Ticks of 10 ms: the median of three rounds of tens of milliseconds each.
      serverCpuMs: middleOrNull(measured.map((r) => r.serverCpuMs)),
      walBytes: middleOrNull(measured.map((r) => r.walBytes)),
    };
  };
  // New instants per round and per kind, clear of everything the cycles wrote.
  const instant = (kind: number, round: number, i = 0) => new Date(freshFromMs + (kind * 10 + round) * 1_000_000 + i);

  const pointsWrite = await median((round) =>
    insertPoints(
      db,
      cycleSeries.map((seriesId, i) => ({ seriesId, ts: instant(4, round), value: i })),
    ),
  );
  const { ms: pointsIntoOneSeriesMs } = await median((round) =>
    insertPoints(
      db,
      cycleSeries.map((_, i) => ({ seriesId: probe, ts: instant(0, round, i), value: i })),
    ),
  );
  const statesWrite = await median((round) =>
    execute(
      db,
      `INSERT INTO item_states (organization_id, series_id, ts, state, hard_state, soft_count)
       SELECT $3::uuid, unnest($1::bigint[]), $2::timestamptz, 'OK', 'OK', 0
       ON CONFLICT (organization_id, series_id) DO UPDATE SET ts = excluded.ts, state = excluded.state, hard_state = excluded.hard_state, soft_count = excluded.soft_count`,
      [states, instant(1, round).toISOString(), organizationId],
    ),
  );
  const tracksWrite = await median((round) =>
    execute(
      db,
      `INSERT INTO alert_tracks (organization_id, series_id, recent_states, flapping, flap_percent, recovering_since, last_ts)
       SELECT $3::uuid, unnest($1::bigint[]), 'OOOOOOOOOOOOOOOOOOOOO', false, 0, NULL, $2::timestamptz
       ON CONFLICT (organization_id, series_id) DO UPDATE SET recent_states = excluded.recent_states, flapping = excluded.flapping,
         flap_percent = excluded.flap_percent, recovering_since = excluded.recovering_since, last_ts = excluded.last_ts`,
      [tracks, instant(2, round).toISOString(), organizationId],
    ),
  );
  const changesWrite = await median((round) =>
    execute(
      db,
      `INSERT INTO state_changes (organization_id, series_id, ts, state, hard, value, threshold, warning, critical, explanation)
       SELECT $3::uuid, unnest($1::bigint[]), $2::timestamptz, 'WARNING', false, 1, 1, 1, 2, 'raw'`,
      [states.slice(0, changes), instant(3, round).toISOString(), organizationId],
    ),
  );
  const kinds = {
    points: pointsWrite,
    itemStates: statesWrite,
    alertTracks: tracksWrite,
    stateChanges: changesWrite,
  };
  const walBytes = Object.values(kinds).some((k) => k.walBytes === null)
    ? null
    : Object.fromEntries(Object.entries(kinds).map(([kind, k]) => [kind, k.walBytes ?? 0]));
  return {
    rows: { points: cycleSeries.length, itemStates: states.length, alertTracks: tracks.length, stateChanges: changes },
    ms: {
      points: Math.round(pointsWrite.ms),
      pointsIntoOneSeries: Math.round(pointsIntoOneSeriesMs),
      itemStates: Math.round(statesWrite.ms),
      alertTracks: Math.round(tracksWrite.ms),
      stateChanges: Math.round(changesWrite.ms),
    },
    walBytes,
    pointsMs: pointsWrite.ms,
    pointsServerCpuMs: pointsWrite.serverCpuMs,
    pointsIntoOneSeriesMs,
    storedMs: Object.values(kinds).reduce((sum, k) => sum + k.ms, 0),
    storedWalBytes: walBytes === null ? null : Object.values(walBytes).reduce((sum, bytes) => sum + bytes, 0),
  };
}
