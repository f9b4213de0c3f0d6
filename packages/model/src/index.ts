import { intervalMs, isTimeZone, scheduleProblem } from "@tidemark/schedule";
import { thresholdPolicySchema } from "@tidemark/thresholds/policy";
import * as z from "zod";

/**
 * Tidemark's configuration model (Bischeck's host → service → service item), as zod schemas
 * shared by the API, the forms, the Bischeck importer and the config renderer.
 */

/** Bischeck names may not contain whitespace; `-` is allowed (escaped as `\-` in expressions). */
export const nameSchema = z
  .string()
  .min(1, "name is required")
  .max(128)
  .regex(/^[^\s[\]()$,]+$/, "no spaces, brackets, parentheses, commas or $ in a name");

/**
 * `30S`, `5M`, `1H` intervals; a Quartz cron expression (6 or 7 fields, seconds first, `?` in
 * day-of-month or day-of-week); or `after:host-service` (run after that service). Read by
 * @tidemark/schedule, the same module the agent and the worker run them with; a bad schedule is
 * refused here with the position of the problem.
 */
export const scheduleSchema = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .superRefine((s, ctx) => {
    const problem = scheduleProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: `schedule "${s}": ${problem.message}`, params: { position: problem.position } });
  });

/** An organisation's time zone (IANA name): cron schedules and threshold periods are read in it. */
export const timeZoneSchema = z.string().trim().min(1).max(64).refine(isTimeZone, "an IANA time zone such as UTC or Europe/Stockholm");

export { intervalMs, isTimeZone };

const RUNNABLE_URL = /^(shell|bischeck|https?|postgres(ql)?|scrape\+https?):\/\//;
/**
 * Kept and never run: Bischeck's other service URLs (so an imported configuration loses nothing),
 * and prometheus://remote-write, the services whose series Prometheus remote-writes.
 */
const KEPT_URL = /^(livestatus:\/\/|jdbc:|prometheus:\/\/)/;

/**
 * Who runs the service: the agent (shell, http(s), postgres, scrape+http(s) of a Prometheus metrics
 * page) or the worker (bischeck://cache).
 * `livestatus://` and `jdbc:` URLs (other than PostgreSQL, which the import maps to postgres://)
 * are accepted and kept, but such a service is disabled: nothing runs it (see isRunnableUrl); so is
 * a `prometheus://` service, whose points Prometheus writes.
 */
export const connectionUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .regex(
    new RegExp(`${RUNNABLE_URL.source}|${KEPT_URL.source}`),
    "url must start with shell://, bischeck://, http(s)://, postgres://, scrape+http(s):// or prometheus:// (livestatus:// and jdbc: are kept, disabled)",
  );

/** Whether Tidemark runs a service with this URL; a kept Bischeck URL (livestatus://, jdbc:) is not run. */
export function isRunnableUrl(url: string): boolean {
  return RUNNABLE_URL.test(url.trim());
}

export const serviceItemSchema = z.object({
  name: nameSchema,
  description: z.string().max(1024).default(""),
  /** A check command (agent) or a Bischeck cache expression (worker). */
  execStatement: z.string().min(1).max(8192),
  /** Bischeck class names kept for a faithful export. */
  thresholdClass: z.string().max(128).nullable().default(null),
  serviceItemClass: z.string().max(128).nullable().default(null),
  /** Bischeck cache purge: keep at most this many points (null = keep by retention). */
  cacheMaxCount: z.number().int().positive().nullable().default(null),
  policy: thresholdPolicySchema.nullable().default(null),
});
export type ServiceItem = z.infer<typeof serviceItemSchema>;

export const serviceSchema = z.object({
  name: nameSchema,
  description: z.string().max(1024).default(""),
  schedules: z.array(scheduleSchema).min(1).max(32),
  url: connectionUrlSchema,
  sendServiceData: z.boolean().default(true),
  items: z.array(serviceItemSchema).max(1000),
});
export type Service = z.infer<typeof serviceSchema>;

export const hostSchema = z.object({
  name: nameSchema,
  alias: z.string().max(256).nullable().default(null),
  description: z.string().max(1024).default(""),
  services: z.array(serviceSchema).max(1000),
});
export type Host = z.infer<typeof hostSchema>;

export const configurationSchema = z.object({ hosts: z.array(hostSchema).max(100_000) });
export type Configuration = z.infer<typeof configurationSchema>;

/**
 * `host-service-item`, as Bischeck names a series; a `-` inside a name is escaped as `\-`, the
 * way expressions write it, so that a key always splits back into the same three names.
 */
export { seriesKey, splitSeriesKey } from "@tidemark/expr";
