import type { Configuration } from "@tidemark/model";
import { expressionPolicy } from "./fixtures.ts";

/**
 * Bischeck 0.4.2's published benchmark shape (seeds/000): N service jobs every 30 s, each an
 * average over another job's last ten cached points, with a Twenty4Hour threshold on each
 * (Bischeck's benchmark/ configuration). Every cycle: the N random-number checks arrive through
 * the ingest path, the N bischeck:// calculations run, and the worker evaluates all 2N points.
 */
export const BISCHECK_042_INTERVAL_MS = 30_000;

export function bischeck042Configuration(n: number): Configuration {
  const threshold = expressionPolicy("avg($$HOSTNAME$$-rand-number[10:19])", ">", 5, 10);
  return {
    hosts: Array.from({ length: n }, (_, i) => ({
      name: `host${i}`,
      alias: null,
      description: "",
      services: [
        {
          name: "rand",
          description: "",
          schedules: ["30S"],
          url: "shell://localhost",
          sendServiceData: true,
          items: [
            {
              name: "number",
              description: "",
              execStatement: "10.0",
              thresholdClass: null,
              serviceItemClass: "Random",
              cacheMaxCount: 200,
              policy: null,
            },
          ],
        },
        {
          name: "avgrand",
          description: "",
          schedules: ["30S"],
          url: "bischeck://cache",
          sendServiceData: true,
          items: [
            {
              name: "avg",
              description: "",
              execStatement: "avg($$HOSTNAME$$-rand-number[0:9])",
              thresholdClass: "Twenty4HourThreshold",
              serviceItemClass: "CalculateOnCache",
              cacheMaxCount: 200,
              policy: threshold,
            },
          ],
        },
      ],
    })),
  };
}

/** The N random-number checks' series keys. */
export function randKeys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `host${i}-rand-number`);
}
