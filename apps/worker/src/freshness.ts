import { agentIdleReason, agentSilentReason, agentSilentSince, itemFreshness, STALE_STATUS, staleAt, staleReason } from "@tidemark/alerts";
import type { Database } from "@tidemark/db/client";
import {
  deployedConfigurationRevision,
  type FreshnessItem,
  loadFreshnessAgents,
  loadFreshnessItems,
  loadLastPointTimes,
  type MadeUpResult,
  queueMadeUpResults,
} from "@tidemark/db/evaluation";
import { type FireTimes, fireTimes, parseSchedule, type Schedule } from "@tidemark/schedule";

/** Items first seen with data after the last load are watched from the next one, at the latest this much later. */
const ITEMS_RELOAD_MS = 60_000;

/**
 * Watches for silence: an item without data for its N intervals gets a made-up UNKNOWN "stale"
 * result, and an agent that stopped calling in gets one on its own heartbeat series instead of
 * one per item; both go through the evaluation queue, so they raise, notify and close alerts
 * like any result. The made-up result's time is the instant the silence began, so a worker
 * restarted or running beside another queues the same result, which the evaluator takes once.
 *
 * The items are loaded with their newest point when the configuration changes (deployedConfigurationRevision)
 * or a minute has passed, not at every look: between loads an item's remembered newest point can
 * only be older than the real one, and an item is only ever fresher with newer data, so an item
 * fresh by what is remembered is fresh, and only the others' newest points are read again.
 */
export class FreshnessWatch {
  /** Results queued by this worker, so that a silence is reported once per episode. */
  private readonly queued = new Set<string>();
  readonly stats = { staleItems: 0, silentAgents: 0 };
  private items: WatchedItem[] = [];
  private itemsRevision: string | null = null;
  private itemsLoadedAt = 0;
  /** Agents' heartbeat series already ensured or found (loadFreshnessAgents). */
  private readonly heartbeatSeries = new Map<string, number>();
  /**
   * The instant of the OK result that closes an idle agent's heartbeat alert, by agent: the first
   * look that found it idle, so that later looks queue the same result until it is evaluated.
   */
  private idleSince = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly log: (event: Record<string, unknown>, message: string) => void = () => {},
  ) {}

  async tick(now = Date.now()): Promise<MadeUpResult[]> {
    const [, agents] = await Promise.all([this.refreshItems(), loadFreshnessAgents(this.db, this.heartbeatSeries)]);
    const lastSeenByAgent = new Map(agents.map((a) => [a.id, a.lastSeenAt]));
    const freshnessOf = (item: WatchedItem) =>
      itemFreshness({
        now,
        schedules: this.fireTimesOf(item),
        lastTs: item.lastTs,
        staleAfterIntervals: item.staleAfterIntervals,
        ...(item.agentId === null ? {} : { agentLastSeen: lastSeenByAgent.get(item.agentId) ?? null }),
      });
    // An item is fresh until it is stale by its remembered newest point: one comparison each.
    const unsure = this.items.filter((item) => {
      const at = this.staleAtOf(item);
      return at !== null && now >= at;
    });
    const newest = await loadLastPointTimes(
      this.db,
      unsure.map((item) => item.seriesId),
    );
    const results: MadeUpResult[] = [];
    let staleItems = 0;
    for (const item of unsure) {
      item.lastTs = Math.max(item.lastTs, newest.get(item.seriesId) ?? item.lastTs);
      const freshness = freshnessOf(item);
      if (freshness.kind !== "stale") continue;
      staleItems++;
      results.push({
        organizationId: item.organizationId,
        seriesId: item.seriesId,
        ts: freshness.since,
        status: STALE_STATUS,
        output: staleReason({ intervals: item.staleAfterIntervals, lastTs: item.lastTs }),
      });
    }
    let silentAgents = 0;
    const idleSince = new Map<string, number>();
    for (const agent of agents) {
      if (!agent.runsServices) {
        // Its services moved away while its heartbeat was not OK: nothing watches it any more,
        // so nothing else would ever close that alert.
        const ts = this.idleSince.get(agent.id) ?? Math.max(now, (agent.heartbeatTs ?? 0) + 1);
        idleSince.set(agent.id, ts);
        results.push({
          organizationId: agent.organizationId,
          seriesId: agent.heartbeatSeriesId,
          ts,
          status: 0,
          output: agentIdleReason(agent.name),
        });
        continue;
      }
      const since = agentSilentSince(now, agent.lastSeenAt);
      if (since !== null) {
        silentAgents++;
        results.push({
          organizationId: agent.organizationId,
          seriesId: agent.heartbeatSeriesId,
          ts: since,
          status: STALE_STATUS,
          output: agentSilentReason(agent.name, agent.lastSeenAt!),
        });
      } else if (
        agent.heartbeatState !== null &&
        agent.heartbeatState !== "OK" &&
        agent.lastSeenAt !== null &&
        agent.lastSeenAt > (agent.heartbeatTs ?? 0)
      ) {
        results.push({
          organizationId: agent.organizationId,
          seriesId: agent.heartbeatSeriesId,
          ts: agent.lastSeenAt,
          status: 0,
          output: `agent ${agent.name} called in again at ${new Date(agent.lastSeenAt).toISOString()}`,
        });
      }
    }
    this.idleSince = idleSince;
    const fresh = results.filter((r) => !this.queued.has(`${r.seriesId}@${r.ts}`));
    await queueMadeUpResults(this.db, fresh);
    for (const r of fresh) this.queued.add(`${r.seriesId}@${r.ts}`);
    if (this.queued.size > 100_000) this.queued.clear();
    if (staleItems !== this.stats.staleItems || silentAgents !== this.stats.silentAgents)
      this.log({ staleItems, silentAgents }, "freshness changed");
    this.stats.staleItems = staleItems;
    this.stats.silentAgents = silentAgents;
    return fresh;
  }

  /** Loads the items again when the configuration changed or ITEMS_RELOAD_MS passed. */
  private async refreshItems(): Promise<void> {
    const revision = await deployedConfigurationRevision(this.db);
    if (revision === this.itemsRevision && Date.now() - this.itemsLoadedAt < ITEMS_RELOAD_MS) return;
    this.itemsLoadedAt = Date.now();
    this.items = (await loadFreshnessItems(this.db)).map((item) => ({
      ...item,
      parsedSchedules: parseSchedules(item.schedules),
      staleAt: null,
      staleAtFrom: Number.NaN,
    }));
    this.itemsRevision = revision;
  }

  /** When the item turns stale by its remembered newest point (remembered until that point moves). */
  private staleAtOf(item: WatchedItem): number | null {
    if (item.staleAtFrom !== item.lastTs) {
      item.staleAt = staleAt(this.fireTimesOf(item), item.lastTs, item.staleAfterIntervals);
      item.staleAtFrom = item.lastTs;
    }
    return item.staleAt;
  }

  /** The fire times an item's schedules expect, intervals counted from its last data. */
  private fireTimesOf(item: WatchedItem): FireTimes[] {
    const out: FireTimes[] = [];
    for (const schedule of item.parsedSchedules) {
      const times = fireTimes(schedule, { timeZone: item.timeZone, offsetMs: item.lastTs });
      if (times) out.push(times);
    }
    return out;
  }
}

interface WatchedItem extends FreshnessItem {
  parsedSchedules: Schedule[];
  /** staleAt for the newest point at `staleAtFrom` (NaN: not computed yet). */
  staleAt: number | null;
  staleAtFrom: number;
}

/** Unreadable schedules expect nothing (refused at save; an old row that does not parse must not stop the watch). */
function parseSchedules(texts: readonly string[]): Schedule[] {
  const out: Schedule[] = [];
  for (const text of texts) {
    try {
      out.push(parseSchedule(text));
    } catch {
      // expects nothing
    }
  }
  return out;
}
