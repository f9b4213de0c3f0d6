/**
 * Reader of Bischeck 1.x `bischeck.xml`: hosts, services, service items, service / service item /
 * cache templates with overrides (`<serviceoverride>`, `<serviceitemoverride>`, or fields given
 * next to `<template>`). Element names and structure follow Bischeck's bischeck.xsd.
 */
import { type Configuration, connectionUrlSchema, type Host, nameSchema, type Service, scheduleSchema } from "@tidemark/model";
import type { IssueCollector } from "./errors.ts";
import {
  type Children,
  type ChildSpec,
  leafText,
  optionalText,
  readBoolean,
  readChildren,
  readInteger,
  validated,
} from "./read-helpers.ts";
import { redactUrl } from "./redact-url.ts";
import { fromBischeckSchedule } from "./schedule.ts";
import { type BischeckTemplates, emptyTemplates, type ItemDefinition, type ServiceDefinition, serviceKey } from "./templates.ts";
import type { XmlElement } from "./xml.ts";

const SERVICE_FIELDS: ChildSpec = {
  name: "?",
  inactive: "?",
  alias: "?",
  desc: "?",
  schedule: "*",
  sendserver: "?",
  sendserviceData: "?",
  url: "?",
  driver: "?",
  notification: "?",
};
const ITEM_FIELDS: ChildSpec = {
  name: "?",
  alias: "?",
  desc: "?",
  execstatement: "?",
  thresholdclass: "?",
  serviceitemclass: "?",
  cache: "?",
};
const CACHE_BODY: ChildSpec = { aggregate: "*", purge: "?" };

type ServiceFields = Partial<Omit<Service, "items">>;
type ItemFields = Partial<ItemDefinition>;
/** A service item as read, with the serviceitemtemplate it came from. */
type ReadItem = { item: ItemDefinition; template: string | null };

export interface BischeckRead {
  configuration: Configuration;
  templates: BischeckTemplates;
  /** `<state><maxsoft>` per service, keyed by templates.serviceKey. */
  maxSoft: Map<string, number>;
  /** Mapped URL → the URL in the file. */
  mappedUrls: Map<string, string>;
}

function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

class BischeckReader {
  /** Cache templates by name: the `<purge><maxcount>` they set (null without one). */
  private readonly cacheTemplates = new Map<string, { maxCount: number | null }>();
  private readonly itemTemplates = new Map<string, ItemDefinition>();
  private readonly serviceTemplates = new Map<string, { definition: ServiceDefinition; maxSoft: number | undefined }>();
  readonly templates = emptyTemplates();
  readonly maxSoft = new Map<string, number>();
  /** URLs the import rewrote (jdbc:postgresql: → postgres://), mapped URL → Bischeck's. */
  readonly mappedUrls = new Map<string, string>();

  /** Error count when an element's reading began: "missing" is not reported over an earlier, more precise error. */
  private readonly errorsAtStart = new WeakMap<XmlElement, number>();

  constructor(private readonly ctx: IssueCollector) {}

  private begin(el: XmlElement): void {
    this.errorsAtStart.set(el, this.ctx.errors.length);
  }

  private reportMissing(el: XmlElement, missing: string[]): void {
    if (this.ctx.errors.length > (this.errorsAtStart.get(el) ?? 0)) return;
    for (const tag of missing) this.ctx.error(el, `<${el.name}> is missing <${tag}>`);
  }

  read(root: XmlElement): Configuration {
    const top = readChildren(this.ctx, root, {
      host: "*",
      servicetemplate: "*",
      serviceitemtemplate: "*",
      cachetemplate: "*",
    });
    for (const el of top.all("cachetemplate")) this.define(this.cacheTemplates, el, { maxCount: this.readCacheBody(el, ["templatename"]) });
    for (const el of top.all("serviceitemtemplate")) {
      this.begin(el);
      const children = readChildren(this.ctx, el, ITEM_FIELDS, ["templatename"]);
      const item = this.completeItem(el, this.readItemFields(children));
      if (item) this.define(this.itemTemplates, el, item);
    }
    for (const el of top.all("servicetemplate")) {
      this.begin(el);
      const children = readChildren(this.ctx, el, { ...SERVICE_FIELDS, state: "?", template: "*", serviceitem: "*" }, ["templatename"]);
      const fields = this.readServiceFields(children);
      const items = [
        ...children.all("template").map((t) => this.itemFromTemplate(t, {})),
        ...children.all("serviceitem").map((i) => this.readServiceItem(i)),
      ]
        .filter((i): i is ReadItem => i !== null)
        .map((i) => i.item);
      const service = this.completeService(el, fields, items);
      const state = children.one("state");
      if (service)
        this.define(this.serviceTemplates, el, {
          definition: service,
          maxSoft: state ? this.readState(state) : undefined,
        });
    }
    const hosts: Host[] = [];
    const hostNames = new Set<string>();
    for (const el of top.all("host")) {
      const host = this.readHost(el);
      if (!host) continue;
      if (hostNames.has(host.name)) this.ctx.error(el, `duplicate host "${host.name}"`);
      hostNames.add(host.name);
      hosts.push(host);
    }
    return { hosts };
  }

  private define<T>(map: Map<string, T>, el: XmlElement, value: T | null): void {
    const name = el.attributes.templatename?.trim();
    if (!name) {
      this.ctx.error(el, `<${el.name}> needs a templatename attribute`);
      return;
    }
    if (map.has(name)) this.ctx.error(el, `duplicate <${el.name}> templatename="${name}"`);
    else if (value !== null) map.set(name, value);
  }

  private readHost(el: XmlElement): Host | null {
    const c = readChildren(this.ctx, el, {
      name: "1",
      inactive: "?",
      alias: "?",
      desc: "?",
      service: "*",
    });
    const nameEl = c.one("name");
    const name = nameEl ? validated(this.ctx, nameEl, nameSchema, leafText(this.ctx, nameEl)) : null;
    this.warnInactive(c, "host");
    const alias = optionalText(this.ctx, c, "alias");
    const services: Service[] = [];
    const serviceNames = new Set<string>();
    for (const serviceEl of c.all("service")) {
      const service = this.readService(serviceEl, name ?? "");
      if (!service) continue;
      if (serviceNames.has(service.name)) this.ctx.error(serviceEl, `duplicate service "${service.name}" in host "${name}"`);
      serviceNames.add(service.name);
      services.push(service);
    }
    if (name === null) return null;
    return {
      name,
      alias: alias ?? null,
      description: optionalText(this.ctx, c, "desc") ?? "",
      services,
    };
  }

  private readService(el: XmlElement, host: string): Service | null {
    this.begin(el);
    const c = readChildren(this.ctx, el, {
      ...SERVICE_FIELDS,
      template: "?",
      serviceoverride: "?",
      state: "?",
      serviceitem: "*",
    });
    const templateEl = c.one("template");
    const state = c.one("state");
    let service: ServiceDefinition | null;
    let maxSoft = state ? this.readState(state) : undefined;
    if (templateEl) {
      const templateName = leafText(this.ctx, templateEl);
      const template = this.serviceTemplates.get(templateName);
      for (const extra of c.all("serviceitem")) {
        this.ctx.error(
          extra,
          `<serviceitem> cannot be given next to <template> in a <service>; put it in servicetemplate "${templateName}"`,
        );
      }
      const overrideEl = c.one("serviceoverride");
      const override = overrideEl ? this.readServiceFields(readChildren(this.ctx, overrideEl, SERVICE_FIELDS)) : {};
      const siblings = this.readServiceFields(c);
      if (!template) {
        this.ctx.error(templateEl, `unknown servicetemplate "${templateName}"`);
        return null;
      }
      maxSoft = maxSoft ?? template.maxSoft;
      const { items, ...fields } = structuredClone(template.definition);
      service = this.completeService(el, { ...fields, ...defined(override), ...defined(siblings) }, items);
      if (service) {
        const list = this.templates.serviceTemplates.find((t) => t.name === templateName);
        const ref = { host, service: service.name };
        if (list) list.uses.push(ref);
        else
          this.templates.serviceTemplates.push({
            name: templateName,
            definition: template.definition,
            maxSoft: template.maxSoft ?? null,
            uses: [ref],
          });
      }
    } else {
      if (c.has("serviceoverride")) this.ctx.error(c.one("serviceoverride") as XmlElement, "<serviceoverride> needs a <template>");
      const read = c
        .all("serviceitem")
        .map((i) => this.readServiceItem(i))
        .filter((i): i is ReadItem => i !== null);
      service = this.completeService(
        el,
        this.readServiceFields(c),
        read.map((i) => i.item),
      );
      for (const { item, template } of read) {
        if (template === null || !service) continue;
        const ref = { host, service: service.name, item: item.name };
        const known = this.templates.itemTemplates.find((t) => t.name === template);
        if (known) known.uses.push(ref);
        else
          this.templates.itemTemplates.push({
            name: template,
            definition: this.itemTemplates.get(template) as ItemDefinition,
            uses: [ref],
          });
      }
    }
    if (!service) return null;
    const seen = new Set<string>();
    for (const item of service.items) {
      if (seen.has(item.name)) this.ctx.error(el, `duplicate serviceitem "${item.name}" in service "${service.name}"`);
      seen.add(item.name);
    }
    if (maxSoft !== undefined) this.maxSoft.set(serviceKey({ host, service: service.name }), maxSoft);
    return {
      ...service,
      items: service.items.map((i) => ({ ...i, policy: null })),
    };
  }

  private completeService(el: XmlElement, fields: ServiceFields, items: ItemDefinition[]): ServiceDefinition | null {
    const missing = (["name", "url", "schedules"] as const).filter(
      (k) => fields[k] === undefined || (k === "schedules" && fields.schedules?.length === 0),
    );
    this.reportMissing(
      el,
      missing.map((k) => (k === "schedules" ? "schedule" : k)),
    );
    if (missing.length > 0 || !fields.name || !fields.url || !fields.schedules) return null;
    return {
      name: fields.name,
      description: fields.description ?? "",
      schedules: fields.schedules,
      url: fields.url,
      sendServiceData: fields.sendServiceData ?? true,
      items,
    };
  }

  private readServiceFields(c: Children): ServiceFields {
    const fields: ServiceFields = {};
    const nameEl = c.one("name");
    if (nameEl) fields.name = validated(this.ctx, nameEl, nameSchema, leafText(this.ctx, nameEl)) ?? undefined;
    fields.description = optionalText(this.ctx, c, "desc");
    this.warnInactive(c, "service");
    this.warnDropped(c, "alias", "a service alias is not kept: Tidemark has no service aliases");
    this.warnDropped(c, "driver", "the JDBC driver class is not kept: Tidemark picks the driver from the url");
    const schedules = c.all("schedule").map((s) => validated(this.ctx, s, scheduleSchema, fromBischeckSchedule(leafText(this.ctx, s))));
    if (schedules.length > 0) fields.schedules = schedules.filter((s): s is string => s !== null);
    const urlEl = c.one("url");
    if (urlEl) fields.url = validated(this.ctx, urlEl, connectionUrlSchema, this.importUrl(urlEl, leafText(this.ctx, urlEl))) ?? undefined;
    const notification = c.one("notification");
    if (notification) {
      readChildren(this.ctx, notification, { purge: "?" });
      this.ctx.warn(
        notification,
        "<notification> (purging of notification history) is not imported: Tidemark keeps alert history by its retention policy",
      );
    }
    for (const tag of ["sendserver", "sendserviceData"]) {
      const el = c.one(tag);
      if (el) fields.sendServiceData = readBoolean(this.ctx, el) ?? undefined;
    }
    return defined(fields);
  }

  /** A `<serviceitem>`: either a full definition or a `<template>` with overrides. */
  private readServiceItem(el: XmlElement): ReadItem | null {
    this.begin(el);
    const c = readChildren(this.ctx, el, {
      ...ITEM_FIELDS,
      template: "?",
      serviceitemoverride: "?",
    });
    const templateEl = c.one("template");
    const siblings = this.readItemFields(c);
    if (!templateEl) {
      if (c.has("serviceitemoverride"))
        this.ctx.error(c.one("serviceitemoverride") as XmlElement, "<serviceitemoverride> needs a <template>");
      const item = this.completeItem(el, siblings);
      return item ? { item, template: null } : null;
    }
    const overrideEl = c.one("serviceitemoverride");
    const override = overrideEl ? this.readItemFields(readChildren(this.ctx, overrideEl, ITEM_FIELDS)) : {};
    return this.itemFromTemplate(templateEl, { ...override, ...siblings });
  }

  private itemFromTemplate(templateEl: XmlElement, overrides: ItemFields): ReadItem | null {
    const name = leafText(this.ctx, templateEl);
    const template = this.itemTemplates.get(name);
    if (!template) {
      this.ctx.error(templateEl, `unknown serviceitemtemplate "${name}"`);
      return null;
    }
    return { item: { ...template, ...overrides }, template: name };
  }

  private readItemFields(c: Children): ItemFields {
    const fields: ItemFields = {};
    const nameEl = c.one("name");
    if (nameEl) fields.name = validated(this.ctx, nameEl, nameSchema, leafText(this.ctx, nameEl)) ?? undefined;
    fields.description = optionalText(this.ctx, c, "desc");
    this.warnDropped(c, "alias", "a service item alias is not kept: Tidemark has no service item aliases");
    const execEl = c.one("execstatement");
    if (execEl) {
      const exec = leafText(this.ctx, execEl);
      if (exec === "") this.ctx.error(execEl, "<execstatement> is empty");
      else fields.execStatement = exec;
    }
    fields.thresholdClass = optionalText(this.ctx, c, "thresholdclass");
    fields.serviceItemClass = optionalText(this.ctx, c, "serviceitemclass");
    const cacheEl = c.one("cache");
    if (cacheEl) fields.cacheMaxCount = this.readCache(cacheEl);
    return defined(fields);
  }

  private completeItem(el: XmlElement, fields: ItemFields): ItemDefinition | null {
    this.reportMissing(
      el,
      [fields.name === undefined && "name", fields.execStatement === undefined && "execstatement"].filter((m) => m !== false),
    );
    if (fields.name === undefined || fields.execStatement === undefined) return null;
    return {
      name: fields.name,
      description: fields.description ?? "",
      execStatement: fields.execStatement,
      thresholdClass: fields.thresholdClass || null,
      serviceItemClass: fields.serviceItemClass || null,
      cacheMaxCount: fields.cacheMaxCount ?? null,
    };
  }

  private readCache(el: XmlElement): number | null {
    const c = readChildren(this.ctx, el, { template: "?", ...CACHE_BODY });
    const templateEl = c.one("template");
    if (!templateEl) return this.readCacheBody(el, [], c);
    if (c.has("aggregate") || c.has("purge")) this.ctx.error(el, "<cache> has either a <template> or <aggregate>/<purge>, not both");
    const name = leafText(this.ctx, templateEl);
    const template = this.cacheTemplates.get(name);
    if (template === undefined) this.ctx.error(templateEl, `unknown cachetemplate "${name}"`);
    return template?.maxCount ?? null;
  }

  /** `<aggregate>`s are Bischeck's own rollups (Tidemark keeps hourly aggregates itself): warned, not kept. */
  private readCacheBody(el: XmlElement, attributes: string[], known?: Children): number | null {
    const c = known ?? readChildren(this.ctx, el, CACHE_BODY, attributes);
    for (const agg of c.all("aggregate")) {
      const a = readChildren(this.ctx, agg, {
        method: "1",
        period: "?",
        useweekend: "?",
        retention: "*",
      });
      const method = a.one("method");
      if (method && !["avg", "max", "min"].includes(leafText(this.ctx, method))) this.ctx.error(method, "<method> must be avg, max or min");
      const period = a.one("period");
      if (period) this.readPeriodLetter(period);
      const weekend = a.one("useweekend");
      if (weekend) readBoolean(this.ctx, weekend);
      for (const r of a.all("retention")) {
        const rc = readChildren(this.ctx, r, { period: "1", offset: "1" });
        const p = rc.one("period");
        if (p) this.readPeriodLetter(p);
        const o = rc.one("offset");
        if (o) readInteger(this.ctx, o, 0, 2_147_483_647);
      }
      this.ctx.warn(agg, "cache <aggregate> is not imported: Tidemark computes hourly and 5-minute aggregates for every series");
    }
    const purge = c.one("purge");
    if (!purge) return null;
    const p = readChildren(this.ctx, purge, {
      maxcount: "?",
      offset: "?",
      period: "?",
    });
    const maxcount = p.one("maxcount");
    if (maxcount && (p.has("offset") || p.has("period"))) this.ctx.error(purge, "<purge> has either <maxcount> or <offset>/<period>");
    if (maxcount) return readInteger(this.ctx, maxcount, 1, Number.MAX_SAFE_INTEGER);
    const offset = p.one("offset");
    if (offset) readInteger(this.ctx, offset, 0, 2_147_483_647);
    const period = p.one("period");
    if (period) this.readPeriodLetter(period);
    this.ctx.warn(purge, "time-based <purge> is not imported: Tidemark purges by its retention policy");
    return null;
  }

  private readPeriodLetter(el: XmlElement): void {
    if (!["H", "D", "W", "Y"].includes(leafText(this.ctx, el))) this.ctx.error(el, `<${el.name}> must be H, D, W or Y`);
  }

  private readState(el: XmlElement): number | undefined {
    const c = readChildren(this.ctx, el, { maxsoft: "?", purge: "?" });
    const purge = c.one("purge");
    if (purge) {
      readChildren(this.ctx, purge, {
        maxcount: "?",
        offset: "?",
        period: "?",
      });
      this.ctx.warn(purge, "state <purge> is not imported: Tidemark keeps state history by its retention policy");
    }
    const maxsoft = c.one("maxsoft");
    return maxsoft ? (readInteger(this.ctx, maxsoft, 1, 100) ?? undefined) : undefined;
  }

  /**
   * Bischeck's URL schemes: jdbc:postgresql: becomes the agent's postgres:// check; livestatus://
   * and other jdbc: URLs are kept verbatim, the service disabled (nothing runs it), with a warning.
   */
  private importUrl(el: XmlElement, url: string): string {
    const mapped = postgresFromJdbc(url);
    if (mapped !== null) {
      this.mappedUrls.set(mapped, url);
      this.ctx.warn(el, `mapped ${redactUrl(url)} to the agent's postgres check ${redactUrl(mapped)}`);
      return mapped;
    }
    if (/^(livestatus:\/\/|jdbc:)/.test(url)) {
      const scheme = url.startsWith("jdbc:") ? `jdbc:${url.split(":")[1] ?? ""}` : "livestatus://";
      this.ctx.warn(el, `${redactUrl(url)} is kept but disabled: Tidemark has no ${scheme} check, nothing runs this service`);
    }
    return url;
  }

  private warnInactive(c: Children, what: string): void {
    const el = c.one("inactive");
    if (el && readBoolean(this.ctx, el)) this.ctx.warn(el, `inactive ${what} imported as active: Tidemark has no inactive flag`);
  }

  private warnDropped(c: Children, tag: string, message: string): void {
    const el = c.one(tag);
    if (el) {
      leafText(this.ctx, el);
      this.ctx.warn(el, message);
    }
  }
}

/**
 * `jdbc:postgresql://host[:port]/db?user=u&password=p` (JDBC's form) → `postgres://u:p@host:port/db`
 * (the agent's libpq form); other parameters are kept as the query. Null for anything else.
 */
export function postgresFromJdbc(url: string): string | null {
  const match = /^jdbc:postgresql:\/\/([^/?]+)(\/[^?]*)?(?:\?(.*))?$/.exec(url);
  if (!match) return null;
  const params = new URLSearchParams(match[3] ?? "");
  const user = params.get("user");
  const password = params.get("password");
  params.delete("user");
  params.delete("password");
  const auth = user === null ? "" : `${encodeURIComponent(user)}${password === null ? "" : `:${encodeURIComponent(password)}`}@`;
  const query = params.toString();
  return `postgres://${auth}${match[1]}${match[2] ?? "/"}${query === "" ? "" : `?${query}`}`;
}

export function readBischeck(root: XmlElement, ctx: IssueCollector): BischeckRead {
  const reader = new BischeckReader(ctx);
  const configuration = reader.read(root);
  return {
    configuration,
    templates: reader.templates,
    maxSoft: reader.maxSoft,
    mappedUrls: reader.mappedUrls,
  };
}
