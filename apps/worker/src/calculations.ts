import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { checkId } from "@tidemark/config-render";
import type { Database } from "@tidemark/db/client";
import {
  type CalculationService,
  claimCalculationRuns,
  deployedConfigurationRevision,
  type FinishedRun,
  finishCalculationRuns,
  loadCalculationServices,
  loadLastPointTimes,
} from "@tidemark/db/evaluation";
import { COPY_FROM_POINTS, ingestByKnownSeries } from "@tidemark/db/metrics";
import { evaluate } from "@tidemark/expr";
import type { CheckResult } from "@tidemark/protocol";
import { sourceNeeds } from "./history-needs.ts";
import type { OrganizationCache, OrganizationConfig } from "./organization-cache.ts";
import { latestDue, nextDue, parseSchedule, type Schedule } from "./schedule.ts";
import type { OrganizationWindows, SeriesWindow } from "./series-window.ts";
import { refreshWindow } from "./window-loader.ts";

interface Scheduled {
  service: CalculationService;
  schedules: Schedule[];
  lastDue: number;
  /** When one of its timed schedules next falls due after `lastDue` (Infinity: never): not looked at before. */
  nextDue: number;
}

/**
 * How far back a service's first look reaches. A worker (re)started moments after a run fell due
 * still makes that run, once (latestDue finds only the latest instant), unless another worker or
 * its own previous life made it already: the instant's claim refuses it while it holds or once it
 * was finished (and a run made twice stores nothing twice). Looking from the first tick on lost
 * every run that fell due while the process was down or starting: a gap in each calculated series
 * at every restart.
 */
export const FIRST_LOOK_BACK_MS = 60_000;

/** The revision runs are claimed with before the calculations were read from the configuration (runAll called directly). */
const UNREAD_REVISION = "";

/**
 * By organisation, a digest of its calculations as read (services, schedules, items, time zone):
 * equal on workers that read the same, whatever else changed in the database. Runs are claimed
 * with it (claimCalculationRuns), so that a draft edit or another organisation's deployment does
 * not set workers' claims apart.
 */
function calculationDigests(services: CalculationService[]): Map<string, string> {
  const byOrganization = new Map<string, CalculationService[]>();
  for (const service of services) {
    const list = byOrganization.get(service.organizationId);
    if (list) list.push(service);
    else byOrganization.set(service.organizationId, [service]);
  }
  const digests = new Map<string, string>();
  for (const [organizationId, list] of byOrganization) {
    list.sort((a, b) => (a.serviceId < b.serviceId ? -1 : a.serviceId > b.serviceId ? 1 : 0));
    digests.set(organizationId, createHash("sha256").update(JSON.stringify(list)).digest("base64url"));
  }
  return digests;
}

/** The earliest instant after `since` at which one of the schedules falls due. */
function earliestDue(schedules: Schedule[], since: number): number {
  let earliest = Number.POSITIVE_INFINITY;
  for (const schedule of schedules) earliest = Math.min(earliest, nextDue(schedule, since) ?? Number.POSITIVE_INFINITY);
  return earliest;
}

/**
 * How a tick's results are stored: from `fromResults` results on, as `parts` statements sent at
 * once, each holding whole runs. Storing is PostgreSQL's work, which one statement does on one
 * core while the worker waits. On two cores (bench `bischeck-0.4.2`, interleaved pairs) two
 * statements took the calculations' phase from 119–120 to 90–98 ms a 3 000-run tick and from
 * 1 293–1 433 to 1 103–1 328 ms a 30 000-run tick; three or four parts were no faster than two.
 * Below `fromResults`, one statement: each part still goes through COPY (COPY_FROM_POINTS), and a
 * small tick is not worth a second connection.
 */
export interface ResultStoreSplit {
  fromResults: number;
  parts: number;
}
export const RESULT_STORE_SPLIT: ResultStoreSplit = { fromResults: 2 * COPY_FROM_POINTS, parts: 2 };

/** A run and the results of its items. */
interface ComputedRun {
  run: { service: CalculationService; dueMs: number };
  results: CheckResult[];
}

/**
 * The runs in consecutive parts of about as many results (one a calculation item) each, a run
 * never split and runs without items left out: `parts` of them from `fromResults` results on,
 * else one; none when there is nothing to store.
 */
function splitByResults<R extends { service: CalculationService }>(runs: readonly R[], { fromResults, parts }: ResultStoreSplit): R[][] {
  const storing = runs.filter((r) => r.service.items.length > 0);
  const total = storing.reduce((n, r) => n + r.service.items.length, 0);
  if (total === 0) return [];
  if (total < fromResults) return [storing];
  const out: R[][] = [[]];
  let sum = 0;
  for (const r of storing) {
    if (sum >= (total * out.length) / parts && out[out.length - 1]!.length > 0) out.push([]);
    out[out.length - 1]!.push(r);
    sum += r.service.items.length;
  }
  return out;
}

/** A service as `after:` schedules name it, within its organisation. */
const serviceKey = (organizationId: string, service: string) => `${organizationId}\0${service}`;
const keyOf = (service: CalculationService) => serviceKey(service.organizationId, checkId(service.host, service.service));

type Macros = { host: string; service: string; item: string };
type CalculationItem = CalculationService["items"][number];

/**
 * The macros an item's expression is evaluated with: one object per item, since @tidemark/expr
 * resolves a name's key once per macros object. A fresh object per run resolved every key again
 * and added an entry a run to the compiled expression's cache of resolved keys (a WeakMap, which
 * the collector has to sweep): at 3 000 jobs, 1.4 MB a cycle of the bench's allocations.
 */
const itemMacros = new WeakMap<CalculationItem, Macros>();
function macrosOf(service: CalculationService, item: CalculationItem): Macros {
  let macros = itemMacros.get(item);
  if (macros === undefined) {
    macros = { host: service.host, service: service.service, item: item.name };
    itemMacros.set(item, macros);
  }
  return macros;
}

/** What an item's reads depend on: its macros and its source. */
function itemIdentity(service: CalculationService, item: CalculationItem): string {
  return `${service.host}\0${service.service}\0${item.name}\0${item.execStatement}`;
}

/**
 * Runs every bischeck:// calculation on its schedules. All runs due at a tick are claimed,
 * computed and stored together (a few statements, however many services), through the ingest
 * path, so that each result is evaluated against its threshold like any point, and a run taken
 * over from a dead worker stores nothing twice.
 */
export class CalculationScheduler {
  private scheduled = new Map<string, Scheduled>();
  /** Calculations scheduled `after:` a service, by that service's key. */
  private followers = new Map<string, Scheduled[]>();
  /** Services followed that the worker does not run (agents run them): when each last stored a result. */
  private agentLeaders = new Map<string, { organizationId: string; service: string; lastResult: number | null }>();
  /** The series of each followed agent-run service, by its key, as of the organisation's configuration they were found in. */
  private leaderSeries = new Map<string, { config: OrganizationConfig; byLeader: Map<string, number[]> }>();
  /** The series each item's expression reads, by host, service, item and source: resolved once, not at every run. */
  private readsByItem = new Map<string, string[]>();
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** The deployed configuration's revision the calculations were read at (null: not read yet). */
  private revision: string | null = null;
  /** By organisation, what its runs are claimed with (calculationDigests). */
  private digests = new Map<string, string>();
  /** `loads`: how many times the calculations were read. */
  readonly stats = { runs: 0, failures: 0, loads: 0 };

  constructor(
    private readonly db: Database,
    private readonly organizations: OrganizationCache,
    private readonly windows: OrganizationWindows,
    private readonly log: (event: Record<string, unknown>, message: string) => void,
    /** How often the deployed configuration's revision is looked at. */
    private readonly reloadEveryMs = 10_000,
    private readonly split: ResultStoreSplit = RESULT_STORE_SPLIT,
  ) {}

  /**
   * Re-reads the calculations when the deployed configuration changed. Reading them all at
   * every look cost a 30 000-service fleet 0.8 s of CPU a cycle and as much again in garbage
   * collection, for nothing most of the time.
   */
  private async refresh(now: number): Promise<void> {
    this.checkedAt = now;
    // Read before the calculations: a change landing between the two is seen at the next look.
    const revision = await deployedConfigurationRevision(this.db);
    if (revision === this.revision) return;
    await this.reload(now);
    this.revision = revision;
  }

  private async reload(now: number): Promise<void> {
    const services = await loadCalculationServices(this.db);
    this.stats.loads++;
    const next = new Map<string, Scheduled>();
    for (const service of services) {
      const schedules: Schedule[] = [];
      for (const text of service.schedules) {
        try {
          schedules.push(parseSchedule(text, service.serviceId, service.timeZone));
        } catch (error) {
          this.log({ service: `${service.host}-${service.service}`, schedule: text, err: String(error) }, "schedule ignored");
        }
      }
      const lastDue = this.scheduled.get(service.serviceId)?.lastDue ?? now - FIRST_LOOK_BACK_MS;
      next.set(service.serviceId, { service, schedules, lastDue, nextDue: earliestDue(schedules, lastDue) });
    }
    this.scheduled = next;
    this.digests = calculationDigests(services);
    const calculations = new Set([...next.values()].map((e) => keyOf(e.service)));
    const followers = new Map<string, Scheduled[]>();
    const agentLeaders = new Map<string, { organizationId: string; service: string; lastResult: number | null }>();
    for (const entry of next.values()) {
      for (const schedule of entry.schedules) {
        if (schedule.kind !== "after") continue;
        const leader = serviceKey(entry.service.organizationId, schedule.service);
        followers.set(leader, [...(followers.get(leader) ?? []), entry]);
        if (!calculations.has(leader))
          agentLeaders.set(
            leader,
            this.agentLeaders.get(leader) ?? { organizationId: entry.service.organizationId, service: schedule.service, lastResult: null },
          );
      }
    }
    this.followers = followers;
    this.agentLeaders = agentLeaders;
    this.leaderSeries.clear();
    const current = new Set<string>();
    for (const { service } of next.values()) for (const item of service.items) current.add(itemIdentity(service, item));
    for (const identity of this.readsByItem.keys()) if (!current.has(identity)) this.readsByItem.delete(identity);
  }

  private itemReads(service: CalculationService, item: CalculationItem): string[] {
    const identity = itemIdentity(service, item);
    let keys = this.readsByItem.get(identity);
    if (!keys) {
      keys = [...sourceNeeds(item.execStatement, macrosOf(service, item)).keys()];
      this.readsByItem.set(identity, keys);
    }
    return keys;
  }

  /** The expressions this worker's calculations read for an organisation (sized into its window). */
  sourcesFor(organizationId: string): { source: string; macros: Macros }[] {
    const out: { source: string; macros: Macros }[] = [];
    for (const { service } of this.scheduled.values()) {
      if (service.organizationId !== organizationId) continue;
      for (const item of service.items) out.push({ source: item.execStatement, macros: macrosOf(service, item) });
    }
    return out;
  }

  /** Runs what fell due since the last tick; returns how many runs this worker made. */
  async tick(now = Date.now()): Promise<number> {
    if (now - this.checkedAt >= this.reloadEveryMs) await this.refresh(now);
    const due: { entry: Scheduled; dueMs: number }[] = [];
    // Every second, most services are not due: one comparison each, nothing allocated.
    for (const entry of this.scheduled.values()) {
      if (now < entry.nextDue) continue;
      let dueMs = Number.NEGATIVE_INFINITY;
      for (const schedule of entry.schedules) dueMs = Math.max(dueMs, latestDue(schedule, now, entry.lastDue) ?? Number.NEGATIVE_INFINITY);
      if (!Number.isFinite(dueMs) || dueMs <= entry.lastDue) continue;
      entry.lastDue = dueMs;
      entry.nextDue = earliestDue(entry.schedules, dueMs);
      due.push({ entry, dueMs });
    }
    // `after:host-service` schedules run right after the service they follow (a calculation, or a
    // service an agent runs), in chains of any depth, each service at most once per tick.
    const ran: { key: string; dueMs: number }[] = due.map((d) => ({ key: keyOf(d.entry.service), dueMs: d.dueMs }));
    ran.push(...(await this.agentLeadersThatReported()));
    const running = new Set(due.map((d) => d.entry.service.serviceId));
    for (let i = 0; i < ran.length; i++) {
      for (const follower of this.followers.get(ran[i]!.key) ?? []) {
        if (running.has(follower.service.serviceId)) continue;
        running.add(follower.service.serviceId);
        // The leader's due time, so that every worker claims the same run.
        due.push({ entry: follower, dueMs: ran[i]!.dueMs });
        ran.push({ key: keyOf(follower.service), dueMs: ran[i]!.dueMs });
      }
    }
    return this.runAll(due.map((d) => ({ service: d.entry.service, dueMs: d.dueMs })));
  }

  /**
   * Agent-run services followed by calculations that stored a newer result since the last look
   * (not at the first look). Each look, every second, probes the newest point of the followed
   * services' own series, found in the deployed configuration: matching every series key of the
   * organisation against each service's prefix cost PostgreSQL 0.57–0.62 s a look at 30 000
   * series and 100 followed services.
   */
  private async agentLeadersThatReported(): Promise<{ key: string; dueMs: number }[]> {
    if (this.agentLeaders.size === 0) return [];
    const seriesByLeader = new Map<string, number[]>();
    for (const organizationId of new Set([...this.agentLeaders.values()].map((l) => l.organizationId)))
      for (const [key, ids] of await this.leaderSeriesOf(organizationId)) seriesByLeader.set(key, ids);
    const latest = await loadLastPointTimes(this.db, [...seriesByLeader.values()].flat());
    const reported: { key: string; dueMs: number }[] = [];
    for (const [key, leader] of this.agentLeaders) {
      let ts: number | undefined;
      for (const id of seriesByLeader.get(key) ?? []) {
        const at = latest.get(id);
        if (at !== undefined && (ts === undefined || at > ts)) ts = at;
      }
      if (ts === undefined) continue;
      if (leader.lastResult !== null && ts > leader.lastResult) reported.push({ key, dueMs: ts });
      leader.lastResult = ts;
    }
    return reported;
  }

  /** The series of the organisation's followed agent-run services, found again when its configuration changes. */
  private async leaderSeriesOf(organizationId: string): Promise<Map<string, number[]>> {
    const config = await this.organizations.get(organizationId);
    const known = this.leaderSeries.get(organizationId);
    if (known?.config === config) return known.byLeader;
    const byLeader = new Map<string, number[]>();
    for (const item of config.bySeriesId.values()) {
      const key = serviceKey(organizationId, checkId(item.host, item.service));
      if (!this.agentLeaders.has(key)) continue;
      const ids = byLeader.get(key);
      if (ids) ids.push(item.seriesId);
      else byLeader.set(key, [item.seriesId]);
    }
    this.leaderSeries.set(organizationId, { config, byLeader });
    return byLeader;
  }

  /**
   * Claims, computes and stores runs; returns how many this worker won. The claim and the
   * catch-up of what the runs read go to the database together (a run lost to another worker
   * only read for nothing); then each organisation's results are stored, and the end of every
   * claim is one statement. Runs are claimed per organisation and due instant, with a digest of
   * the organisation's calculations as read (claimCalculationRuns).
   */
  async runAll(runs: { service: CalculationService; dueMs: number }[]): Promise<number> {
    const byOrganization = new Map<string, typeof runs>();
    for (const run of runs) {
      const list = byOrganization.get(run.service.organizationId);
      if (list) list.push(run);
      else byOrganization.set(run.service.organizationId, [run]);
    }
    // Runs due at one instant share its Date (a tick's thousands of runs have a few instants).
    let dueAt = new Date(Number.NaN);
    const claimed = claimCalculationRuns(
      this.db,
      runs.map((run) => {
        if (dueAt.getTime() !== run.dueMs) dueAt = new Date(run.dueMs);
        return {
          organizationId: run.service.organizationId,
          serviceId: run.service.serviceId,
          dueAt,
          revision: this.digests.get(run.service.organizationId) ?? UNREAD_REVISION,
          run,
        };
      }),
      60_000,
    );
    const caughtUp = new Map<string, Promise<void>>();
    for (const [organizationId, orgRuns] of byOrganization) {
      const done = this.catchUp(organizationId, orgRuns);
      // Failures count against the organisation's runs once they are claimed (below), not here.
      done.catch(() => {});
      caughtUp.set(organizationId, done);
    }
    // The claim gives back the runs won as given, each with its run; each ends as it was claimed.
    const won = new Map<(typeof runs)[number], Awaited<typeof claimed>[number]>();
    for (const w of await claimed) won.set(w.run, w);
    let mine = 0;
    const finished: FinishedRun[] = [];
    for (const [organizationId, orgRuns] of byOrganization) {
      const ownRuns = orgRuns.filter((r) => won.has(r));
      if (ownRuns.length === 0) continue;
      mine += ownRuns.length;
      const errors = new Map<string, string>();
      try {
        await caughtUp.get(organizationId);
        await this.compute(organizationId, ownRuns, errors);
      } catch (e) {
        for (const r of ownRuns) errors.set(r.service.serviceId, e instanceof Error ? e.message : String(e));
      }
      for (const r of ownRuns) {
        const error = errors.get(r.service.serviceId) ?? null;
        if (error) {
          this.stats.failures++;
          this.log({ service: `${r.service.host}-${r.service.service}`, err: error }, "calculation failed");
        } else this.stats.runs++;
        // The claim's fields, not a spread of it: the claim carries its run, which the finish does not need.
        const w = won.get(r)!;
        finished.push({ organizationId: w.organizationId, serviceId: w.serviceId, dueAt: w.dueAt, revision: w.revision, error });
      }
    }
    await Promise.allSettled(caughtUp.values());
    await finishCalculationRuns(this.db, finished);
    return mine;
  }

  /** Brings the organisation's calculation window up to date for what the runs read. */
  private async catchUp(organizationId: string, runs: { service: CalculationService }[]): Promise<void> {
    const config = await this.organizations.get(organizationId);
    const reads = new Map<string, number | undefined>();
    for (const { service } of runs)
      for (const item of service.items)
        for (const key of this.itemReads(service, item)) if (!reads.has(key)) reads.set(key, config.seriesIdByKey.get(key));
    await refreshWindow(this.db, this.windows.of(organizationId), config, reads, new Map());
  }

  /**
   * Computes the runs' items and stores their results (RESULT_STORE_SPLIT), each part as soon as
   * it is computed: PostgreSQL stores one part while this process computes the next, where the
   * parts used to wait for every run to be computed. A part that fails records its error on its
   * runs; the other parts' runs stay stored.
   */
  private async compute(
    organizationId: string,
    runs: { service: CalculationService; dueMs: number }[],
    errors: Map<string, string>,
  ): Promise<void> {
    const window = this.windows.of(organizationId);
    const stored: Promise<void>[] = [];
    try {
      for (const part of splitByResults(runs, this.split)) {
        const computed = part.map((run): ComputedRun => ({ run, results: this.results(window, run, errors) }));
        stored.push(
          this.storeResults(organizationId, computed).catch((e: unknown) => {
            for (const { run } of computed) errors.set(run.service.serviceId, e instanceof Error ? e.message : String(e));
          }),
        );
        // The part's statement goes out (its connection taken, its query written) before the next part is computed.
        await nextTurn();
      }
    } finally {
      // Even when computing a later part threw: no store outlives the tick, whose claims end next.
      await Promise.all(stored);
    }
  }

  /** A run's results, one per item; an item whose expression fails gives null and records the error on its run. */
  protected results(
    window: SeriesWindow,
    { service, dueMs }: { service: CalculationService; dueMs: number },
    errors: Map<string, string>,
  ): CheckResult[] {
    const results: CheckResult[] = [];
    for (const item of service.items) {
      let value: number | null = null;
      try {
        value = evaluate(item.execStatement, {
          now: dueMs,
          data: window,
          macros: macrosOf(service, item),
          unknownSeries: "null",
        });
      } catch (e) {
        errors.set(service.serviceId, `${item.seriesKey}: ${e instanceof Error ? e.message : String(e)}`);
      }
      results.push({ key: item.seriesKey, ts: dueMs, value });
    }
    return results;
  }

  /**
   * The part's results through ingest: evaluated like any point, stored once however often a run
   * is made. By series id when the configuration knows every result's series (the ingest by key
   * looks each key up again), by key otherwise or when the configuration changed since.
   */
  protected async storeResults(organizationId: string, part: ComputedRun[]): Promise<void> {
    const first = part[0]!.run;
    const config = await this.organizations.get(organizationId);
    await ingestByKnownSeries(
      this.db,
      {
        organizationId,
        agentId: null,
        batch: { batchId: `calc:${first.service.serviceId}:${first.dueMs}:${part.length}`, results: part.flatMap((c) => c.results) },
      },
      { revision: config.revision, seriesIdByKey: config.serviceItemSeriesIdByKey },
    );
  }
}
