import { agentSilentReason, agentSilentSince, itemFreshness, STALE_STATUS, staleReason } from "@tidemark/alerts";
import type { Database } from "@tidemark/db/client";
import { loadFreshnessAgents, loadFreshnessItems, type MadeUpResult, queueMadeUpResults } from "@tidemark/db/evaluation";
import { type FireTimes, fireTimes, parseSchedule } from "@tidemark/schedule";

/**
 * Watches for silence: an item without data for its N intervals gets a made-up UNKNOWN "stale"
 * result, and an agent that stopped calling in gets one on its own heartbeat series instead of
 * one per item; both go through the evaluation queue, so they raise, notify and close alerts
 * like any result. The made-up result's time is the instant the silence began, so a worker
 * restarted or running beside another queues the same result, which the evaluator takes once.
 */
export class FreshnessWatch {
  /** Results queued by this worker, so that a silence is reported once per episode. */
  private readonly queued = new Set<string>();
  readonly stats = { staleItems: 0, silentAgents: 0 };

  constructor(
    private readonly db: Database,
    private readonly log: (event: Record<string, unknown>, message: string) => void = () => {},
  ) {}

  async tick(now = Date.now()): Promise<MadeUpResult[]> {
    const [items, agents] = await Promise.all([loadFreshnessItems(this.db), loadFreshnessAgents(this.db)]);
    const lastSeenByAgent = new Map(agents.map((a) => [a.id, a.lastSeenAt]));
    const results: MadeUpResult[] = [];
    let staleItems = 0;
    for (const item of items) {
      const schedules = this.schedulesOf(item.schedules, item.timeZone, item.lastTs);
      const freshness = itemFreshness({
        now,
        schedules,
        lastTs: item.lastTs,
        staleAfterIntervals: item.staleAfterIntervals,
        ...(item.agentId === null ? {} : { agentLastSeen: lastSeenByAgent.get(item.agentId) ?? null }),
      });
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
    for (const agent of agents) {
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

  /** The fire times an item's schedules expect, intervals counted from its last data; unreadable and run-after schedules expect nothing. */
  private schedulesOf(texts: readonly string[], timeZone: string, lastTs: number): FireTimes[] {
    const out: FireTimes[] = [];
    for (const text of texts) {
      try {
        const times = fireTimes(parseSchedule(text), { timeZone, offsetMs: lastTs });
        if (times) out.push(times);
      } catch {
        // Refused at save; an old row that does not parse expects nothing rather than stopping the watch.
      }
    }
    return out;
  }
}
