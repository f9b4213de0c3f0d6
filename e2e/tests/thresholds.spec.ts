import { expect, type Page, test } from "@playwright/test";
import { openItem, perProject, signIn } from "./fixtures";

async function choosePreset(page: Page, label: string) {
  const preview = page.getByRole("region", { name: "Preview" });
  await preview.getByRole("button", { name: /^Time range:/ }).click();
  await preview.getByRole("dialog", { name: "Choose a time range" }).getByRole("button", { name: label }).click();
}

const draftAlerts = (page: Page) => page.getByRole("region", { name: "Preview" }).getByTestId("alerts").first();

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("edits three hours and a period, sees the preview change, saves and reloads", async ({ page }) => {
  await openItem(page, perProject("db04-postgres-connections", "db03-postgres-connections"), "?range=7d");
  const editor = page.getByRole("region", { name: "Threshold editor" });
  const savedText = editor.getByText(/^Saved · revision \d+\.$/);
  await expect(savedText).toBeVisible();
  const revision = Number((await savedText.textContent())?.match(/\d+/)?.[0]);
  await expect(draftAlerts(page)).toHaveText(/^\d+$/);
  const before = Number(await draftAlerts(page).textContent());

  // The default period: every day no other period claims.
  await editor.getByRole("button", { name: /default/ }).click();
  for (const hour of [10, 11, 12]) await editor.getByLabel(`Hour ${hour} threshold`).fill("1");
  await expect(editor.getByText("Unsaved changes.")).toBeVisible();
  await expect(draftAlerts(page)).not.toHaveText(String(before));
  const loud = Number(await draftAlerts(page).textContent());
  expect(loud).toBeGreaterThan(before);

  await editor.getByLabel("Warning %").fill("5");
  await editor.getByLabel("Critical %").fill("2000");
  await expect(editor.getByText(/<=1000/)).toBeVisible();
  await expect(editor.getByRole("button", { name: "Save threshold" })).toBeDisabled();
  await editor.getByLabel("Critical %").fill("25");
  await editor.getByRole("button", { name: "Save threshold" }).click();
  await expect(editor.getByText(`Saved revision ${revision + 1}.`)).toBeVisible();

  await page.reload();
  await editor.getByRole("button", { name: /default/ }).click();
  await expect(editor.getByLabel("Hour 10 threshold")).toHaveValue("1");
  await expect(editor.getByLabel("Warning %")).toHaveValue("5");
  await expect(editor.getByLabel("Critical %")).toHaveValue("25");
  await expect(editor.getByText(`Saved · revision ${revision + 1}.`)).toBeVisible();
});

test("sets a constant by dragging the day curve", async ({ page }) => {
  await openItem(page, perProject("cache03-redis-memory", "cache02-redis-memory"), "?range=24h");
  const editor = page.getByRole("region", { name: "Threshold editor" });
  await editor.getByRole("button", { name: /default/ }).click();
  const hour12 = editor.getByLabel("Hour 12 threshold");
  const before = Number(await hour12.inputValue());
  const chart = editor.getByRole("slider", { name: "Day curve of the selected period" });
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  if (!box) throw new Error("the day curve is not laid out");
  // Plot area: 68 px of margin and y axis on the left, 16 px on the right, 12 px on top.
  const x = box.x + 68 + ((box.width - 84) * 12) / 24;
  await page.mouse.move(x, box.y + 150);
  await page.mouse.down();
  await page.mouse.move(x, box.y + 30, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => Number(await hour12.inputValue())).toBeGreaterThan(before);
  await expect(editor.getByText("Unsaved changes.")).toBeVisible();
  await page.screenshot({ path: "test-results/threshold-editor.png", fullPage: true });
});

test("shows an expression error at its position and completes function names", async ({ page }) => {
  await openItem(page, "queue01-rabbitmq-depth");
  const editor = page.getByRole("region", { name: "Threshold editor" });
  await editor.getByRole("button", { name: /default/ }).click();
  await editor.getByLabel("Hour 3 kind").selectOption("expression");
  const field = editor.getByLabel("Hour 3 expression");
  await field.fill("av");
  await expect(editor.getByRole("option", { name: /avg\(/ })).toBeVisible();
  await field.press("Enter");
  await expect(field).toHaveValue("avg(");
  await field.fill("avg(queue01-rabbitmq-depth[0:9] * 2");
  const alert = editor.getByRole("alert").filter({ hasText: "expected" });
  await expect(alert).toContainText("at 1:36");
  await expect(editor.locator(".expr-error-at")).toHaveCount(1);
  await expect(editor.getByText("1 expression(s) do not parse.")).toBeVisible();
  await expect(editor.getByRole("button", { name: "Save threshold" })).toBeDisabled();
  await field.fill("avg(queue01-rabbitmq-depth[0:9]) * 2");
  await expect(editor.locator(".expr-error-at")).toHaveCount(0);
  await expect(editor.getByRole("button", { name: "Save threshold" })).toBeEnabled();
});

test("keeps the preview range in the URL and shades the alerts of the draft", async ({ page }) => {
  await openItem(page, "web03-http-latency");
  const preview = page.getByRole("region", { name: "Preview" });
  await choosePreset(page, "Last 24 hours");
  await expect(page).toHaveURL(/range=24h/);
  await page.reload();
  await expect(preview.getByRole("button", { name: /^Time range: Last 24 hours/ })).toBeVisible();
  await choosePreset(page, "Last 7 days");
  await expect(page).toHaveURL(/range=7d/);
  await expect(preview.locator(".recharts-line-curve").first()).toBeVisible();
  // The demo's web03 latency incident (95 minutes at 3.2×) is an alert in the 7-day window.
  await expect(draftAlerts(page)).not.toHaveText("0");
  await expect(preview.locator(".recharts-reference-area-rect").first()).toBeVisible();
  await expect(preview.getByText("not deployed").or(preview.getByText(/Deployed v\d+/))).toBeVisible();
  await page.screenshot({ path: "test-results/threshold-preview.png", fullPage: true });
});

test("suggests hour values for a CPU series: inside 0–100, rounded, with the alerts a week expected on new data", async ({ page }) => {
  await openItem(page, "aws-ec2-cpu");
  // The demo's NAB items start without a threshold.
  await page.getByRole("button", { name: "Create a threshold policy" }).click();
  const panel = page.getByRole("region", { name: "Suggested thresholds" });
  await panel.getByRole("button", { name: "Suggest" }).click();
  await expect(panel.getByTestId("suggest-expected")).toContainText(
    /Expected on new data: about [\d.]+ alerts a week \(90 % range [\d.]+–[\d.]+\)/,
  );
  await expect(panel.getByTestId("suggest-summary")).toContainText("lines kept within 0–100 (detected)");
  const values = await panel.locator(".suggest-cell .mono").allTextContents();
  expect(values).toHaveLength(24);
  for (const text of values) {
    // Values a person writes: at most three significant digits, and every warning line (T + 10 %) below 100.
    expect(text).toMatch(/^→ (none|\d{1,3}(\.\d{1,2})?)$/);
    const v = Number(text.slice(2));
    if (!Number.isNaN(v)) expect(v * 1.1).toBeLessThan(100);
  }
  await panel.getByRole("button", { name: "Accept all hours", exact: true }).click();
  await panel.screenshot({ path: "test-results/threshold-suggestion.png" });
  const first = values[0]?.slice(2) ?? "";
  if (first !== "none") await expect(page.getByLabel("Hour 0 threshold")).toHaveValue(first);
});

test("bounds declared on the item keep the suggested lines inside them", async ({ page }) => {
  await openItem(page, "aws-ec2-cpu");
  const bounds = page.getByRole("form", { name: "Value bounds" });
  const save = bounds.getByRole("button", { name: "Save bounds" });
  // Another project's run may have declared them already: start from none declared.
  await bounds.getByLabel("Kind of values").selectOption({ label: "not declared" });
  if (await save.isEnabled()) {
    await save.click();
    await expect(save).toBeDisabled();
  }
  await bounds.getByLabel("Lowest possible value").fill("0");
  await bounds.getByLabel("Highest possible value").fill("-5");
  await save.click();
  await expect(bounds.locator(".error")).toContainText("the lower bound must be below the upper bound");
  await bounds.getByLabel("Highest possible value").fill("50");
  await save.click();
  await expect(save).toBeDisabled();
  await page.reload();
  await expect(page.getByRole("form", { name: "Value bounds" }).getByLabel("Highest possible value")).toHaveValue("50");

  const policy = page.getByRole("button", { name: "Create a threshold policy" });
  if (await policy.isVisible()) await policy.click();
  const panel = page.getByRole("region", { name: "Suggested thresholds" });
  await panel.getByRole("button", { name: "Suggest" }).click();
  await expect(panel.getByTestId("suggest-summary")).toContainText("lines kept within 0–50 (declared)");
  for (const text of await panel.locator(".suggest-cell .mono").allTextContents()) {
    const v = Number(text.slice(2));
    if (!Number.isNaN(v)) expect(v * 1.1).toBeLessThan(50);
  }
  // The card fits a phone's width: nothing wider than the panel.
  const overflow = await panel.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Leave the item as the other tests expect it: nothing declared.
  const declared = page.getByRole("form", { name: "Value bounds" });
  await declared.getByLabel("Kind of values").selectOption({ label: "not declared" });
  await declared.getByRole("button", { name: "Save bounds" }).click();
  await expect(declared.getByRole("button", { name: "Save bounds" })).toBeDisabled();
});

test("an expression reading an unknown series is flagged at its field, and Save waits until it is fixed", async ({ page }) => {
  // "Same time last week" of the item itself ($$HOSTNAME$$-…): a series that exists, so nothing is flagged.
  const key = perProject("web05-http-requests", "web06-http-requests");
  await openItem(page, key);
  const editor = page.getByRole("region", { name: "Threshold editor" });
  const field = editor.getByLabel("Hour 4 expression");
  await expect(field).toHaveValue(/\$\$HOSTNAME\$\$/);
  await expect(field).toHaveAttribute("aria-invalid", "false");

  await field.fill("avg(nosuchhost-http-requests[-168H], 1)");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(editor.getByText("unknown series 'nosuchhost-http-requests': no item or stored data has this key")).toBeVisible();
  await expect(editor.getByTestId("save-status")).toHaveText("Not saved while expressions read unknown series: nosuchhost-http-requests.");
  const save = editor.getByRole("button", { name: "Save threshold" });
  await expect(save).toBeDisabled();
  await page.keyboard.press("ControlOrMeta+S");
  await expect(editor.getByTestId("save-status")).toContainText("Not saved");

  await field.fill(`avg(${key}[-168H], 1)`);
  await expect(field).toHaveAttribute("aria-invalid", "false");
  await expect(editor.getByTestId("save-status")).toHaveText("Unsaved changes.");
  await expect(save).toBeEnabled();
});
