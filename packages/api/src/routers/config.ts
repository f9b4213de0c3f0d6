import {
  type Actor,
  applyTemplate,
  cloneHost,
  cloneItem,
  cloneService,
  createHost,
  createItem,
  createService,
  deleteHost,
  deleteItem,
  deleteService,
  getHost,
  getItem,
  getService,
  listConfigItems,
  listHosts,
  listServices,
  seriesKeys,
  updateHost,
  updateItem,
  updateService,
} from "@tidemark/db/configuration";
import { assignmentStep, assignServices } from "@tidemark/db/fleet";
import { unknownSeriesKeys } from "@tidemark/db/metrics";
import { hostSchema, nameSchema, serviceItemSchema, serviceSchema } from "@tidemark/model";
import { z } from "zod";
import { editablePolicySchema } from "../inputs/policy.ts";
import { createTRPCRouter, editorProcedure, viewerProcedure } from "../trpc.ts";

/** The configuration screens: hosts, services and items, with the model's own zod schemas. */

export const hostFieldsSchema = hostSchema.omit({ services: true });
export const serviceFieldsSchema = serviceSchema.omit({ items: true });
export const itemFieldsSchema = serviceItemSchema.omit({ policy: true });

const id = z.uuid();
const page = {
  search: z.string().trim().max(200).optional(),
  after: z.string().max(600).nullish(),
  limit: z.number().int().min(1).max(200).default(50),
};
const actorOf = (org: { actor: Actor }): Actor => org.actor;

/** The agent that runs a service: an agent's id, or null for none (calculations always run on the server). */
const agentChoice = id.nullable().optional();

/** Which services a bulk assignment reaches. */
const assignmentTargetSchema = z.union([
  z.object({ serviceIds: z.array(id).min(1).max(10_000) }),
  z.object({ search: z.string().trim().max(200) }),
  z.object({ hostId: id }),
]);

const hostsRouter = createTRPCRouter({
  list: viewerProcedure.input(z.object(page)).query(({ ctx, input }) => listHosts(ctx.db, ctx.org.id, input)),
  get: viewerProcedure.input(z.object({ id })).query(({ ctx, input }) => getHost(ctx.db, ctx.org.id, input.id)),
  create: editorProcedure.input(hostFieldsSchema).mutation(({ ctx, input }) => createHost(ctx.db, actorOf(ctx.org), input)),
  update: editorProcedure
    .input(z.object({ id, fields: hostFieldsSchema }))
    .mutation(({ ctx, input }) => updateHost(ctx.db, actorOf(ctx.org), input.id, input.fields)),
  delete: editorProcedure.input(z.object({ id })).mutation(({ ctx, input }) => deleteHost(ctx.db, actorOf(ctx.org), input.id)),
  clone: editorProcedure
    .input(z.object({ id, name: nameSchema }))
    .mutation(({ ctx, input }) => cloneHost(ctx.db, actorOf(ctx.org), input.id, input.name)),
});

const servicesRouter = createTRPCRouter({
  list: viewerProcedure
    .input(z.object({ ...page, hostId: id.optional() }))
    .query(({ ctx, input }) => listServices(ctx.db, ctx.org.id, input)),
  get: viewerProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const service = await getService(ctx.db, ctx.org.id, input.id);
    return {
      id: service.id,
      hostId: service.hostId,
      host: service.host.name,
      fields: {
        name: service.name,
        description: service.description,
        schedules: service.schedules,
        url: service.url,
        sendServiceData: service.sendServiceData,
      },
      agentId: service.agentId,
    };
  }),
  create: editorProcedure
    .input(z.object({ hostId: id, fields: serviceFieldsSchema, agentId: agentChoice }))
    .mutation(async ({ ctx, input }) => {
      const assign = input.agentId ? await assignmentStep(ctx.db, actorOf(ctx.org), input.agentId) : undefined;
      return createService(ctx.db, actorOf(ctx.org), input.hostId, input.fields, assign);
    }),
  update: editorProcedure.input(z.object({ id, fields: serviceFieldsSchema, agentId: agentChoice })).mutation(async ({ ctx, input }) => {
    const assign = input.agentId === undefined ? undefined : await assignmentStep(ctx.db, actorOf(ctx.org), input.agentId);
    return updateService(ctx.db, actorOf(ctx.org), input.id, input.fields, assign);
  }),
  /** Gives services to an agent (null: to none) in bulk: chosen rows, every row matching a search, or every service of a host. */
  assign: editorProcedure
    .input(z.object({ agentId: id.nullable(), target: assignmentTargetSchema }))
    .mutation(({ ctx, input }) => assignServices(ctx.db, actorOf(ctx.org), input.agentId, input.target)),
  delete: editorProcedure.input(z.object({ id })).mutation(({ ctx, input }) => deleteService(ctx.db, actorOf(ctx.org), input.id)),
  clone: editorProcedure
    .input(z.object({ id, name: nameSchema, hostId: id.optional() }))
    .mutation(({ ctx, input }) => cloneService(ctx.db, actorOf(ctx.org), input.id, input.name, input.hostId)),
});

const itemsRouter = createTRPCRouter({
  list: viewerProcedure
    .input(
      z.object({
        ...page,
        hostId: id.optional(),
        serviceId: id.optional(),
        policy: z.enum(["with", "without"]).optional(),
        runner: z.enum(["shell", "bischeck", "http", "https", "postgres", "postgresql"]).optional(),
        sort: z.enum(["asc", "desc"]).default("asc"),
      }),
    )
    .query(({ ctx, input }) => listConfigItems(ctx.db, ctx.org.id, input)),
  get: viewerProcedure.input(z.object({ id })).query(({ ctx, input }) => getItem(ctx.db, ctx.org.id, input.id)),
  create: editorProcedure
    .input(z.object({ serviceId: id, fields: itemFieldsSchema, policy: editablePolicySchema.nullable().default(null) }))
    .mutation(({ ctx, input }) => createItem(ctx.db, actorOf(ctx.org), input.serviceId, input.fields, input.policy)),
  update: editorProcedure
    .input(z.object({ id, fields: itemFieldsSchema }))
    .mutation(({ ctx, input }) => updateItem(ctx.db, actorOf(ctx.org), input.id, input.fields)),
  delete: editorProcedure.input(z.object({ id })).mutation(({ ctx, input }) => deleteItem(ctx.db, actorOf(ctx.org), input.id)),
  clone: editorProcedure
    .input(z.object({ id, name: nameSchema }))
    .mutation(({ ctx, input }) => cloneItem(ctx.db, actorOf(ctx.org), input.id, input.name)),
  applyTemplate: editorProcedure
    .input(z.object({ name: nameSchema, policy: editablePolicySchema, itemIds: z.array(id).min(1).max(10_000) }))
    .mutation(({ ctx, input }) => applyTemplate(ctx.db, actorOf(ctx.org), input.name, input.policy, input.itemIds)),
});

export const configRouter = createTRPCRouter({
  hosts: hostsRouter,
  services: servicesRouter,
  items: itemsRouter,
  /** Series names for the expression editor's autocomplete. */
  seriesKeys: viewerProcedure
    .input(z.object({ prefix: z.string().max(400), limit: z.number().int().min(1).max(50).default(20) }))
    .query(({ ctx, input }) => seriesKeys(ctx.db, ctx.org.id, input.prefix, input.limit)),
  /** Of the series an expression refers to, those the organisation neither configures nor has data for. */
  unknownSeries: viewerProcedure
    .input(z.object({ keys: z.array(z.string().max(400)).max(200) }))
    .query(({ ctx, input }) => unknownSeriesKeys(ctx.db, ctx.org.id, input.keys)),
});
