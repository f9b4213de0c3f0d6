import { lookup } from "node:dns/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { acknowledgeAlert, createWebhook, listDeliveries } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import { ingestBatch } from "@tidemark/db/metrics";
import { constantPolicy, createOrgWithItems, deleteWebhooksOf, queryRows, testDatabase } from "@tidemark/db/testing";
import { destinationPolicy, PUBLIC_ONLY, refusedAddress } from "@tidemark/outbound";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/ports.ts";
import { type Program, startAlertmanager } from "../../../scripts/lib/prometheus-programs.ts";
import { waitFor } from "../../../scripts/lib/route-server.ts";
import { alertingEvaluator } from "../src/alerting-evaluator.ts";
import { drainQueue } from "../src/evaluator.ts";
import { type NotifierLog, startNotifier } from "../src/notifier.ts";
import { OrganizationCache } from "../src/organization-cache.ts";
import { OrganizationWindows } from "../src/series-window.ts";

/**
 * Receivers beyond the plain webhook, against real programs: Debian's Alertmanager, an SMTP server
 * started here, and a Slack-compatible endpoint; with matchers, repeats, and resolutions that an
 * acknowledgement does not swallow.
 */

let db: Database;
const organizations: string[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await deleteWebhooksOf(db, organizations);
  await db.close();
});

const quiet: NotifierLog = { info() {}, warn() {}, error() {} };
/** The receivers here all listen on loopback, which an installation refuses by default. */
const LOOPBACK_ALLOWED = destinationPolicy("127.0.0.0/8");
const KEY = "h-s-latency";

/** An organisation with item h/s/latency (T = 100, "<", maxSoft 0: hard at once) and a way to send it values. */
async function setUp() {
  const org = await createOrgWithItems(db, [{ name: "latency", policy: constantPolicy(100, 0) }]);
  organizations.push(org);
  const evaluator = alertingEvaluator(db, new OrganizationCache(db, 0), new OrganizationWindows());
  let minute = 0;
  const start = Date.now() - 60 * 60_000;
  const send = async (value: number) => {
    await ingestBatch(db, {
      organizationId: org,
      agentId: null,
      batch: { batchId: `b-${crypto.randomUUID()}`, results: [{ key: KEY, ts: start + minute++ * 60_000, value }] },
    });
    await drainQueue(evaluator);
  };
  const alertId = async () =>
    (await queryRows<{ id: string }>(db, `SELECT id FROM alerts WHERE organization_id = $1 ORDER BY opened_at DESC LIMIT 1`, [org]))[0]?.id;
  return { org, send, alertId };
}

/** An HTTP endpoint on loopback recording the JSON it is posted. */
async function jsonEndpoint() {
  const received: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      received.push(JSON.parse(text));
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  generatorURL: string;
  updatedAt: string;
  status: { state: string };
}

describe("an Alertmanager receiver", () => {
  let alertmanager: Program;
  let amWebhook: Awaited<ReturnType<typeof jsonEndpoint>>;
  afterAll(async () => {
    await alertmanager?.stop();
    await amWebhook?.close();
  });

  it("gets Tidemark's alert as Prometheus sends it, resent while firing, and resolved there", async () => {
    // Alertmanager itself notifies a webhook of ours, so we see it route, fire and resolve the alert.
    amWebhook = await jsonEndpoint();
    alertmanager = await startAlertmanager(`
route: { receiver: ours, group_by: [series], group_wait: 0s, group_interval: 1s, repeat_interval: 1h }
receivers:
  - name: ours
    webhook_configs: [{ url: "${amWebhook.url}/", send_resolved: true }]
`);
    const { org, send, alertId } = await setUp();
    await createWebhook(db, org, { name: "am", url: alertmanager.url, enabled: true, kind: "alertmanager", repeatIntervalSeconds: 1 });
    const stop = startNotifier(db, { log: quiet, destinations: LOOPBACK_ALLOWED, pollIntervalMs: 100, repeatCheckMs: 200 });
    try {
      await send(500);
      const id = await alertId();
      const listed = async () =>
        ((await (await fetch(`${alertmanager.url}/api/v2/alerts`)).json()) as AmAlert[]).find((a) => a.labels.series === KEY);
      const first = await waitFor("the alert in Alertmanager's API", listed);
      const rows = await queryRows(db, `SELECT slug FROM organizations WHERE id = $1`, [org]);
      const items = await queryRows(db, `SELECT id FROM service_items WHERE organization_id = $1`, [org]);
      expect(first.labels).toEqual({
        alertname: "TidemarkThreshold",
        organization: rows[0].slug,
        series: KEY,
        host: "h",
        service: "s",
        item: "latency",
        severity: "critical",
      });
      expect(first.annotations).toMatchObject({ value: "500", threshold: "100", preview: `http://localhost:3000/items/${items[0].id}` });
      expect(first.generatorURL).toBe(`http://localhost:3000/alerts?alert=${id}`);
      expect(first.status.state).toBe("active");
      // Resent while firing: Alertmanager sees it updated again.
      await waitFor("a resend", async () => (await listed())?.updatedAt !== first.updatedAt);
      await waitFor("Alertmanager's firing notification", async () =>
        amWebhook.received.some((b) => (b as { status: string }).status === "firing"),
      );

      await send(50);
      await waitFor("the alert gone from Alertmanager's active alerts", async () => !(await listed()));
      const resolved = await waitFor("Alertmanager's resolved notification", async () =>
        amWebhook.received.find((b) => (b as { status: string }).status === "resolved"),
      );
      expect(resolved).toMatchObject({ status: "resolved", commonLabels: { series: KEY, host: "h" } });
    } finally {
      await stop();
    }
  });
});

/** An SMTP server on loopback recording what it receives. */
async function smtpServer() {
  const mails: { to: string; text: string }[] = [];
  const port = await freePort();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let text = "";
      stream.on("data", (c: Buffer) => (text += c.toString()));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", resolve));
  return { mails, port, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

describe("an email receiver", () => {
  it("sends the firing alert and its resolution through SMTP, the resolution even when acknowledged", async () => {
    const { mails, port, close } = await smtpServer();
    const { org, send, alertId } = await setUp();
    await createWebhook(db, org, {
      name: "mail",
      url: `smtp://127.0.0.1:${port}`,
      enabled: true,
      kind: "email",
      emailTo: "ops@example.test",
      emailFrom: "tidemark@example.test",
    });
    const stop = startNotifier(db, { log: quiet, destinations: LOOPBACK_ALLOWED, pollIntervalMs: 100 });
    try {
      await send(500);
      await waitFor("the firing email", async () => mails.length === 1);
      expect(mails[0]!.to).toBe("ops@example.test");
      expect(mails[0]!.text).toMatch(/^Subject: \[CRITICAL\] h-s-latency$/m);
      expect(mails[0]!.text).toMatch(/value 500, threshold 100/);
      const rows = await queryRows(db, `SELECT user_id FROM memberships WHERE organization_id = $1`, [org]);
      await acknowledgeAlert(db, org, (await alertId())!, rows[0].user_id, "on it");
      await send(50);
      await waitFor("the resolution email", async () => mails.length === 2);
      expect(mails[1]!.text).toMatch(/^Subject: \[RESOLVED\] h-s-latency$/m);
    } finally {
      await stop();
      await close();
    }
  });

  it("is not delivered to a server whose name resolves to an address the installation refuses", async () => {
    // This machine's own name resolves to loopback or a private address (Debian: /etc/hosts).
    const own = await lookup(hostname());
    if (refusedAddress(own.address, PUBLIC_ONLY) === null) return; // a public host name: nothing to show here
    const { mails, port, close } = await smtpServer();
    const { org, send } = await setUp();
    await createWebhook(db, org, {
      name: "mail",
      url: `smtp://${hostname()}:${port}`,
      enabled: true,
      kind: "email",
      emailTo: "ops@example.test",
    });
    const stop = startNotifier(db, { log: quiet, destinations: PUBLIC_ONLY, pollIntervalMs: 100 });
    try {
      await send(500);
      await waitFor("the refused delivery", async () => (await listDeliveries(db, org, { limit: 10 })).some((d) => d.status === "failed"));
      const [delivery] = await listDeliveries(db, org, { limit: 10 });
      expect(delivery!.attempts).toBe(1);
      expect(delivery!.lastError).toMatch(new RegExp(`${hostname()} resolves to .*(loopback|private)`));
      expect(mails).toEqual([]);
    } finally {
      await stop();
      await close();
    }
  });
});

describe("a Slack-compatible receiver with matchers and a repeat interval", () => {
  it("gets only what its matchers select, as Slack text, again while it fires, and not while acknowledged", async () => {
    const slack = await jsonEndpoint();
    const everything = await jsonEndpoint();
    const { org, send, alertId } = await setUp();
    await createWebhook(db, org, {
      name: "chat",
      url: slack.url,
      enabled: true,
      kind: "slack",
      matchers: { severities: ["CRITICAL"], host: "h*" },
      repeatIntervalSeconds: 1,
    });
    await createWebhook(db, org, { name: "other-hosts", url: everything.url, enabled: true, kind: "slack", matchers: { host: "db*" } });
    const stop = startNotifier(db, { log: quiet, destinations: LOOPBACK_ALLOWED, pollIntervalMs: 100, repeatCheckMs: 200 });
    try {
      await send(120); // WARNING: not for this receiver
      await send(500); // CRITICAL
      await waitFor("the CRITICAL message and a repeat", async () => slack.received.length >= 2);
      expect(slack.received[0]).toEqual({ text: expect.stringMatching(/^\*\[CRITICAL\] h-s-latency\*\n/) });
      const rows = await queryRows(db, `SELECT user_id FROM memberships WHERE organization_id = $1`, [org]);
      await acknowledgeAlert(db, org, (await alertId())!, rows[0].user_id, "on it");
      // Let a repeat already queued go out, then nothing more while acknowledged.
      await new Promise((r) => setTimeout(r, 600));
      const afterAck = slack.received.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(slack.received.length).toBe(afterAck);
      await send(50);
      await waitFor("the resolution", async () => slack.received.some((b) => /RESOLVED/.test((b as { text: string }).text)));
      expect(everything.received).toEqual([]);
    } finally {
      await stop();
      await slack.close();
      await everything.close();
    }
  });
});
