import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { withDatabase } from "./database";
import { createInvitationLink, openMenu, pageOverflow, signIn } from "./fixtures";

/** The receiver a run made: a run that fails midway must not leave it for the tests after it. */
let receiverName: string | null = null;
test.afterEach(async () => {
  const name = receiverName;
  receiverName = null;
  if (name) await withDatabase((sql) => sql.query(`DELETE FROM webhooks WHERE name = $1`, [name]));
});

/** A viewer of the demo organisation: invited by its admin (`admin`, signed in), joined in a browser of their own. */
async function newViewer(admin: Page, browser: Browser, baseURL: string | undefined): Promise<Page> {
  const mark = randomUUID().slice(0, 8);
  await admin.goto("/settings/members");
  const link = await createInvitationLink(admin, `viewer-${mark}@example.test`);
  const viewer = await (await browser.newContext({ baseURL })).newPage();
  await viewer.goto(new URL(link).pathname);
  await viewer.getByLabel("Your name").fill(`Viewer ${mark}`);
  await viewer.getByLabel("Password").fill("a long viewer password");
  await viewer.getByRole("button", { name: "Create account and join" }).click();
  await expect(viewer.getByText("Acme Operations · viewer")).toBeVisible();
  return viewer;
}

test("an admin adds, changes and deletes a receiver, told at each field what is wrong; a viewer sees it read only", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `on-call ${randomUUID().slice(0, 6)}`;
  receiverName = name;
  await signIn(page);
  await openMenu(page);
  await page.getByRole("link", { name: "Alerts" }).first().click();
  await page.getByRole("navigation", { name: "Alert pages" }).getByRole("link", { name: "Receivers" }).click();
  await expect(page).toHaveURL(/\/alerts\/receivers/);
  const form = page.getByRole("form", { name: "Add a receiver" });

  // An email receiver pointed at a web address, without recipients: said at the fields, nothing saved.
  await form.getByLabel("Receiver name").fill(name);
  await form.getByLabel("Kind").selectOption("email");
  await form.getByLabel("SMTP server").fill("https://mail.example.com");
  await form.getByLabel("Repeat every (minutes)").fill("0.5");
  await form.getByRole("button", { name: "Add receiver" }).click();
  await expect(form.getByText(/an email receiver's url is its SMTP server/)).toBeVisible();
  await expect(form.getByText(/whole minutes from 1/)).toBeVisible();
  await expect(form.getByLabel("SMTP server")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("SMTP server").fill("smtp://mail.example.com:587");
  await form.getByRole("button", { name: "Add receiver" }).click();
  await expect(form.getByText("one or more addresses, separated by commas")).toBeVisible();

  // The server refuses what only it can judge: this machine's own address (said at the field).
  await form.getByLabel("To").fill("ops@example.com");
  await form.getByLabel("Repeat every (minutes)").fill("60");
  await form.getByLabel("SMTP server").fill("smtp://127.0.0.1:25");
  await form.getByRole("button", { name: "Add receiver" }).click();
  await expect(form.getByText(/127\.0\.0\.1 is a loopback address/)).toBeVisible();
  await expect(form.getByRole("alert")).toHaveText("The server refused some fields: see the messages under them.");

  await form.getByLabel("SMTP server").fill("smtp://mail.example.com:587");
  await form.getByRole("checkbox", { name: "CRITICAL" }).check();
  await form.getByLabel("Host matches").fill("db*");
  await form.getByRole("button", { name: "Add receiver" }).click();
  const list = page.getByRole("region", { name: "Receivers" });
  const row = list.getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("Email through SMTP");
  await expect(row).toContainText("CRITICAL · host db*");
  await expect(row).toContainText("every 60 min while firing");
  await expect(row).toContainText("smtp://mail.example.com:587 → ops@example.com");
  // The list scrolls inside its frame; the page stays as wide as the window (a phone's too).
  expect(await pageOverflow(page)).toBeLessThanOrEqual(0);

  // Changed in place.
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("form", { name: `Edit receiver ${name}` });
  await expect(edit.getByLabel("Host matches")).toHaveValue("db*");
  await edit.getByRole("checkbox", { name: "WARNING" }).check();
  await edit.getByLabel("Repeat every (minutes)").fill("");
  await edit.getByRole("button", { name: "Save receiver" }).click();
  await expect(row).toContainText("CRITICAL, WARNING · host db*");
  await expect(row).toContainText("once");

  // A viewer sees who gets what, not where it goes, and cannot change it.
  const viewer = await newViewer(page, browser, baseURL);
  await viewer.goto("/alerts/receivers");
  const seen = viewer.getByRole("region", { name: "Receivers" });
  await expect(seen.getByRole("note")).toContainText("Read only");
  await expect(seen.getByRole("row", { name: new RegExp(name) })).toContainText("CRITICAL, WARNING · host db*");
  await expect(seen).not.toContainText("mail.example.com");
  await expect(viewer.getByRole("form", { name: "Add a receiver" })).toHaveCount(0);
  await expect(seen.getByRole("button", { name: /^Edit / })).toHaveCount(0);
  await viewer.context().close();

  await page.goto("/alerts/receivers");
  page.once("dialog", (dialog) => dialog.accept());
  await page
    .getByRole("region", { name: "Receivers" })
    .getByRole("button", { name: `Delete ${name}` })
    .click();
  await expect(page.getByRole("region", { name: "Receivers" }).getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
  // The old address leads here.
  await page.goto("/alerts/webhooks");
  await expect(page).toHaveURL(/\/alerts\/receivers/);
});
