import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./fixtures";

const here = path.dirname(fileURLToPath(import.meta.url));
const prefix = `e2e${randomBytes(3).toString("hex")}`;
const WEB = `${prefix}web01-http-latency`;
const DB = `${prefix}db01-pg-lag`;
const CACHE = `${prefix}cache01-redis-hits`;
const HOUR = 3_600_000;
/** When each series' alert opened, as the seed made it. */
let opened: Record<string, string> = {};

test.beforeAll(() => {
  const dataDir = process.env.TIDEMARK_DATA_DIR;
  if (!dataDir) throw new Error("TIDEMARK_DATA_DIR is not set: run the browser tests through `npm test -- e2e`");
  const url = readFileSync(path.join(dataDir, "database-url"), "utf8").trim();
  const tsx = path.join(here, "..", "..", "node_modules", ".bin", "tsx");
  const out = execFileSync(tsx, [path.join(here, "alerts-seed.ts"), prefix], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  const seeded = JSON.parse(out.trim().split("\n").at(-1) as string);
  expect(seeded.summary.opened).toBeGreaterThanOrEqual(3);
  opened = seeded.opened;
});

const alertsTable = (page: Page) => page.getByRole("region", { name: "Alerts in the window" });

async function openTimeline(page: Page, query = "") {
  await signIn(page);
  await page.goto(`/alerts?range=6h&host=${prefix}${query}`);
  await expect(page.getByRole("img", { name: /Alert swimlanes/ })).toBeVisible();
}

test("the timeline shows the window's alerts as swimlanes, filters them, and keeps the view in the URL", async ({ page }) => {
  await openTimeline(page);
  const table = alertsTable(page);
  await expect(table.getByRole("heading", { name: "Alerts (7)" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Alert swimlanes: 3 series" })).toBeVisible();
  for (const key of [WEB, DB, CACHE]) await expect(table.getByRole("button", { name: key }).first()).toBeVisible();
  await expect(table.getByRole("row", { name: new RegExp(CACHE) }).filter({ hasText: "flapping" })).toHaveCount(1);

  await page.getByLabel("State", { exact: true }).selectOption("open");
  await expect(page).toHaveURL(/status=open/);
  await expect(table.getByRole("heading", { name: "Alerts (2)" })).toBeVisible();
  await page.getByLabel("Flapping", { exact: true }).selectOption("no");
  await expect(table.getByRole("heading", { name: "Alerts (1)" })).toBeVisible();
  await expect(table.getByRole("button", { name: WEB })).toBeVisible();

  // The boxes reflect the URL, so they change once the navigation lands: click, then expect.
  await page.getByRole("checkbox", { name: "WARNING" }).click();
  await expect(page).toHaveURL(/severity=WARNING/);
  await expect(table.getByText("No alerts in this window match the filters.")).toBeVisible();
  await page.getByRole("checkbox", { name: "WARNING" }).click();
  await expect(page.getByRole("checkbox", { name: "WARNING" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "CRITICAL" }).click();
  await expect(page).toHaveURL(/severity=CRITICAL/);
  await expect(table.getByRole("heading", { name: "Alerts (1)" })).toBeVisible();

  // Zooming fixes the window in the URL; a reload shows the same view.
  await page.getByRole("button", { name: "Zoom out" }).click();
  await expect(page).toHaveURL(/from=.*&to=/);
  const zoomed = page.url();
  await page.reload();
  await expect(page).toHaveURL(zoomed);
  await expect(page.getByLabel("State", { exact: true })).toHaveValue("open");
  await expect(page.getByRole("checkbox", { name: "CRITICAL" })).toBeChecked();

  // Clicking a bar opens its alert; dragging across the lanes zooms into that span.
  await page.goto(`/alerts?range=6h&host=${prefix}`);
  // Measured once the lanes are in: before the data arrives the canvas is only its time axis.
  const canvas = page.getByRole("img", { name: "Alert swimlanes: 3 series" });
  await expect(canvas).toBeVisible();
  const box = (await canvas.boundingBox())!;
  // Lanes are ordered by host (cache01, db01, web01); web01's alert is still open, so it reaches the right edge.
  await page.mouse.click(box.x + box.width - 3, box.y + box.height - 11);
  await expect(page).toHaveURL(/alert=[0-9a-f-]{36}/);
  await expect(page.getByRole("complementary", { name: "Alert detail" }).getByRole("heading", { name: WEB })).toBeVisible();
  const y = box.y + box.height - 10;
  await page.mouse.move(box.x + box.width * 0.2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, y, { steps: 5 });
  await page.mouse.up();
  await expect(page).toHaveURL(/from=.*&to=/);
  // A zoom is a step in the history: Back returns to the 6 hours before it.
  await page.goBack();
  await expect(page).toHaveURL(/range=6h/);
  await expect(page).not.toHaveURL(/from=/);
});

test("an alert's detail shows what fired, and an editor acknowledges it with a comment", async ({ page }) => {
  await openTimeline(page, "&status=open&flapping=no");
  await alertsTable(page).getByRole("button", { name: WEB }).click();
  await expect(page).toHaveURL(/alert=[0-9a-f-]{36}/);
  const detail = page.getByRole("complementary", { name: "Alert detail" });
  await expect(detail.getByRole("heading", { name: WEB })).toBeVisible();
  await expect(detail.getByTestId("alert-value")).toHaveText("120");
  await expect(detail.getByText("WARNING 120 (100 < W < 110 < C < 130)").first()).toBeVisible();
  const history = detail.getByRole("region", { name: "History" });
  await expect(history.getByText("Opened")).toBeVisible();
  await expect(history.getByText("Escalated")).toBeVisible();

  await detail.getByLabel("Acknowledgement comment").fill("Failing over to the standby");
  await detail.getByRole("button", { name: "Acknowledge" }).click();
  await expect(detail.getByTestId("acknowledgement")).toContainText("Failing over to the standby");
  await expect(detail.getByTestId("acknowledgement")).toContainText("Acknowledged by");
  await expect(history.getByText("Acknowledged", { exact: true })).toBeVisible();

  await page.getByLabel("Acknowledged", { exact: true }).selectOption("yes");
  await expect(alertsTable(page).getByRole("heading", { name: "Alerts (1)" })).toBeVisible();
  await expect(
    alertsTable(page)
      .getByRole("row", { name: new RegExp(WEB) })
      .getByText("acknowledged"),
  ).toBeVisible();
});

test("a silence is created from an alert, listed, and expired", async ({ page }) => {
  await openTimeline(page, "&status=closed");
  await alertsTable(page).getByRole("button", { name: DB }).click();
  const detail = page.getByRole("complementary", { name: "Alert detail" });
  await detail.getByRole("link", { name: "Silence…" }).click();
  await expect(page).toHaveURL(/\/alerts\/silences\?/);
  await expect(page.getByLabel("Silence host")).toHaveValue(`${prefix}db01`);
  await expect(page.getByLabel("Silence service")).toHaveValue("pg");
  await expect(page.getByLabel("Silence item")).toHaveValue("lag");
  await page.getByLabel("Silence host").fill(`${prefix}db*`);
  const comment = `Replica rebuild ${prefix}`;
  await page.getByLabel("Silence comment").fill(comment);
  await page.getByLabel("Duration").selectOption({ label: "4 hours" });
  await page.getByRole("button", { name: "Create silence" }).click();

  const list = page.getByRole("region", { name: "Silences" });
  const row = list.getByRole("row", { name: new RegExp(comment) });
  await expect(row).toBeVisible();
  await expect(row.getByText(`${prefix}db*`)).toBeVisible();
  await row.getByRole("button", { name: "Expire" }).click();
  await expect(list.getByRole("row", { name: new RegExp(comment) })).toHaveCount(0);
  await page.getByLabel("show expired").check();
  await expect(list.getByRole("row", { name: new RegExp(comment) }).getByText("expired")).toBeVisible();
});

test("an alert's detail links to the item's threshold preview, around and marking the moment it fired", async ({ page }) => {
  await openTimeline(page, "&status=closed");
  await alertsTable(page).getByRole("button", { name: DB }).click();
  const detail = page.getByRole("complementary", { name: "Alert detail" });
  await detail.getByRole("link", { name: "Threshold preview at that moment" }).click();

  await expect(page).toHaveURL(/\/items\/[0-9a-f-]{36}\?/);
  await expect(page.getByRole("heading", { name: DB })).toBeVisible();
  const preview = page.getByRole("region", { name: "Preview" });
  // Six hours before the alert fired, to its end and six hours more (at most until now): an absolute range.
  const firedAt = Date.parse(opened[DB] as string);
  const minute = (t: number) => new Date(t).toISOString().slice(0, 16);
  const url = new URL(page.url());
  expect(minute(Date.parse(url.searchParams.get("from")!))).toBe(minute(firedAt - 6 * HOUR));
  const to = Date.parse(url.searchParams.get("to")!);
  expect(to).toBeGreaterThan(firedAt);
  expect(to).toBeLessThanOrEqual(Date.now());
  await preview.getByRole("button", { name: /^Time range:/ }).click();
  const picker = preview.getByRole("dialog", { name: "Choose a time range" });
  await picker.getByLabel("Times in").selectOption("utc");
  await expect(preview.getByRole("button", { name: /^Time range:/ })).toContainText("UTC");
  await page.keyboard.press("Escape");
  await preview.getByRole("button", { name: /^Time range:/ }).click();
  await expect(picker.getByLabel("From")).toHaveValue(minute(firedAt - 6 * HOUR).replace("T", " "));
  await page.keyboard.press("Escape");
  await expect(preview.getByTestId("preview-moment")).toContainText(`${minute(firedAt).slice(11)} UTC, marked on the chart`);
});

/** `20 Nov 2026, 13:05:00` as the dashboard writes an instant, in `timeZone`. */
function wallClock(t: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(t)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute}:${parts.second}`;
}

test.describe("in a browser five and a half hours ahead of UTC", () => {
  test.use({ timezoneId: "Asia/Kolkata" });

  test("the alert list and an alert's detail write times in the zone chosen, as the charts do", async ({ page }) => {
    await openTimeline(page, "&status=closed");
    const firedAt = Date.parse(opened[DB] as string);
    const chooseZone = async (choice: "browser" | "utc") => {
      await page.getByRole("button", { name: /^Time range:/ }).click();
      await page.getByRole("dialog", { name: "Choose a time range" }).getByLabel("Times in").selectOption(choice);
      await page.keyboard.press("Escape");
    };
    await chooseZone("browser");
    const table = alertsTable(page);
    await expect(table).toContainText(wallClock(firedAt, "Asia/Kolkata"));
    await table.getByRole("button", { name: DB }).first().click();
    const detail = page.getByRole("complementary", { name: "Alert detail" });
    await expect(detail.getByRole("heading", { name: DB })).toBeVisible();
    await expect(detail).toContainText(wallClock(firedAt, "Asia/Kolkata"));
    await expect(detail).not.toContainText(" UTC");

    await chooseZone("utc");
    await expect(table).toContainText(`${wallClock(firedAt, "UTC")} UTC`);
    await expect(detail).toContainText(`${wallClock(firedAt, "UTC")} UTC`);
  });
});
