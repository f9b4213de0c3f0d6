import { type CalculationService, claimCalculationRun, type Database, finishCalculationRun, ingestBatch, loadCalculationServices } from "@tidemark/db";
import { evaluate } from "@tidemark/expr";
import { sourceNeeds } from "./history-needs.ts";
import type { OrganizationCache } from "./organization-cache.ts";
import { latestDue, parseSchedule, type Schedule } from "./schedule.ts";
import type { SeriesWindow } from "./series-window.ts";
import { refreshWindow } from "./window-loader.ts";

interface Scheduled {
  service: CalculationService;
  schedules: Schedule[];
  lastDue: number;
}

export interface CalculationStats {
  runs: number;
  failures: number;
}

/**
 * Runs every bischeck:// calculation on its schedules. Each result is stored like an agent's
 * (through the ingest path, batch id `calc:<service>:<due>`), so it is evaluated against its
 * threshold like any point, and a run repeated by a second worker stores nothing twice.
 */
export class CalculationScheduler {
  private scheduled = new Map<string, Scheduled>();
  private loadedAt = 0;
  readonly stats: CalculationStats = { runs: 0, failures: 0 };

  constructor(
    private readonly db: Database,
    private readonly organizations: OrganizationCache,
    private readonly window: SeriesWindow,
    private readonly log: (event: Record<string, unknown>, message: string) => void,
    private readonly reloadEveryMs = 10_000,
  ) {}

  private async reload(now: number): Promise<void> {
    const services = await loadCalculationServices(this.db);
    const next = new Map<string, Scheduled>();
    for (const service of services) {
      const schedules: Schedule[] = [];
      for (const text of service.schedules) {
        try {
          schedules.push(parseSchedule(text, service.serviceId));
        } catch (error) {
          this.log({ service: `${service.host}-${service.service}`, schedule: text, err: String(error) }, "schedule ignored");
        }
      }
      next.set(service.serviceId, { service, schedules, lastDue: this.scheduled.get(service.serviceId)?.lastDue ?? now });
    }
    this.scheduled = next;
    this.loadedAt = now;
  }

  /** The expressions this worker's calculations read for an organisation (sized into its window). */
  sourcesFor(organizationId: string): { source: string; macros: { host: string; service: string; item: string } }[] {
    const out: { source: string; macros: { host: string; service: string; item: string } }[] = [];
    for (const { service } of this.scheduled.values()) {
      if (service.organizationId !== organizationId) continue;
      for (const item of service.items) out.push({ source: item.execStatement, macros: { host: service.host, service: service.service, item: item.name } });
    }
    return out;
  }

  /** Runs what fell due since the last tick; returns how many runs this worker made. */
  async tick(now = Date.now()): Promise<number> {
    if (now - this.loadedAt >= this.reloadEveryMs) await this.reload(now);
    let ran = 0;
    const done: string[] = [];
    for (const entry of this.scheduled.values()) {
      const due = Math.max(...entry.schedules.map((s) => latestDue(s, now, entry.lastDue) ?? Number.NEGATIVE_INFINITY));
      if (!Number.isFinite(due) || due <= entry.lastDue) continue;
      entry.lastDue = due;
      if (await this.run(entry.service, due)) ran++;
      done.push(`${entry.service.host}-${entry.service.service}`);
    }
    // `after:host-service` schedules run right after the service they follow.
    for (const name of done) {
      for (const entry of this.scheduled.values()) {
        if (entry.schedules.some((s) => s.kind === "after" && s.service === name) && (await this.run(entry.service, now))) ran++;
      }
    }
    return ran;
  }

  async run(service: CalculationService, dueMs: number): Promise<boolean> {
    const dueAt = new Date(dueMs);
    if (!(await claimCalculationRun(this.db, service.serviceId, dueAt, 60_000))) return false;
    let error: string | null = null;
    try {
      const config = await this.organizations.get(service.organizationId);
      const client = await this.db.pool.connect();
      try {
        const reads = new Map();
        for (const item of service.items) sourceNeeds(item.execStatement, { host: service.host, service: service.service, item: item.name }, reads);
        await refreshWindow(client, this.window, config, reads.keys(), new Map());
      } finally {
        client.release();
      }
      const results = service.items.map((item) => {
        let value: number | null = null;
        try {
          value = evaluate(item.execStatement, {
            now: dueMs,
            data: this.window,
            macros: { host: service.host, service: service.service, item: item.name },
            unknownSeries: "null",
          });
        } catch (e) {
          error = `${item.seriesKey}: ${e instanceof Error ? e.message : String(e)}`;
        }
        return { key: item.seriesKey, ts: dueMs, value };
      });
      if (results.length > 0) {
        await ingestBatch(this.db, {
          organizationId: service.organizationId,
          agentId: null,
          batch: { batchId: `calc:${service.serviceId}:${dueMs}`, results },
        });
      }
      this.stats.runs++;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      if (error) {
        this.stats.failures++;
        this.log({ service: `${service.host}-${service.service}`, err: error }, "calculation failed");
      }
      await finishCalculationRun(this.db, service.serviceId, dueAt, error);
    }
    return true;
  }
}
