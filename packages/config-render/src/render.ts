import { intervalMs, isRunnableUrl, seriesKey } from "@tidemark/model";
import type { AgentCheck, AgentConfig } from "@tidemark/protocol";
import { canonicalHash } from "./canonical.ts";
import type { DeploymentSnapshot } from "./snapshot.ts";

/** A check may run at most this long; shorter for services scheduled more often. */
export const DEFAULT_TIMEOUT_MS = 10_000;
const MIN_TIMEOUT_MS = 100;

/** `host-service` with the series-key escaping of `-` and `\`, the id `after:` schedules refer to. */
export function checkId(host: string, service: string): string {
  // seriesKey escapes each part; with an empty item the key ends in the separator, dropped here.
  return seriesKey(host, service, "").slice(0, -1);
}

/** Runs that cannot overlap themselves: a check must end before the next interval starts. */
export function timeoutFor(schedules: readonly string[]): number {
  let timeout = DEFAULT_TIMEOUT_MS;
  for (const schedule of schedules) {
    const ms = intervalMs(schedule);
    if (ms === null) continue;
    timeout = Math.min(timeout, Math.floor(ms * 0.8));
  }
  return Math.max(MIN_TIMEOUT_MS, timeout);
}

const byKey =
  <T>(key: (v: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * The checks one agent runs under a snapshot: the services assigned to it, except calculations
 * and remote-written series (prometheus://), which no agent runs. Sorted, so the same snapshot always renders the same.
 */
export function renderChecks(snapshot: Pick<DeploymentSnapshot, "configuration" | "assignments">, agentId: string): AgentCheck[] {
  const assigned = new Set(snapshot.assignments.filter((a) => a.agentId === agentId).map((a) => `${a.host}\u0000${a.service}`));
  const checks: AgentCheck[] = [];
  for (const host of snapshot.configuration.hosts) {
    for (const service of host.services) {
      // Calculations run in the worker; kept Bischeck URLs (livestatus://, jdbc:) are disabled.
      if (!assigned.has(`${host.name}\u0000${service.name}`) || service.url.startsWith("bischeck://") || !isRunnableUrl(service.url))
        continue;
      if (service.items.length === 0) continue;
      checks.push({
        id: checkId(host.name, service.name),
        host: host.name,
        service: service.name,
        url: service.url,
        schedules: [...service.schedules],
        timeoutMs: timeoutFor(service.schedules),
        items: service.items
          .map((item) => ({ name: item.name, key: seriesKey(host.name, service.name, item.name), exec: item.execStatement }))
          .sort(byKey((i) => i.name)),
      });
    }
  }
  return checks.sort(byKey((c) => c.id));
}

/** The hash the agent config carries: of its checks only, so equal check lists hash equal across versions. */
export function checksHash(checks: readonly AgentCheck[]): string {
  return canonicalHash(checks);
}

/** The agent's configuration; its cron schedules are read in `timeZone`, the organisation's. */
export function renderAgentConfig(
  snapshot: Pick<DeploymentSnapshot, "configuration" | "assignments">,
  agent: { id: string; name: string },
  version: number,
  timeZone = "UTC",
): AgentConfig {
  const checks = renderChecks(snapshot, agent.id);
  return { version, hash: checksHash(checks), agent: agent.name, timeZone, checks };
}
