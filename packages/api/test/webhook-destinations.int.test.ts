import type { Database } from "@tidemark/db/client";
import { deleteWebhooksOf, execute, testDatabase } from "@tidemark/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInMember } from "./signed-in.ts";

let db: Database;
const organizations: string[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await deleteWebhooksOf(db, organizations);
  await db.close();
});

describe("webhook destinations", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data/", /link-local/],
    ["http://127.0.0.1:9000/hook", /loopback/],
    ["http://10.0.0.5/hook", /private-network/],
    ["http://localhost:3000/api/health", /this machine/],
    ["http://[::1]/", /loopback/],
  ])("refuses %s when saved, with the reason", async (url, reason) => {
    const { caller, organizationId } = await signedInMember(db, "editor");
    organizations.push(organizationId);
    await expect(caller.alerts.webhooks.create({ name: "inside", url })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(reason),
    });
    const hook = await caller.alerts.webhooks.create({ name: "outside", url: "https://hooks.example.com/alerts" });
    await expect(caller.alerts.webhooks.update({ id: hook.id, url })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await caller.alerts.webhooks.list()).map((w) => w.url)).toEqual(["https://hooks.example.com/alerts"]);
  });

  it("shows viewers whether notifications went out, not what the receivers answered", async () => {
    const editor = await signedInMember(db, "editor");
    organizations.push(editor.organizationId);
    const viewer = await signedInMember(db, "viewer", editor.organizationId);
    const hook = await editor.caller.alerts.webhooks.create({ name: "ops", url: "https://hooks.example.com/alerts" });
    await execute(
      db,
      `INSERT INTO notification_deliveries (organization_id, webhook_id, alert_id, payload, status, attempts, last_error)
       VALUES ($1, $2, gen_random_uuid(), '{"status":"firing"}', 'failed', 3, 'connect ECONNREFUSED 10.1.2.3:8080')`,
      [editor.organizationId, hook.id],
    );
    const [seenByEditor] = await editor.caller.alerts.webhooks.deliveries({ limit: 10 });
    expect(seenByEditor).toMatchObject({ status: "failed", lastError: "connect ECONNREFUSED 10.1.2.3:8080" });
    const [seenByViewer] = await viewer.caller.alerts.webhooks.deliveries({ limit: 10 });
    expect(seenByViewer).toMatchObject({ status: "failed", attempts: 3, lastError: null });
  });
});
