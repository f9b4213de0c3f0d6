import { randomUUID } from "node:crypto";
import type { Database } from "@tidemark/db/client";
import { mergeConfiguration } from "@tidemark/db/configuration";
import { deployDraft } from "@tidemark/db/fleet";
import { ensureSeries, insertPoints } from "@tidemark/db/metrics";
import { testPrisma } from "@tidemark/db/testing";
import type { Configuration } from "@tidemark/model";
import type { ThresholdPolicy } from "@tidemark/thresholds";

export async function benchOrganization(db: Database): Promise<string> {
  const suffix = randomUUID().slice(0, 8);
  const org = await testPrisma(db).organization.create({ data: { slug: `bench-${suffix}`, name: `Bench ${suffix}` } });
  return org.id;
}

/** Who benches' writes are audited as: the system, named "bench" (bench organisations have no members). */
export function benchActor(organizationId: string) {
  return { organizationId, userId: null, kind: "system" as const, name: "bench" };
}

export function expressionPolicy(source: string, calcMethod: ">" | "<" | "=", warning: number, critical: number): ThresholdPolicy {
  return {
    periods: [
      {
        months: [],
        weeks: [],
        calcMethod,
        warning,
        critical,
        hours: { entries: Array.from({ length: 24 }, () => ({ kind: "expression" as const, source })), levels: Array(24).fill(null) },
      },
    ],
    holidays: [],
    nullState: "UNKNOWN",
    maxSoft: 3,
    timeZone: "UTC",
  };
}

/** Imports and deploys (the worker evaluates the deployed version). */
export async function importBench(db: Database, organizationId: string, configuration: Configuration): Promise<void> {
  await mergeConfiguration(db, benchActor(organizationId), configuration);
  await deployDraft(db, { organizationId, createdBy: null, message: "bench" });
}

/** Prefills `perSeries` points per series, `stepMs` apart, ending at `end`. */
export async function prefill(
  db: Database,
  organizationId: string,
  keys: string[],
  perSeries: number,
  stepMs: number,
  end: number,
  value: (i: number) => number,
): Promise<number> {
  const ids = await ensureSeries(db, organizationId, keys);
  const points = [];
  for (const id of ids.values()) {
    for (let i = perSeries; i >= 1; i--) points.push({ seriesId: id, ts: new Date(end - i * stepMs), value: value(i) });
  }
  return insertPoints(db, points);
}

/** `count` hosts, each with one shell service of one item on one schedule: the shape of most scenarios. */
export function oneItemPerHost(options: {
  count: number;
  host: string;
  service: string;
  item: string;
  schedule: string;
  policy: ThresholdPolicy | null;
  cacheMaxCount: number;
  execStatement?: string;
}): Configuration {
  return {
    hosts: Array.from({ length: options.count }, (_, i) => ({
      name: `${options.host}${i}`,
      alias: null,
      description: "",
      services: [
        {
          name: options.service,
          description: "",
          schedules: [options.schedule],
          url: "shell://localhost",
          sendServiceData: true,
          items: [
            {
              name: options.item,
              description: "",
              execStatement: options.execStatement ?? "x",
              thresholdClass: null,
              serviceItemClass: null,
              cacheMaxCount: options.cacheMaxCount,
              policy: options.policy,
            },
          ],
        },
      ],
    })),
  };
}
