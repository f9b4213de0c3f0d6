/**
 * What the import remembers of Bischeck's template structure, so that the export can re-emit
 * templates (servicetemplate, serviceitemtemplate, servicedefgroup + servicedeftemplate) instead
 * of expanded definitions. Definitions are stored expanded, in model terms. The export only uses
 * a template for an object that still equals the template (plus what an override can express);
 * anything else is exported expanded, so stale template info can never change the result.
 */
import type { Service, ServiceItem } from "@tidemark/model";
import type { Period } from "@tidemark/thresholds/policy";

export interface ServiceRef {
  host: string;
  service: string;
}
export interface ItemRef extends ServiceRef {
  item: string;
}

/** A service item without its threshold policy (policies live in 24thresholds.xml). */
export type ItemDefinition = Omit<ServiceItem, "policy">;
export type ServiceDefinition = Omit<Service, "items"> & {
  items: ItemDefinition[];
};

export interface ServiceTemplate {
  name: string;
  definition: ServiceDefinition;
  /** The template's `<state><maxsoft>`, if any. */
  maxSoft: number | null;
  /** Services built from this template, by their final (overridden) names. */
  uses: ServiceRef[];
}

export interface ItemTemplate {
  name: string;
  definition: ItemDefinition;
  uses: ItemRef[];
}

export interface ThresholdTemplate {
  name: string;
  periods: Period[];
  /** servicedefgroup members that took their periods from this template. */
  members: ItemRef[];
}

export interface BischeckTemplates {
  serviceTemplates: ServiceTemplate[];
  itemTemplates: ItemTemplate[];
  thresholdTemplates: ThresholdTemplate[];
}

export function emptyTemplates(): BischeckTemplates {
  return { serviceTemplates: [], itemTemplates: [], thresholdTemplates: [] };
}

export function itemKey(ref: ItemRef): string {
  return JSON.stringify([ref.host, ref.service, ref.item]);
}
export function serviceKey(ref: ServiceRef): string {
  return JSON.stringify([ref.host, ref.service]);
}
