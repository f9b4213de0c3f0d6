import { getItem, getItemValueBounds, itemDeploymentStatus, saveItemPolicy, setItemValueBounds } from "@tidemark/db/configuration";
import { deployedItemPolicy } from "@tidemark/db/fleet";
import { loadSuggestionHistory, PROMETHEUS_SERVICE_URL } from "@tidemark/db/metrics";
import { prometheusSelector, renderRuleGroup } from "@tidemark/prometheus";
import { fitSuggestion } from "@tidemark/suggest";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { editablePolicySchema } from "../inputs/policy.ts";
import { createTRPCRouter, editorProcedure, viewerProcedure } from "../trpc.ts";

/** Physical bounds of an item's values: either end may be open (null); a closed range must not be empty. */
const valueBoundsSchema = z
  .object({ min: z.number().finite().nullable(), max: z.number().finite().nullable() })
  .refine((b) => b.min === null || b.max === null || b.min < b.max, {
    message: "the lower bound must be below the upper bound",
    path: ["max"],
  });

function refuse(message: string): never {
  throw new TRPCError({ code: "BAD_REQUEST", message });
}

/** The threshold editor: an item's policy, saving it, its values' bounds, and suggestions from history. */
export const thresholdsRouter = createTRPCRouter({
  item: viewerProcedure.input(z.object({ id: z.uuid() })).query(({ ctx, input }) => getItem(ctx.db, ctx.org.id, input.id)),
  /** Whether the saved draft is what the worker evaluates, and if not, what differs (deployed → draft). */
  deployment: viewerProcedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => itemDeploymentStatus(ctx.db, ctx.org.id, input.id)),
  save: editorProcedure
    .input(z.object({ itemId: z.uuid(), policy: editablePolicySchema, revision: z.number().int().positive().nullable() }))
    .mutation(({ ctx, input }) => saveItemPolicy(ctx.db, ctx.org.actor, input.itemId, input.policy, input.revision)),
  /** The bounds declared for the item's values (null ends: not declared). */
  valueBounds: viewerProcedure
    .input(z.object({ itemId: z.uuid() }))
    .query(({ ctx, input }) => getItemValueBounds(ctx.db, ctx.org.id, input.itemId)),
  setValueBounds: editorProcedure
    .input(z.object({ itemId: z.uuid(), bounds: valueBoundsSchema }))
    .mutation(({ ctx, input }) => setItemValueBounds(ctx.db, ctx.org.actor, input.itemId, input.bounds)),
  /**
   * The item's policy in force — the deployed one the worker evaluates, not the draft — as a
   * Prometheus rule group (YAML for `rule_files:`), saying which version; refused, saying why, when
   * nothing of the item is deployed or PromQL cannot say the policy.
   */
  prometheusRules: viewerProcedure
    .input(
      z.object({
        itemId: z.uuid(),
        /** PromQL selector of the measured series; remote-written items have theirs already. */
        selector: z.string().trim().min(1).max(2000).optional(),
        /** The scrape and rule evaluation interval. */
        intervalSeconds: z.number().int().min(1).max(86_400).default(60),
      }),
    )
    .query(async ({ ctx, input }) => {
      const deployed = await deployedItemPolicy(ctx.db, ctx.org.id, input.itemId);
      if (!deployed) throw new TRPCError({ code: "NOT_FOUND", message: "no such service item in this organisation" });
      if (deployed.status !== "deployed") {
        refuse(
          deployed.status === "not-deployed"
            ? "nothing is deployed yet: the rules are the policy in force (the deployed one, not the draft); deploy first"
            : `the item is not in deployed version ${deployed.version}: the rules are the policy in force, not the draft; deploy first`,
        );
      }
      const { policy } = deployed;
      if (!policy) refuse(`the item has no threshold policy in deployed version ${deployed.version}`);
      const selector =
        input.selector ??
        (deployed.serviceUrl === PROMETHEUS_SERVICE_URL ? prometheusSelector(deployed.host, deployed.service, deployed.item) : undefined);
      if (!selector) refuse("the item is not remote-written by Prometheus: give the PromQL selector of the series measuring it");
      // What PromQL cannot say (RuleExportError) is a 400 with its reason (errors.ts).
      const group = renderRuleGroup({
        key: deployed.seriesKey,
        selector,
        policy,
        intervalSeconds: input.intervalSeconds,
        labels: { host: deployed.host, service: deployed.service, item: deployed.item },
      });
      return {
        selector,
        deploymentVersion: deployed.version,
        yaml: `# Tidemark: the threshold policy of ${deployed.seriesKey} in force (deployed version ${deployed.version})\n${group}`,
      };
    }),
  suggest: viewerProcedure
    .input(
      z.object({
        itemId: z.uuid(),
        policy: editablePolicySchema,
        periodIndex: z.number().int().min(0),
        percentile: z.number().min(0).max(100).default(95),
        alertsPerWeek: z.number().min(0).max(1000).default(1),
        weeks: z.number().int().min(1).max(26).default(4),
        /** Fixed persistence (the policy's maxSoft); null: fitted with the margin. */
        maxSoft: z.number().int().min(0).max(100).nullable().default(null),
        /** Physical bounds for this request (e.g. 0..100 for a percentage); null: the item's declared ones, else detected. */
        bounds: valueBoundsSchema.nullable().default(null),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      if (input.periodIndex >= input.policy.periods.length) throw new TRPCError({ code: "BAD_REQUEST", message: "no such period" });
      const item = await getItem(ctx.db, ctx.org.id, input.itemId);
      // The request's bounds win; then the item's declared ones (both ends open: none declared, detect).
      const saved = await getItemValueBounds(ctx.db, ctx.org.id, item.id);
      const declared = input.bounds ?? (saved.min === null && saved.max === null ? null : saved);
      const history = await loadSuggestionHistory(ctx.db, ctx.org.id, item.seriesKey, input.weeks);
      const suggestion = fitSuggestion({ ...input, ...history, bounds: declared, seriesKey: item.seriesKey });
      return { ...suggestion, buckets: history.hourly.length };
    }),
});
