import { expect, type Page, test } from "@playwright/test";
import { openItem, perProject, signIn } from "./fixtures";

/** Presses Tab until `target` has the focus (a keyboard user's way there), at most `limit` times. */
async function tabTo(page: Page, target: ReturnType<Page["getByLabel"]>, limit = 250) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`not reached in ${limit} Tab presses`);
}

test("edits an hour, moves a day-curve point and saves with Ctrl+S, keyboard only", async ({ page }) => {
  await signIn(page);
  await page.goto("/config/items");
  await page.getByRole("searchbox", { name: "Search items" }).fill("db04-postgres-connections");
  const href = await page.getByRole("link", { name: "db04-postgres-connections", exact: true }).getAttribute("href");
  await page.goto(`${href}`);
  const editor = page.getByRole("region", { name: "Threshold editor" });
  const saved = editor.getByText(/^Saved · revision \d+\.$/);
  await expect(saved).toBeVisible();
  const revision = Number((await saved.textContent())?.match(/\d+/)?.[0]);
  const defaultPeriod = editor.getByRole("button", { name: /default/ });
  await tabTo(page, defaultPeriod);
  await page.keyboard.press("Enter");

  // The hour's field, reached with Tab, is not hidden under the sticky Save bar.
  const hour9 = editor.getByLabel("Hour 9 threshold");
  await tabTo(page, hour9);
  const field = (await hour9.boundingBox())!;
  const bar = (await editor.locator(".save-bar").boundingBox())!;
  expect(field.y + field.height).toBeLessThanOrEqual(bar.y);
  await page.keyboard.press("ControlOrMeta+A");
  // A value this run has not saved before, so that the change is a change.
  const value = String(400 + (Date.now() % 500));
  await page.keyboard.type(value);
  await expect(editor.getByText("Unsaved changes.")).toBeVisible();

  // The day curve: arrows pick hour 9 and raise it one step; Escape puts the keys' change back.
  const curve = editor.getByRole("slider", { name: "Day curve of the selected period" });
  await tabTo(page, curve);
  for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowRight");
  await expect(curve).toHaveAttribute("aria-valuetext", `09:00: ${value}`);
  await page.keyboard.press("ArrowUp");
  await expect(hour9).not.toHaveValue(value);
  await page.keyboard.press("Escape");
  await expect(hour9).toHaveValue(value);

  await page.keyboard.press("ControlOrMeta+S");
  await expect(editor.getByText(`Saved revision ${revision + 1}.`)).toBeVisible();
  await page.reload();
  await editor.getByRole("button", { name: /default/ }).click();
  await expect(editor.getByLabel("Hour 9 threshold")).toHaveValue(value);
});

test("an expression takes no newline, switching to expr starts empty, and ? lists the shortcuts", async ({ page }) => {
  await signIn(page);
  await page.goto("/config/items");
  await page.getByRole("searchbox", { name: "Search items" }).fill("queue01-rabbitmq-depth");
  const href = await page.getByRole("link", { name: "queue01-rabbitmq-depth", exact: true }).getAttribute("href");
  await page.goto(`${href}`);
  const editor = page.getByRole("region", { name: "Threshold editor" });
  await editor.getByRole("button", { name: /default/ }).click();
  await editor.getByLabel("Hour 5 kind").selectOption("constant");
  await editor.getByLabel("Hour 5 threshold").fill("22");
  await editor.getByLabel("Hour 5 kind").selectOption("expression");
  const expression = editor.getByLabel("Hour 5 expression");
  await expect(expression).toHaveValue("");
  await expression.fill("2 * 3");
  await expression.press("Enter");
  await expect(expression).toHaveValue("2 * 3");

  await page.locator("h1").click();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help.getByRole("row", { name: /Save the threshold/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
});

test("Escape puts back every unsaved change of the editor, asking first", async ({ page }) => {
  await signIn(page);
  await openItem(page, perProject("web07-http-latency", "web08-http-latency"));
  const editor = page.getByRole("region", { name: "Threshold editor" });
  await expect(editor.getByText(/^Saved · revision \d+\.$/)).toBeVisible();
  await editor.getByRole("button", { name: /default/ }).click();
  const hour7 = editor.getByLabel("Hour 7 threshold");
  const original = await hour7.inputValue();
  await hour7.fill("12345");
  await editor.getByLabel("Hour 8 kind").selectOption("empty");
  await editor.getByLabel("Max soft").fill("7");
  await expect(editor.getByText("Unsaved changes.")).toBeVisible();

  // Dismissed: nothing is lost.
  page.once("dialog", (dialog) => dialog.dismiss());
  await hour7.press("Escape");
  await expect(hour7).toHaveValue("12345");

  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await hour7.press("Escape");
  expect(asked).toMatch(/^Discard every unsaved change to this threshold and go back to the saved one \(revision \d+\)\?$/);
  await expect(editor.getByText(/^Saved · revision \d+\.$/)).toBeVisible();
  await editor.getByRole("button", { name: /default/ }).click();
  await expect(editor.getByLabel("Hour 7 threshold")).toHaveValue(original);
  await expect(editor.getByLabel("Hour 8 kind")).toHaveValue("constant");
  await expect(editor.getByLabel("Max soft")).toHaveValue("3");

  // What a field holds that is not a number yet goes too (nothing to ask about: the draft is unchanged).
  await editor.getByLabel("Hour 7 threshold").fill("1e");
  await expect(editor.getByText(/^Saved · revision \d+\.$/)).toBeVisible();
  await editor.getByLabel("Hour 7 threshold").press("Escape");
  await expect(editor.getByLabel("Hour 7 threshold")).toHaveValue(original);
});
