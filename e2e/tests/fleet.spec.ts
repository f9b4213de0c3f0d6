import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { withDatabase } from "./database";
import { signIn } from "./fixtures";

const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");
/** Unique per run: the journey runs once per project (desktop, phone) on the same server. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const AGENT = `fleet-e2e-${RUN}`;
const HOST = `fleet${RUN}`;
const KEY = `${HOST}-alpha-v`;
const PLUGIN = "/usr/lib/nagios/plugins/check_dummy";

/** Host fleet01 with three shell services run by nobody yet; alpha's item has a threshold of 100 ("<") all day. */
async function createFleetHost(): Promise<void> {
  await withDatabase(async (client) => {
    const { rows: orgs } = await client.query<{ id: string }>(`SELECT id FROM organizations WHERE slug = 'acme'`);
    const org = orgs[0]!.id;
    const { rows: hosts } = await client.query<{ id: string }>(
      `INSERT INTO hosts (organization_id, name, description) VALUES ($1, $2, 'fleet journey') RETURNING id`,
      [org, HOST],
    );
    const { rows: policies } = await client.query<{ id: string }>(
      `INSERT INTO threshold_policies (organization_id, max_soft) VALUES ($1, 1) RETURNING id`,
      [org],
    );
    await client.query(
      `INSERT INTO threshold_periods (organization_id, policy_id, position, calc_method, warning, critical, hours, hour_levels)
       VALUES ($4, $1, 0, 'lower', 10, 30, $2, $3)`,
      [policies[0]!.id, JSON.stringify(Array(24).fill({ kind: "constant", value: 100 })), JSON.stringify(Array(24).fill(null)), org],
    );
    for (const service of ["alpha", "beta", "gamma"]) {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO services (organization_id, host_id, name, schedules, url) VALUES ($1, $2, $3, '{10S}', 'shell://localhost') RETURNING id`,
        [org, hosts[0]!.id, service],
      );
      await client.query(
        `INSERT INTO service_items (organization_id, service_id, name, exec_statement, series_key, policy_id) VALUES ($1, $2, 'v', $3, $4, $5)`,
        [
          org,
          rows[0]!.id,
          JSON.stringify({ check: `${PLUGIN} 0 'fine|v=42'`, label: "v" }),
          `${HOST}-${service}-v`,
          service === "alpha" ? policies[0]!.id : null,
        ],
      );
    }
  });
}

/** The real agent process, started with the token the Agents page showed. */
function startAgent(baseUrl: string, token: string, stateDir: string): ChildProcess {
  return spawn(path.join(REPO_ROOT, "node_modules", ".bin", "tsx"), [path.join(REPO_ROOT, "apps", "agent", "src", "main.ts")], {
    env: { ...process.env, TIDEMARK_URL: baseUrl, TIDEMARK_AGENT_TOKEN: token, TIDEMARK_AGENT_STATE_DIR: stateDir, AGENT_PORT: "0" },
    stdio: "ignore",
  });
}

/** The overview's row of alpha's item, read until it shows `state` (the worker evaluates within seconds of each 10 s result). */
async function expectEvaluated(page: Page, state: "OK" | "CRITICAL") {
  await expect(async () => {
    await page.goto("/");
    await page.getByRole("searchbox", { name: "Search service items" }).fill(KEY);
    const row = page.getByRole("row", { name: new RegExp(KEY) });
    await expect(row).toContainText(state, { timeout: 3000 });
    await expect(row).toContainText("42", { timeout: 1000 });
  }).toPass({ timeout: 120_000, intervals: [2000] });
}

async function deploy(page: Page, message: string): Promise<number> {
  await page.getByLabel("Deployment message").fill(message);
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  // The message clears once the version is stored, and the progress shown is then the new version's.
  await expect(page.getByLabel("Deployment message")).toHaveValue("");
  await expect(page.getByRole("region", { name: "Deployment history" })).toContainText(message);
  const progress = page.getByRole("region", { name: /Progress of version \d+/ });
  await expect(progress).toBeVisible();
  const label = await progress.getAttribute("aria-label");
  return Number(/\d+/.exec(label ?? "")?.[0]);
}

test("a fleet: assign three services to a new agent, deploy, then change, deploy and roll back a threshold", async ({ page, baseURL }) => {
  test.setTimeout(420_000);
  await createFleetHost();
  await signIn(page);
  page.on("dialog", (dialog) => void dialog.accept());

  // Create an agent and start the real agent process with its token.
  await page.goto("/agents");
  await page.getByLabel("New agent name").fill(AGENT);
  await page.getByRole("button", { name: "Create agent" }).click();
  const token = (await page.getByTestId("agent-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^tm_agent/);
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "tidemark-fleet-e2e-"));
  const agent = startAgent(baseURL ?? "", token, stateDir);
  try {
    // Three services, one bulk action; until then they run nowhere.
    await page.goto("/config/services");
    await page.getByRole("searchbox", { name: "Search services" }).fill(HOST);
    const services = page.getByRole("region", { name: "Services" });
    await expect(services.getByTestId(`service-${HOST}-alpha`)).toContainText("runs nowhere");
    await expect(services.getByRole("row")).toHaveCount(4);
    await services.getByLabel("Select every service on this page").check();
    await services.getByLabel("Assign to agent").selectOption({ label: AGENT });
    await services.getByRole("button", { name: "Assign selected (3)" }).click();
    await expect(services.getByRole("status")).toContainText("3 services assigned");
    for (const s of ["alpha", "beta", "gamma"]) await expect(services.getByTestId(`service-${HOST}-${s}`)).toContainText(AGENT);

    // The diff before Deploy: the agent's new checks, and alpha's threshold; then the agent applies it.
    await page.goto("/deploy");
    const preview = page.getByTestId(`preview-${AGENT}`);
    for (const s of ["alpha", "beta", "gamma"]) await expect(preview).toContainText(`+ ${HOST}-${s}`);
    await expect(preview).toContainText(`${PLUGIN} 0 'fine|v=42'`);
    await expect(page.getByTestId(`evaluation-${KEY}`)).toContainText("period 1 · hours 0–23: — → 100");
    const first = await deploy(page, "fleet journey: assign");
    const progress = page.getByRole("region", { name: `Progress of version ${first}` });
    await expect(progress.getByTestId(`target-${AGENT}`)).toContainText("applied", { timeout: 60_000 });
    await expect(progress.getByTestId("progress-summary")).toContainText("1 applied");
    await expectEvaluated(page, "OK");

    // Change the threshold: the editor says the draft differs, old → new; the diff says it too.
    await page.goto("/config/items");
    await page.getByRole("searchbox", { name: "Search items" }).fill(KEY);
    await page.getByRole("link", { name: KEY, exact: true }).click();
    const editor = page.getByRole("region", { name: "Threshold editor" });
    await editor.getByRole("button", { name: /default/ }).click();
    for (let hour = 0; hour < 24; hour++) await editor.getByLabel(`Hour ${hour} threshold`).fill("20");
    await editor.getByRole("button", { name: "Save threshold" }).click();
    const status = page.getByTestId("draft-status");
    await expect(status).toContainText(`Draft differs from deployed version ${first}`);
    await expect(status).toContainText("period 1 · hours 0–23: 100 → 20");
    await expectEvaluated(page, "OK");

    await page.goto("/deploy");
    await expect(page.getByTestId("draft-status")).toContainText(`The draft differs from what is deployed (version ${first})`);
    await expect(page.getByTestId(`evaluation-${KEY}`)).toContainText("period 1 · hours 0–23: 100 → 20");
    await expect(page.getByTestId(`preview-${AGENT}`)).toContainText("no change");
    const second = await deploy(page, "fleet journey: tighter");
    await expect(page.getByTestId("draft-status")).toContainText(`The draft is what is deployed (version ${second})`);
    // 42 against 20 ("should be lower", critical above 130 %): the worker evaluates the new value.
    await expectEvaluated(page, "CRITICAL");

    // Roll back to the first version: the old threshold is evaluated again.
    await page.goto("/deploy");
    await page.getByRole("button", { name: `Roll back to v${first}` }).click();
    await expect(page.getByRole("region", { name: `Progress of version ${second + 1}` })).toBeVisible();
    await expectEvaluated(page, "OK");
  } finally {
    agent.kill("SIGTERM");
    rmSync(stateDir, { recursive: true, force: true });
  }
});
