import { lookup } from "node:dns/promises";
import { hostname } from "node:os";
import { decodeTimeline } from "@tidemark/alerts";
import type { Database } from "@tidemark/db/client";
import { testDatabase, testPrisma } from "@tidemark/db/testing";
import { PUBLIC_ONLY, refusedAddress } from "@tidemark/outbound";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAlert } from "./open-alert.ts";
import { signedInMember } from "./signed-in.ts";

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => db.close());

async function callerFor(role: "viewer" | "editor" | "admin", organizationId?: string) {
  const member = await signedInMember(db, role, organizationId);
  return { orgId: member.organizationId, userId: member.user.id, caller: member.caller };
}

describe("the alerts router", () => {
  it("serves the timeline and an alert's detail to viewers, scoped to their organisation", async () => {
    const editor = await callerFor("editor");
    const viewer = await callerFor("viewer", editor.orgId);
    const stranger = await callerFor("admin");
    const ts = await openAlert(db, editor.orgId, "web01-http-latency");
    const window = { from: new Date(ts.getTime() - 3_600_000), to: new Date(ts.getTime() + 3_600_000) };
    const timeline = decodeTimeline((await viewer.caller.alerts.timeline(window)).encoded);
    expect(timeline.alerts).toHaveLength(1);
    expect(decodeTimeline((await stranger.caller.alerts.timeline(window)).encoded).alerts).toHaveLength(0);
    const id = timeline.alerts[0]!.id;
    await expect(viewer.caller.alerts.detail({ id })).resolves.toMatchObject({ key: "web01-http-latency", value: 9, threshold: 5 });
    await expect(stranger.caller.alerts.detail({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(viewer.caller.alerts.timeline({ from: window.to, to: window.from })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("creates receivers of each kind with matchers and repeats, refusing a URL or recipients that do not fit the kind", async () => {
    const editor = await callerFor("editor");
    const webhooks = editor.caller.alerts.webhooks;
    const email = await webhooks.create({
      name: "mail",
      url: "smtp://mail.example.com:587",
      kind: "email",
      emailTo: "ops@example.com, dba@example.com",
      matchers: { severities: ["CRITICAL"], host: "db*" },
      repeatIntervalSeconds: 3600,
    });
    expect(email).toMatchObject({ kind: "email", matchers: { severities: ["CRITICAL"], host: "db*" }, repeatIntervalSeconds: 3600 });
    const am = await webhooks.create({ name: "am", url: "http://alertmanager.example:9093", kind: "alertmanager" });
    expect(am).toMatchObject({ kind: "alertmanager", matchers: {}, repeatIntervalSeconds: null });
    const cases: [Promise<unknown>, RegExp][] = [
      [webhooks.create({ name: "x", url: "smtp://mail.example.com", kind: "email" }), /emailTo/],
      [webhooks.create({ name: "x", url: "https://mail.example.com", kind: "email", emailTo: "a@b.c" }), /SMTP server/],
      [webhooks.create({ name: "x", url: "smtp://mail.example.com", kind: "slack" }), /must be http/],
      [webhooks.update({ id: am.id, url: "smtp://mail.example.com" }), /must be http/],
    ];
    for (const [call, message] of cases)
      await expect(call).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(message) });
    await expect(webhooks.create({ name: "x", url: "https://h.example", kind: "pager" as never })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(webhooks.create({ name: "x", url: "https://h.example", repeatIntervalSeconds: 5 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("shows viewers who gets which alerts, without the receivers' URLs or addresses", async () => {
    const editor = await callerFor("editor");
    const viewer = await callerFor("viewer", editor.orgId);
    await editor.caller.alerts.webhooks.create({
      name: "mail",
      url: "smtp://user:secret@mail.example.com:587",
      kind: "email",
      emailTo: "ops@example.com",
      matchers: { severities: ["CRITICAL"], host: "db*" },
      repeatIntervalSeconds: 3600,
    });
    await expect(viewer.caller.alerts.webhooks.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    const seen = await viewer.caller.alerts.webhooks.receivers();
    expect(seen).toEqual([
      {
        id: expect.any(String),
        name: "mail",
        kind: "email",
        enabled: true,
        matchers: { severities: ["CRITICAL"], host: "db*" },
        repeatIntervalSeconds: 3600,
      },
    ]);
    expect(JSON.stringify(seen)).not.toMatch(/secret|ops@/);
  });

  it("refuses an email receiver whose SMTP server's name resolves to an address the installation refuses", async () => {
    // This machine's own name resolves to loopback or a private address (Debian: /etc/hosts).
    if (refusedAddress((await lookup(hostname())).address, PUBLIC_ONLY) === null) return; // a public host name: nothing to show here
    const webhooks = (await callerFor("editor")).caller.alerts.webhooks;
    const refused = { code: "BAD_REQUEST", message: expect.stringMatching(new RegExp(`${hostname()} resolves to .*not allowed`)) };
    await expect(webhooks.create({ name: "x", url: `smtp://${hostname()}:25`, kind: "email", emailTo: "a@b.c" })).rejects.toMatchObject(
      refused,
    );
    const mail = await webhooks.create({ name: "mail", url: "smtp://mail.example.com:25", kind: "email", emailTo: "a@b.c" });
    await expect(webhooks.update({ id: mail.id, url: `smtps://u:p@${hostname()}` })).rejects.toMatchObject(refused);
    expect((await webhooks.list()).find((w) => w.id === mail.id)?.url).toBe("smtp://mail.example.com:25");
  });

  it("lets editors, not viewers, acknowledge, silence and manage webhooks, and audits each", async () => {
    const editor = await callerFor("editor");
    const viewer = await callerFor("viewer", editor.orgId);
    const ts = await openAlert(db, editor.orgId, "db01-pg-lag");
    const [alert] = decodeTimeline(
      (await editor.caller.alerts.timeline({ from: new Date(ts.getTime() - 60_000), to: new Date(ts.getTime() + 60_000) })).encoded,
    ).alerts;

    await expect(viewer.caller.alerts.acknowledge({ id: alert!.id, comment: "mine" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const stranger = await callerFor("editor");
    await expect(stranger.caller.alerts.acknowledge({ id: alert!.id, comment: "not mine" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(editor.caller.alerts.acknowledge({ id: alert!.id, comment: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await editor.caller.alerts.acknowledge({ id: alert!.id, comment: "failing over" });
    await expect(editor.caller.alerts.acknowledge({ id: alert!.id, comment: "again" })).rejects.toMatchObject({ code: "CONFLICT" });

    await expect(
      viewer.caller.alerts.silences.create({ matchers: { host: "db*" }, endsAt: new Date(Date.now() + 3_600_000), comment: "x" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      editor.caller.alerts.silences.create({ matchers: {}, endsAt: new Date(Date.now() - 1000), comment: "past" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const silence = await editor.caller.alerts.silences.create({
      matchers: { host: "db*" },
      endsAt: new Date(Date.now() + 3_600_000),
      comment: "maintenance",
    });
    expect(silence.matchers).toEqual({ host: "db*", service: "*", item: "*" });
    expect((await viewer.caller.alerts.silences.list({})).map((s) => s.id)).toEqual([silence.id]);
    await editor.caller.alerts.silences.expire({ id: silence.id });
    expect(await viewer.caller.alerts.silences.list({})).toEqual([]);
    expect((await viewer.caller.alerts.silences.list({ includeExpired: true })).map((s) => s.comment)).toEqual(["maintenance"]);

    await expect(editor.caller.alerts.webhooks.create({ name: "ops", url: "ftp://example.com/x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(viewer.caller.alerts.webhooks.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    const hook = await editor.caller.alerts.webhooks.create({ name: "ops", url: "https://hooks.example.com/x?token=s3cret" });
    await editor.caller.alerts.webhooks.update({ id: hook.id, enabled: false });
    await editor.caller.alerts.webhooks.delete({ id: hook.id });

    const audit = await testPrisma(db).auditEntry.findMany({ where: { organizationId: editor.orgId }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual([
      "alert.acknowledge",
      "silence.create",
      "silence.expire",
      "webhook.create",
      "webhook.update",
      "webhook.delete",
    ]);
    expect(audit.every((a) => a.actorUserId === editor.userId)).toBe(true);
    expect(JSON.stringify(audit.map((a) => [a.before, a.after]))).not.toContain("s3cret");
  });
});
