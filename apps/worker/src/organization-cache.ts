import type { Database } from "@tidemark/db/client";
import { configurationRevision, type EvaluatedItem, loadAgentHeartbeatItems, loadEvaluatedItems } from "@tidemark/db/evaluation";
import { type HistoryNeeds, mergeNeed, policyNeeds, sourceNeeds } from "./history-needs.ts";

/** What the evaluator knows about one organisation's configuration. */
export interface OrganizationConfig {
  organizationId: string;
  revision: string;
  bySeriesId: Map<number, EvaluatedItem>;
  seriesIdByKey: Map<string, number>;
  /**
   * The series of the deployed items that are also service items at `revision`: those whose
   * points the ingest accepts by key, so the worker stores its own results by series id.
   */
  serviceItemSeriesIdByKey: Map<string, number>;
  /** History the organisation's thresholds and calculations read, by series key. */
  needs: HistoryNeeds;
  /** The series keys each item's threshold reads. */
  readsBySeriesId: Map<number, string[]>;
}

/**
 * Per-organisation configuration, reloaded when its revision changes (checked at most every
 * `checkEveryMs`), so an edited threshold takes effect within seconds without a restart.
 */
export class OrganizationCache {
  private readonly entries = new Map<string, { config: OrganizationConfig; checkedAt: number }>();

  constructor(
    private readonly db: Database,
    private readonly checkEveryMs = 5000,
    /** Extra sources read by this worker (calculations), by organisation. */
    private readonly extraSources: (
      organizationId: string,
    ) => { source: string; macros: { host: string; service: string; item: string } }[] = () => [],
  ) {}

  async get(organizationId: string, now = Date.now()): Promise<OrganizationConfig> {
    const entry = this.entries.get(organizationId);
    if (entry && now - entry.checkedAt < this.checkEveryMs) return entry.config;
    const revision = await configurationRevision(this.db, organizationId);
    if (entry && entry.config.revision === revision) {
      entry.checkedAt = now;
      return entry.config;
    }
    // Agents are items too, for their own alerts (when they stop calling in).
    const items = [...(await loadEvaluatedItems(this.db, organizationId)), ...(await loadAgentHeartbeatItems(this.db, organizationId))];
    const needs: HistoryNeeds = new Map();
    const readsBySeriesId = new Map<number, string[]>();
    for (const item of items) {
      if (!needs.has(item.seriesKey)) needs.set(item.seriesKey, { count: 1, lookbackMs: 0, toOldest: false });
      if (!item.policy) continue;
      const own = policyNeeds(item.policy, { host: item.host, service: item.service, item: item.item });
      readsBySeriesId.set(item.seriesId, [...own.keys()]);
      for (const [key, need] of own) mergeNeed(needs, key, need);
    }
    for (const { source, macros } of this.extraSources(organizationId)) sourceNeeds(source, macros, needs);
    for (const item of items) {
      const need = needs.get(item.seriesKey);
      if (need) need.intervalMs = item.intervalMs;
    }
    const config: OrganizationConfig = {
      organizationId,
      revision,
      bySeriesId: new Map(items.map((i) => [i.seriesId, i])),
      seriesIdByKey: new Map(items.map((i) => [i.seriesKey, i.seriesId])),
      // The revision was read before the items: they are of that revision or newer, and a newer
      // one fails the ingest's check of the revision, never the other way round.
      serviceItemSeriesIdByKey: new Map(items.filter((i) => i.itemId !== "").map((i) => [i.seriesKey, i.seriesId])),
      needs,
      readsBySeriesId,
    };
    this.entries.set(organizationId, { config, checkedAt: now });
    return config;
  }

  /** Forces a reload on next use (after this worker changed the configuration itself). */
  invalidate(organizationId: string): void {
    this.entries.delete(organizationId);
  }
}
