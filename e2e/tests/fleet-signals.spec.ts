import { createHash, randomBytes } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { withDatabase } from "./database";
import { signIn } from "./fixtures";

/**
 * What plugins and silence say reaches the alerts: a plugin exiting 2 on an item with no
 * threshold raises CRITICAL with its output in the alert's detail; an agent that stops calling in
 * raises one stale alert of its own within three of its checks' intervals.
 */

const prefix = `e2esig${randomBytes(3).toString("hex")}`;
/** The stopped agent's checks run every 20 s: its alert must come within three of them. */
const INTERVAL_MS = 20_000;

/** An agent of the demo organisation running one service with one item (no threshold), made and deployed in the database. */
async function agentWithService(name: string, host: string, service: string, item: string): Promise<string> {
  const token = `tm_agent_${randomBytes(32).toString("base64url")}`;
  await withDatabase(async (c) => {
    const org = (await c.query<{ id: string }>(`SELECT id FROM organizations WHERE slug = 'acme'`)).rows[0]!.id;
    const agent = await c.query<{ id: string }>(
      `INSERT INTO agents (organization_id, name, token_prefix, token_hash) VALUES ($1, $2, $3, $4) RETURNING id`,
      [org, name, token.slice(0, 16), createHash("sha256").update(token).digest("hex")],
    );
    const h = await c.query<{ id: string }>(`INSERT INTO hosts (organization_id, name) VALUES ($1, $2) RETURNING id`, [org, host]);
    const s = await c.query<{ id: string }>(
      `INSERT INTO services (organization_id, host_id, name, schedules, url, agent_id) VALUES ($1, $2, $3, $4, 'shell://localhost', $5) RETURNING id`,
      [org, h.rows[0]!.id, service, [`${INTERVAL_MS / 1000}S`], agent.rows[0]!.id],
    );
    const exec = "check_disk -w 10% -c 5% -p /";
    await c.query(`INSERT INTO service_items (organization_id, service_id, name, exec_statement, series_key) VALUES ($1, $2, $3, $4, $5)`, [
      org,
      s.rows[0]!.id,
      item,
      exec,
      `${host}-${service}-${item}`,
    ]);
    // Part of the deployed version too (deployments have their own tests): the worker evaluates what is deployed.
    await c.query(
      `INSERT INTO deployed_items (organization_id, series_key, deployment_version, host, service, item, service_url, schedules, exec_statement, policy, interval_ms)
       VALUES ($1, $2, (SELECT coalesce(max(deployment_version), 0) FROM deployed_items WHERE organization_id = $1), $3, $4, $5, 'shell://localhost', $6, $7, NULL, $8)`,
      [org, `${host}-${service}-${item}`, host, service, item, [`${INTERVAL_MS / 1000}S`], exec, INTERVAL_MS],
    );
  });
  return token;
}

async function openAlert(page: Page, key: string) {
  await page.goto(`/alerts?range=6h&host=${prefix}`);
  const table = page.getByRole("region", { name: "Alerts in the window" });
  await table.getByRole("button", { name: key }).first().click();
  const detail = page.getByRole("complementary", { name: "Alert detail" });
  await expect(detail.getByRole("heading", { name: key })).toBeVisible();
  return detail;
}

test("a plugin exiting 2 on an item with no threshold raises CRITICAL, its output in the alert's detail", async ({ page, request }) => {
  test.setTimeout(120_000);
  const host = `${prefix}db`;
  const key = `${host}-disk-root`;
  const token = await agentWithService(`${prefix}a1`, host, "disk", "root");
  const output = "DISK CRITICAL - free space: / 312 MB (2% inode=61%)";
  await signIn(page);
  // The agent reports what a failing check_disk says until the worker has taken the new item in
  // and raised the alert (a plugin state turns hard on its third result).
  await expect(async () => {
    const sent = await request.post("/api/ingest", {
      headers: { authorization: `Bearer ${token}` },
      data: { batchId: `${prefix}-${randomBytes(6).toString("hex")}`, results: [{ key, ts: Date.now(), value: null, status: 2, output }] },
    });
    expect(sent.status()).toBe(200);
    await page.goto(`/alerts?range=6h&host=${prefix}`);
    await expect(page.getByRole("region", { name: "Alerts in the window" }).getByRole("button", { name: key }).first()).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 90_000, intervals: [1_000] });
  const detail = await openAlert(page, key);
  await expect(detail.getByText("CRITICAL").first()).toBeVisible();
  await expect(detail.getByText(`plugin CRITICAL (exit 2): ${output}`).first()).toBeVisible();
});

test("an agent that stops calling in raises one stale alert of its own within three intervals", async ({ page, request }) => {
  test.setTimeout(150_000);
  const agent = `${prefix}a2`;
  const host = `${prefix}web`;
  const token = await agentWithService(agent, host, "ping", "rtt");
  // It reports once, then stops.
  const lastCall = Date.now();
  const sent = await request.post("/api/ingest", {
    headers: { authorization: `Bearer ${token}` },
    data: {
      batchId: `${prefix}-${randomBytes(6).toString("hex")}`,
      results: [{ key: `${host}-ping-rtt`, ts: lastCall, value: 0.4, status: 0, output: "PING OK" }],
    },
  });
  expect(sent.status()).toBe(200);
  await signIn(page);
  const heartbeat = `${agent}-agent-heartbeat`;
  await expect(async () => {
    await page.goto(`/alerts?range=6h&host=${prefix}`);
    await expect(page.getByRole("region", { name: "Alerts in the window" }).getByRole("button", { name: heartbeat }).first()).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 3 * INTERVAL_MS - (Date.now() - lastCall), intervals: [2_000] });
  // One alert for the agent, none for the item it runs.
  const table = page.getByRole("region", { name: "Alerts in the window" });
  await expect(table.getByRole("button", { name: `${host}-ping-rtt` })).toHaveCount(0);
  const detail = await openAlert(page, heartbeat);
  await expect(detail.getByText("UNKNOWN").first()).toBeVisible();
  await expect(detail.getByText(`stale: agent ${agent} has not called in since`).first()).toBeVisible();
});

test("an admin sets the organisation's time zone, in which cron schedules are read; an unknown zone is refused", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/organization");
  const panel = page.getByRole("region", { name: "Organisation" });
  const zone = panel.getByLabel("Time zone");
  await expect(zone).toHaveValue("UTC");
  await zone.fill("Mars/Olympus_Mons");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByText(/IANA time zone/)).toBeVisible();
  await zone.fill("Europe/Stockholm");
  await panel.getByRole("button", { name: "Save" }).click();
  await expect(panel.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: "Organisation" }).getByLabel("Time zone")).toHaveValue("Europe/Stockholm");
  // Back to UTC for the other tests of this run.
  await page.getByRole("region", { name: "Organisation" }).getByLabel("Time zone").fill("UTC");
  await page.getByRole("region", { name: "Organisation" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("region", { name: "Organisation" }).getByText("Saved.")).toBeVisible();
});
