/** Writer of bischeck.xml (Bischeck 1.x element order), re-using templates where they still fit. */
import type { Configuration, Host, Service, ServiceItem } from "@tidemark/model";
import { same } from "./equal.ts";
import { toBischeckSchedule } from "./schedule.ts";
import type { BischeckTemplates, ItemDefinition, ServiceDefinition, ServiceTemplate } from "./templates.ts";
import { itemKey, serviceKey } from "./templates.ts";
import { element, leaf, type XmlNode } from "./xml-write.ts";

/**
 * The fields of `actual` that differ from `template`, or null when a difference cannot be written
 * as an override (an override can set a field, never unset one to null).
 */
function overridesOf<T extends object>(template: T, actual: T, fields: (keyof T)[]): Partial<T> | null {
  const diff: Partial<T> = {};
  for (const field of fields) {
    if (same(template[field], actual[field])) continue;
    if (actual[field] === null) return null;
    diff[field] = actual[field];
  }
  return diff;
}

const ITEM_FIELDS: (keyof ItemDefinition)[] = [
  "name",
  "description",
  "execStatement",
  "thresholdClass",
  "serviceItemClass",
  "cacheMaxCount",
];
const SERVICE_FIELDS: (keyof Omit<ServiceDefinition, "items">)[] = ["name", "description", "schedules", "url", "sendServiceData"];

function withoutPolicy(item: ServiceItem): ItemDefinition {
  const { policy: _policy, ...definition } = item;
  return definition;
}

/** The service's `<maxsoft>` as carried by its items' policies (3, Bischeck's default, when none). */
export function serviceMaxSoft(service: Service, warnings: string[], where: string): number {
  const values = [...new Set(service.items.flatMap((i) => (i.policy ? [i.policy.maxSoft] : [])))];
  if (values.length > 1)
    warnings.push(`${where}: items have different maxSoft (${values.join(", ")}); Bischeck has one per service, ${values[0]} is written`);
  return values[0] ?? 3;
}

/** Service / item fields in Bischeck's order; `partial` writes only the fields present. */
function serviceFieldNodes(s: Partial<ServiceDefinition>, partial: boolean): XmlNode[] {
  return [
    s.name !== undefined ? leaf("name", s.name) : null,
    s.description !== undefined && (partial || s.description !== "") ? leaf("desc", s.description) : null,
    ...(s.schedules ?? []).map((x) => leaf("schedule", toBischeckSchedule(x))),
    s.sendServiceData !== undefined && (partial || !s.sendServiceData) ? leaf("sendserver", s.sendServiceData) : null,
    s.url !== undefined ? leaf("url", s.url) : null,
  ].filter((n): n is XmlNode => n !== null);
}

function itemFieldNodes(i: Partial<ItemDefinition>, partial: boolean): XmlNode[] {
  return [
    i.name !== undefined ? leaf("name", i.name) : null,
    i.description !== undefined && (partial || i.description !== "") ? leaf("desc", i.description) : null,
    i.execStatement !== undefined ? leaf("execstatement", i.execStatement) : null,
    i.thresholdClass != null ? leaf("thresholdclass", i.thresholdClass) : null,
    i.serviceItemClass != null ? leaf("serviceitemclass", i.serviceItemClass) : null,
    i.cacheMaxCount != null ? element("cache", [element("purge", [leaf("maxcount", i.cacheMaxCount)])]) : null,
  ].filter((n): n is XmlNode => n !== null);
}

function stateNode(maxSoft: number | null): XmlNode | null {
  return maxSoft !== null && maxSoft !== 3 ? element("state", [leaf("maxsoft", maxSoft)]) : null;
}

export function writeBischeck(configuration: Configuration, templates: BischeckTemplates, warnings: string[]): XmlNode {
  const usedServiceTemplates = new Set<ServiceTemplate>();
  const usedItemTemplates = new Set<string>();
  const serviceTemplateOf = new Map<string, ServiceTemplate>();
  for (const t of templates.serviceTemplates) for (const use of t.uses) serviceTemplateOf.set(serviceKey(use), t);
  const itemTemplateOf = new Map<string, { name: string; definition: ItemDefinition }>();
  for (const t of templates.itemTemplates) for (const use of t.uses) itemTemplateOf.set(itemKey(use), t);

  const itemNode = (host: string, service: string, item: ServiceItem): XmlNode => {
    const definition = withoutPolicy(item);
    const template = itemTemplateOf.get(itemKey({ host, service, item: item.name }));
    const override = template && overridesOf(template.definition, definition, ITEM_FIELDS);
    if (template && override) {
      usedItemTemplates.add(template.name);
      const fields = itemFieldNodes(override, true);
      return element("serviceitem", [leaf("template", template.name), fields.length > 0 && element("serviceitemoverride", fields)]);
    }
    return element("serviceitem", itemFieldNodes(definition, false));
  };

  const serviceNode = (host: Host, service: Service): XmlNode => {
    const maxSoft = serviceMaxSoft(service, warnings, `service ${host.name}-${service.name}`);
    const template = serviceTemplateOf.get(serviceKey({ host: host.name, service: service.name }));
    if (template) {
      const { items, ...fields } = service;
      const { items: templateItems, ...templateFields } = template.definition;
      const override = overridesOf(templateFields, fields, SERVICE_FIELDS);
      const itemsMatch = same(items.map(withoutPolicy), templateItems);
      const hasPolicies = items.some((i) => i.policy);
      if (override && itemsMatch && (!hasPolicies || maxSoft === (template.maxSoft ?? 3))) {
        usedServiceTemplates.add(template);
        const overrides = serviceFieldNodes(override, true);
        return element("service", [leaf("template", template.name), overrides.length > 0 && element("serviceoverride", overrides)]);
      }
    }
    return element("service", [
      ...serviceFieldNodes(service, false),
      stateNode(service.items.some((i) => i.policy) ? maxSoft : null),
      ...service.items.map((i) => itemNode(host.name, service.name, i)),
    ]);
  };

  const hosts = configuration.hosts.map((host) =>
    element("host", [
      leaf("name", host.name),
      host.alias !== null && leaf("alias", host.alias),
      host.description !== "" && leaf("desc", host.description),
      ...host.services.map((s) => serviceNode(host, s)),
    ]),
  );
  const serviceTemplates = [...usedServiceTemplates].map((t) =>
    element(
      "servicetemplate",
      [
        ...serviceFieldNodes(t.definition, false),
        stateNode(t.maxSoft),
        ...t.definition.items.map((i) => element("serviceitem", itemFieldNodes(i, false))),
      ],
      { templatename: t.name },
    ),
  );
  const itemTemplates = templates.itemTemplates
    .filter((t) => usedItemTemplates.has(t.name))
    .map((t) =>
      element("serviceitemtemplate", itemFieldNodes(t.definition, false), {
        templatename: t.name,
      }),
    );
  return element("bischeck", [...hosts, ...serviceTemplates, ...itemTemplates]);
}
