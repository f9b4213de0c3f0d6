import { BischeckImportError, exportBischeck, filesFromDirectory, importBischeck, importPreview, redactUrl } from "@tidemark/bischeck";
import { agentForHost, assignByHostRules, hostAgentRuleSchema } from "@tidemark/config-render";
import type { Database } from "@tidemark/db/client";
import { existingHosts, existingServices, mergeConfiguration } from "@tidemark/db/configuration";
import { activeAgentNames, readDeploymentSource } from "@tidemark/db/fleet";
import type { Configuration } from "@tidemark/model";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createTRPCRouter, editorProcedure, viewerProcedure } from "../trpc.ts";

/** Bischeck import (preview, then commit all or nothing) and export of the organisation's configuration. */

const filesSchema = z.object({
  bischeckXml: z.string().min(1, "bischeck.xml is required").max(20_000_000),
  thresholdsXml: z.string().max(20_000_000).optional(),
  /** Which agent runs the imported hosts' services (first matching rule); none: they run nowhere until assigned. */
  agentRules: z.array(hostAgentRuleSchema).max(100).default([]),
  propertiesXml: z.string().max(1_000_000).optional(),
  /** Names of the other files of a chosen directory (servers.xml, …): the preview says what becomes of them. */
  otherFiles: z.array(z.string().max(256)).max(100).optional(),
});

/** The rules' agents, refused unless every one is an active agent of the organisation. */
function ruleAgents(db: Database, organizationId: string, rules: z.infer<typeof filesSchema>["agentRules"]) {
  return activeAgentNames(
    db,
    organizationId,
    rules.map((r) => r.agentId),
  );
}

function outline(configuration: Configuration, rules: z.infer<typeof filesSchema>["agentRules"], agentNames: Map<string, string>) {
  return configuration.hosts.map((h) => ({
    name: h.name,
    services: h.services.map((s) => ({
      name: s.name,
      url: redactUrl(s.url),
      schedules: s.schedules,
      /** "server" for calculations, the agent's name, or null: it would run nowhere. */
      runsOn: s.url.startsWith("bischeck://") ? "server" : (agentNames.get(agentForHost(rules, h.name) ?? "") ?? null),
      items: s.items.map((i) => ({ name: i.name, hasPolicy: i.policy !== null })),
    })),
  }));
}

function counts(configuration: Configuration) {
  const services = configuration.hosts.flatMap((h) => h.services);
  const items = services.flatMap((s) => s.items);
  return {
    hosts: configuration.hosts.length,
    services: services.length,
    items: items.length,
    policies: items.filter((i) => i.policy).length,
  };
}

function parseFiles(files: z.infer<typeof filesSchema>) {
  try {
    return { ok: true as const, ...importBischeck(files) };
  } catch (error) {
    if (error instanceof BischeckImportError) return { ok: false as const, issues: error.issues };
    // The importer is pure: whatever else it throws (the XML parser's nesting limit, say) was caused by the files.
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: `the files could not be read: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}

export const bischeckRouter = createTRPCRouter({
  /** What an import would create, or every problem found; nothing is written. */
  previewImport: editorProcedure.input(filesSchema).mutation(async ({ ctx, input }) => {
    const parsed = parseFiles(input);
    if (!parsed.ok) return parsed;
    const agentNames = await ruleAgents(ctx.db, ctx.org.id, input.agentRules);
    const names = parsed.configuration.hosts.map((h) => h.name);
    const [hosts, services] = await Promise.all([
      existingHosts(ctx.db, ctx.org.id, names),
      existingServices(
        ctx.db,
        ctx.org.id,
        parsed.configuration.hosts.flatMap((h) => h.services.map((s) => ({ host: h.name, service: s.name }))),
      ),
    ]);
    const fates = importPreview(parsed);
    return {
      ok: true as const,
      counts: counts(parsed.configuration),
      fates: fates.counts,
      /** Services that do not run as in Bischeck: mapped to another check, or kept and disabled. */
      changedServices: fates.services
        .filter((f) => f.fate !== "kept")
        .map((f) => ({ ...f, url: redactUrl(f.url), from: f.from === null ? null : redactUrl(f.from) })),
      notes: filesFromDirectory((input.otherFiles ?? []).map((name) => ({ name, text: "" }))).notes,
      hosts: outline(parsed.configuration, input.agentRules, agentNames),
      warnings: parsed.warnings,
      existingHosts: hosts.map((h) => h.name),
      existingServices: services,
    };
  }),
  /** Hosts that exist receive the new services; an existing service refuses the whole import. */
  commitImport: editorProcedure.input(filesSchema).mutation(async ({ ctx, input }) => {
    const parsed = parseFiles(input);
    if (!parsed.ok)
      throw new TRPCError({ code: "BAD_REQUEST", message: `the files have ${parsed.issues.length} problem(s); preview them first` });
    await ruleAgents(ctx.db, ctx.org.id, input.agentRules);
    const assigned = new Map(
      assignByHostRules(parsed.configuration, input.agentRules).map((a) => [`${a.host}\u0000${a.service}`, a.agentId]),
    );
    return mergeConfiguration(
      ctx.db,
      ctx.org.actor,
      parsed.configuration,
      (host, service) => assigned.get(`${host}\u0000${service}`) ?? null,
    );
  }),
  export: viewerProcedure.query(async ({ ctx }) => {
    const { configuration } = await readDeploymentSource(ctx.db, ctx.org.id);
    return { ...exportBischeck(configuration), counts: counts(configuration) };
  }),
});
