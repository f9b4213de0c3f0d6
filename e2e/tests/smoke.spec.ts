import { expect, test } from "@playwright/test";
import { DEMO, openMenu, signIn } from "./fixtures";

test("a signed-out visitor is sent to the sign-in page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole("heading", { name: /Tidemark/ })).toBeVisible();
});

test("a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".auth-card").getByRole("alert")).toHaveText("wrong email or password");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("signs in, sees the demo dashboard with history, and signs out", async ({ page }) => {
  await signIn(page);
  await expect(page.getByText("Acme Operations · admin")).toBeVisible();
  const overview = page.getByRole("region", { name: "Overview" });
  await expect(overview.getByText("Hosts")).toBeVisible();
  await expect(overview.getByText("TimescaleDB", { exact: false })).toBeVisible();

  await page.getByRole("searchbox", { name: "Search service items" }).fill("web03-http-latency");
  const row = page.getByRole("row", { name: /web03-http-latency/ });
  await expect(row).toBeVisible();
  await expect(page.getByRole("row")).toHaveCount(2); // header + the one match
  await row.click();
  await expect(page).toHaveURL(/series=\d+/);
  const chart = page.getByRole("region", { name: "Series history" });
  await expect(chart.locator(".recharts-line-curve")).toBeVisible();

  await openMenu(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
});

test("health reports the embedded TimescaleDB and the migrations", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.ok()).toBe(true);
  const body = await response.json();
  expect(body.database).toMatchObject({ reachable: true, kind: "timescaledb" });
  expect(body.database.timescaledb).toMatch(/^2\./);
  expect(body.database.migrations).toBeGreaterThanOrEqual(2);
});
