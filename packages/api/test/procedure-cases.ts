import { constantPolicy, itemFields, miniBischeckXml, serviceFields, type Tenant } from "./tenant-fixtures.ts";

/**
 * How to call each tRPC procedure meaningfully, keyed by its path. `inputs(victim, own)` builds the
 * inputs from the tenant whose objects are aimed at (`victim`) and the caller's own tenant (`own`):
 * the tenancy suite passes another organisation as the victim, the role suite the caller's own.
 * A procedure missing here fails both suites, naming it.
 */
export interface ProcedureCase {
  inputs: (victim: Tenant, own: Tenant) => unknown[];
  /** The victim's object is named by a value no marker catches (a version number, a link secret). */
  namesVictim?: true;
}

const HOUR = 3_600_000;
const window = () => ({ from: new Date(Date.now() - 24 * HOUR), to: new Date(Date.now() + HOUR) });
let serial = 0;
/** Names unique per call, so repeated creations do not collide with each other. */
const fresh = (prefix: string, own: Tenant) => `${prefix}${own.mark}n${++serial}`;
const none = () => [undefined];

export const PROCEDURE_CASES: Record<string, ProcedureCase> = {
  "session.me": { inputs: none },
  "session.organizations": { inputs: none },

  "dashboard.overview": { inputs: none },
  "dashboard.items": { inputs: () => [{}] },
  "dashboard.board": { inputs: () => [{}] },
  "dashboard.series": { inputs: (v) => [{ seriesId: v.seriesId, ...window() }], namesVictim: true },

  "config.hosts.list": { inputs: () => [{}] },
  "config.hosts.get": { inputs: (v) => [{ id: v.hostId }] },
  "config.hosts.create": { inputs: (_v, o) => [{ name: fresh("h", o), alias: null, description: "" }] },
  "config.hosts.update": { inputs: (v, o) => [{ id: v.hostId, fields: { name: fresh("h", o), alias: null, description: "" } }] },
  "config.hosts.delete": { inputs: (v) => [{ id: v.hostId }] },
  "config.hosts.clone": { inputs: (v, o) => [{ id: v.hostId, name: fresh("h", o) }] },

  "config.services.list": { inputs: (v) => [{}, { hostId: v.hostId }] },
  "config.services.get": { inputs: (v) => [{ id: v.serviceId }] },
  "config.services.create": { inputs: (v, o) => [{ hostId: v.hostId, fields: serviceFields(fresh("s", o)) }] },
  "config.services.update": { inputs: (v, o) => [{ id: v.serviceId, fields: serviceFields(fresh("s", o)) }] },
  "config.services.delete": { inputs: (v) => [{ id: v.serviceId }] },
  "config.services.assign": {
    inputs: (v, o) => [
      { agentId: v.agentId, target: { search: "" } },
      { agentId: o.agentId, target: { serviceIds: [o.serviceId, v.serviceId] } },
      { agentId: o.agentId, target: { hostId: v.hostId } },
    ],
  },
  "config.services.clone": {
    inputs: (v, o) => [
      { id: v.serviceId, name: fresh("s", o) },
      // Cloning one's own service onto the other organisation's host.
      { id: o.serviceId, name: fresh("s", o), hostId: v.hostId },
    ],
  },

  "config.items.list": { inputs: (v) => [{}, { hostId: v.hostId }, { serviceId: v.serviceId }] },
  "config.items.get": { inputs: (v) => [{ id: v.itemId }] },
  "config.items.create": { inputs: (v, o) => [{ serviceId: v.serviceId, fields: itemFields(fresh("i", o)), policy: null }] },
  "config.items.update": { inputs: (v, o) => [{ id: v.itemId, fields: itemFields(fresh("i", o)) }] },
  "config.items.delete": { inputs: (v) => [{ id: v.itemId }] },
  "config.items.clone": { inputs: (v, o) => [{ id: v.itemId, name: fresh("i", o) }] },
  "config.items.applyTemplate": {
    inputs: (v, o) => [
      { name: fresh("t", o), policy: constantPolicy(50), itemIds: [v.itemId] },
      { name: fresh("t", o), policy: constantPolicy(50), itemIds: [o.itemId, v.itemId] },
    ],
  },
  "config.seriesKeys": { inputs: (v) => [{ prefix: "" }, { prefix: `h${v.mark}` }] },
  "config.unknownSeries": { inputs: (v) => [{ keys: [v.seriesKey, `h${v.mark}-nope-nope`] }] },

  "thresholds.item": { inputs: (v) => [{ id: v.itemId }] },
  "thresholds.deployment": { inputs: (v) => [{ id: v.itemId }] },
  "thresholds.save": { inputs: (v) => [{ itemId: v.itemId, policy: constantPolicy(70), revision: null }] },
  "thresholds.suggest": { inputs: (v) => [{ itemId: v.itemId, policy: v.policy, periodIndex: 0 }] },
  "thresholds.valueBounds": { inputs: (v) => [{ itemId: v.itemId }] },
  "thresholds.setValueBounds": { inputs: (v) => [{ itemId: v.itemId, bounds: { min: 0, max: 100 } }] },
  "thresholds.prometheusRules": { inputs: (v) => [{ itemId: v.itemId, selector: "m" }] },

  "preview.run": { inputs: (v) => [{ itemId: v.itemId, ...window(), draft: null }] },

  "bischeck.previewImport": { inputs: (_v, o) => [{ bischeckXml: miniBischeckXml(fresh("imp", o)) }] },
  "bischeck.commitImport": { inputs: (_v, o) => [{ bischeckXml: miniBischeckXml(fresh("imp", o)) }] },
  "bischeck.export": { inputs: none },

  "deploy.preview": { inputs: none },
  "deploy.deploy": { inputs: () => [{ message: "deploy from the suite" }] },
  "deploy.rollback": { inputs: (v) => [{ version: v.deploymentVersion }], namesVictim: true },
  "deploy.list": { inputs: () => [{}] },
  "deploy.progress": { inputs: (v) => [{ version: v.deploymentVersion }], namesVictim: true },

  "agents.list": { inputs: none },
  "agents.get": { inputs: (v) => [{ id: v.agentId }] },
  "agents.create": { inputs: (_v, o) => [{ name: fresh("agent", o) }] },
  "agents.revoke": { inputs: (v) => [{ id: v.agentId }] },

  "alerts.timeline": { inputs: () => [window()] },
  "alerts.detail": { inputs: (v) => [{ id: v.alertId }] },
  "alerts.acknowledge": { inputs: (v) => [{ id: v.alertId, comment: "looking into it" }] },
  "alerts.updateItemSettings": { inputs: (v) => [{ itemId: v.itemId, recoveryMarginPercent: 5, minimumDurationSeconds: 0 }] },
  "alerts.silences.list": { inputs: () => [{}, { includeExpired: true }] },
  "alerts.silences.create": {
    inputs: () => [{ matchers: { host: "*", service: "*", item: "*" }, endsAt: new Date(Date.now() + HOUR), comment: "suite" }],
  },
  "alerts.silences.expire": { inputs: (v) => [{ id: v.silenceId }] },
  "alerts.webhooks.list": { inputs: none },
  "alerts.webhooks.receivers": { inputs: none },
  "alerts.webhooks.create": { inputs: (_v, o) => [{ name: fresh("hook", o), url: "https://hooks.example.test/suite" }] },
  "alerts.webhooks.update": { inputs: (v) => [{ id: v.webhookId, enabled: false }] },
  "alerts.webhooks.delete": { inputs: (v) => [{ id: v.webhookId }] },
  "alerts.webhooks.deliveries": { inputs: () => [{}] },

  "organizations.list": { inputs: none },
  "organizations.switch": { inputs: (v) => [{ organizationId: v.organizationId }] },
  "organizations.create": { inputs: (_v, o) => [{ name: fresh("Org ", o) }] },
  "organizations.settings": { inputs: none },
  "organizations.setTimeZone": { inputs: () => [{ timeZone: "Europe/Stockholm" }] },

  "members.list": { inputs: none },
  "members.changeRole": { inputs: (v) => [{ userId: v.memberUserId, role: "admin" }] },
  "members.remove": { inputs: (v) => [{ userId: v.memberUserId }] },

  "invitations.list": { inputs: none },
  "invitations.create": { inputs: (_v, o) => [{ email: `${fresh("x", o)}@test.invalid`, role: "viewer" }] },
  "invitations.revoke": { inputs: (v) => [{ id: v.invitationId }] },
  // The link's secret is the permission to see its invitation; an unknown secret must reveal nothing.
  "invitations.lookup": { inputs: () => [{ token: "tm_invite_not-a-real-invitation" }], namesVictim: true },
  // The victim's real link, used by someone it was not sent to.
  "invitations.accept": { inputs: (v) => [{ token: v.invitationToken }], namesVictim: true },

  "prometheus.settings": { inputs: none },
  "prometheus.setCreatesSeries": { inputs: () => [{ on: true }] },

  "tokens.list": { inputs: none },
  "tokens.create": { inputs: (_v, o) => [{ name: fresh("token", o), role: "viewer" }] },
  "tokens.revoke": { inputs: (v) => [{ id: v.apiTokenId }] },

  "audit.list": { inputs: (v) => [{}, { actorUserId: v.admin.userId }, { targetId: v.hostId }] },
  "audit.facets": { inputs: none },
};
