import { encodeTimeline, itemAlertSettingsSchema, receiverFieldsSchema, receiverProblem, silenceMatchersSchema } from "@tidemark/alerts";
import {
  acknowledgeAlert,
  alertDetail,
  alertTimeline,
  createSilence,
  createWebhook,
  deleteWebhook,
  expireSilence,
  listDeliveries,
  listSilences,
  listWebhooks,
  updateItemAlertSettings,
  updateWebhook,
} from "@tidemark/db/alerts";
import { destinationPolicyFromEnv, refusedServer, refusedUrl } from "@tidemark/outbound";
import { stateSchema } from "@tidemark/thresholds";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { auditedBy } from "../services/audit.ts";
import { createTRPCRouter, editorProcedure, roleAtLeast, viewerProcedure } from "../trpc.ts";

const DAY = 86_400_000;

const timelineInput = z
  .object({
    from: z.date(),
    to: z.date(),
    severities: z
      .array(stateSchema.exclude(["OK"]))
      .max(3)
      .default([]),
    status: z.enum(["any", "open", "closed"]).default("any"),
    host: z.string().trim().max(200).nullish(),
    service: z.string().trim().max(200).nullish(),
    acknowledged: z.boolean().nullish(),
    flapping: z.boolean().nullish(),
  })
  .refine((v) => v.from < v.to, "from must be before to")
  .refine((v) => v.to.getTime() - v.from.getTime() <= 400 * DAY, "at most 400 days");

/**
 * A webhook may not point at this machine, its private network or link-local addresses (cloud
 * metadata) unless the installation allows the range (@tidemark/outbound); names are checked
 * again, resolved, at each delivery.
 */
const webhookUrl = z
  .url({ protocol: /^(https?|smtps?)$/ })
  .max(2000)
  .superRefine((url, ctx) => {
    // SMTP servers are judged by the same rule, on their host.
    const refused = refusedUrl(url.replace(/^smtps?:/, "http:"), destinationPolicyFromEnv());
    if (refused) ctx.addIssue({ code: "custom", message: refused });
  })
  .describe("http(s) URL receiving Alertmanager-style POSTs, Alertmanager's base URL, or an SMTP server for email");

/**
 * The kind's URL and recipients fit together, and an SMTP server's name does not resolve to an
 * address the installation refuses (the notifier checks again, on the address it connects to);
 * a clear 400 otherwise.
 */
async function checkReceiver(r: Parameters<typeof receiverProblem>[0]): Promise<void> {
  const problem = receiverProblem(r);
  if (problem) throw new TRPCError({ code: "BAD_REQUEST", message: problem });
  if (r.kind !== "email") return;
  const refused = await refusedServer(r.url, destinationPolicyFromEnv());
  if (refused) throw new TRPCError({ code: "BAD_REQUEST", message: `url: ${refused}` });
}

const silenceInput = z
  .object({
    matchers: silenceMatchersSchema,
    startsAt: z.date().optional(),
    endsAt: z.date(),
    comment: z.string().trim().min(1, "say why").max(1000),
  })
  .refine((v) => (v.startsAt ?? new Date()) < v.endsAt, { message: "the silence must end after it starts", path: ["endsAt"] })
  .refine((v) => v.endsAt.getTime() - (v.startsAt ?? new Date()).getTime() <= 366 * DAY, { message: "at most a year", path: ["endsAt"] });

function notFound(what: string): never {
  throw new TRPCError({ code: "NOT_FOUND", message: `no such ${what} in this organisation` });
}

const silencesRouter = createTRPCRouter({
  list: viewerProcedure
    .input(z.object({ includeExpired: z.boolean().default(false) }))
    .query(({ ctx, input }) => listSilences(ctx.db, ctx.org.id, { includeExpired: input.includeExpired })),
  create: editorProcedure.input(silenceInput).mutation(async ({ ctx, input }) => {
    return createSilence(
      ctx.db,
      ctx.org.id,
      ctx.org.userId,
      { ...input, startsAt: input.startsAt ?? new Date() },
      auditedBy(ctx, (silence) => ({ action: "silence.create", targetType: "silence", targetId: silence.id, after: silence })),
    );
  }),
  expire: editorProcedure.input(z.object({ id: z.uuid() })).mutation(async ({ ctx, input }) => {
    const expired = await expireSilence(
      ctx.db,
      ctx.org.id,
      input.id,
      new Date(),
      auditedBy(ctx, (change) => ({ action: "silence.expire", targetType: "silence", targetId: input.id, ...change })),
    );
    if (!expired) notFound("active silence");
    return expired.after;
  }),
});

const webhooksRouter = createTRPCRouter({
  // Editors only: webhook URLs often carry credentials.
  list: editorProcedure.query(({ ctx }) => listWebhooks(ctx.db, ctx.org.id)),
  /** What every member may see of the receivers: who gets which alerts and how often, without URLs or addresses. */
  receivers: viewerProcedure.query(async ({ ctx }) =>
    (await listWebhooks(ctx.db, ctx.org.id)).map((w) => ({
      id: w.id,
      name: w.name,
      kind: receiverFieldsSchema.shape.kind.catch("webhook").parse(w.kind),
      enabled: w.enabled,
      matchers: receiverFieldsSchema.shape.matchers.catch({}).parse(w.matchers),
      repeatIntervalSeconds: w.repeatIntervalSeconds,
    })),
  ),
  create: editorProcedure
    .input(
      z.object({
        name: z.string().trim().min(1).max(100),
        url: webhookUrl,
        enabled: z.boolean().default(true),
        kind: receiverFieldsSchema.shape.kind.default("webhook"),
        matchers: receiverFieldsSchema.shape.matchers.default({}),
        repeatIntervalSeconds: receiverFieldsSchema.shape.repeatIntervalSeconds.default(null),
        emailTo: receiverFieldsSchema.shape.emailTo.default(null),
        emailFrom: receiverFieldsSchema.shape.emailFrom.default(null),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await checkReceiver(input);
      return createWebhook(
        ctx.db,
        ctx.org.id,
        input,
        auditedBy(ctx, (webhook) => ({
          action: "webhook.create",
          targetType: "webhook",
          targetId: webhook.id,
          after: { name: webhook.name, enabled: webhook.enabled },
        })),
      );
    }),
  update: editorProcedure
    .input(
      z.object({
        id: z.uuid(),
        name: z.string().trim().min(1).max(100).optional(),
        url: webhookUrl.optional(),
        enabled: z.boolean().optional(),
        ...receiverFieldsSchema.partial().shape,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { id, ...patch } = input;
      const current = (await listWebhooks(ctx.db, ctx.org.id)).find((w) => w.id === id);
      if (!current) notFound("webhook");
      await checkReceiver({
        kind: patch.kind ?? receiverFieldsSchema.shape.kind.catch("webhook").parse(current.kind),
        url: patch.url ?? current.url,
        emailTo: patch.emailTo !== undefined ? patch.emailTo : current.emailTo,
        emailFrom: patch.emailFrom !== undefined ? patch.emailFrom : current.emailFrom,
      });
      const changed = await updateWebhook(
        ctx.db,
        ctx.org.id,
        id,
        patch,
        auditedBy(ctx, ({ before, after }) => {
          const summary = (w: { name: string; enabled: boolean; url: string }) => ({
            name: w.name,
            enabled: w.enabled,
            urlChanged: w.url !== before.url,
          });
          return { action: "webhook.update", targetType: "webhook", targetId: id, before: summary(before), after: summary(after) };
        }),
      );
      if (!changed) notFound("webhook");
      return changed.after;
    }),
  delete: editorProcedure.input(z.object({ id: z.uuid() })).mutation(async ({ ctx, input }) => {
    const deleted = await deleteWebhook(
      ctx.db,
      ctx.org.id,
      input.id,
      auditedBy(ctx, (webhook) => ({
        action: "webhook.delete",
        targetType: "webhook",
        targetId: input.id,
        before: { name: webhook.name, enabled: webhook.enabled },
      })),
    );
    if (!deleted) notFound("webhook");
    return { id: input.id };
  }),
  // Everyone sees whether notifications went out; only editors (who see the URLs) see what the receivers answered.
  deliveries: viewerProcedure.input(z.object({ limit: z.number().int().min(1).max(500).default(100) })).query(async ({ ctx, input }) => {
    const deliveries = await listDeliveries(ctx.db, ctx.org.id, { limit: input.limit });
    return roleAtLeast(ctx.org.role, "editor") ? deliveries : deliveries.map((d) => ({ ...d, lastError: null }));
  }),
});

export const alertsRouter = createTRPCRouter({
  /** The timeline in its compact wire form (decodeTimeline from @tidemark/alerts reads it). */
  timeline: viewerProcedure.input(timelineInput).query(async ({ ctx, input }) => {
    const timeline = await alertTimeline(
      ctx.db,
      ctx.org.id,
      { from: input.from, to: input.to },
      {
        severities: input.severities,
        status: input.status,
        host: input.host ?? null,
        service: input.service ?? null,
        acknowledged: input.acknowledged ?? null,
        flapping: input.flapping ?? null,
      },
    );
    return { encoded: encodeTimeline(timeline, input.from.getTime()) };
  }),
  detail: viewerProcedure.input(z.object({ id: z.uuid() })).query(async ({ ctx, input }) => {
    const detail = await alertDetail(ctx.db, ctx.org.id, input.id);
    if (!detail) notFound("alert");
    const deliveries = await listDeliveries(ctx.db, ctx.org.id, { alertId: input.id, limit: 50 });
    return { ...detail, deliveries };
  }),
  acknowledge: editorProcedure
    .input(z.object({ id: z.uuid(), comment: z.string().trim().min(1, "say what you are doing about it").max(1000) }))
    .mutation(async ({ ctx, input }) => {
      const acked = await acknowledgeAlert(
        ctx.db,
        ctx.org.id,
        input.id,
        ctx.org.userId,
        input.comment,
        new Date(),
        auditedBy(ctx, (alert) => ({
          action: "alert.acknowledge",
          targetType: "alert",
          targetId: input.id,
          after: { series: alert.key, comment: input.comment },
        })),
      );
      if (!acked) notFound("alert");
      return acked;
    }),
  updateItemSettings: editorProcedure.input(itemAlertSettingsSchema.extend({ itemId: z.uuid() })).mutation(async ({ ctx, input }) => {
    const { itemId, ...settings } = input;
    const changed = await updateItemAlertSettings(
      ctx.db,
      ctx.org.id,
      itemId,
      settings,
      auditedBy(ctx, (change) => ({ action: "item.alert-settings", targetType: "service_item", targetId: itemId, ...change })),
    );
    if (!changed) notFound("service item");
    return changed.after;
  }),
  silences: silencesRouter,
  webhooks: webhooksRouter,
});
