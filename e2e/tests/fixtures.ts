import { expect, type Page, test } from "@playwright/test";

export const DEMO = { email: "demo@tidemark.dev", password: "tidemark-demo" };

export async function signIn(page: Page, email = DEMO.email, password = DEMO.password): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".topbar-org")).toBeVisible();
}

/**
 * Opens the top bar's menu where it is collapsed (a phone's width); on a desktop the navigation is
 * always in view and this does nothing. Call it before using a section link or the account controls.
 */
export async function openMenu(page: Page): Promise<void> {
  const menu = page.getByRole("button", { name: "Menu" });
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
}

/**
 * Both projects (desktop and phone) walk the same journeys against one Tidemark: a journey that
 * changes demo data it then asserts on takes a different item in each, so that neither run finds
 * the other's changes.
 */
export function perProject<T>(desktop: T, phone: T): T {
  return test.info().project.name === "phone" ? phone : desktop;
}

/** Opens an item's threshold editor by finding it in the items list (`query` appended to its URL). */
export async function openItem(page: Page, key: string, query = ""): Promise<void> {
  await page.goto("/config/items");
  await page.getByRole("searchbox", { name: "Search items" }).fill(key);
  const href = await page.getByRole("link", { name: key, exact: true }).getAttribute("href");
  await page.goto(`${href}${query}`);
  await expect(page.getByRole("heading", { name: key })).toBeVisible();
}

/** How much wider than the window the page is (0: it fits; the page scrolls sideways otherwise). */
export const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Creates an invitation from the members page the admin has open, and answers its link. The form
 * is filled and sent again while no link shows. Seen once in CI: a minute after the click the
 * address was still typed, with neither a link nor an error shown, as when a click lands before
 * React has hydrated the page; a user would simply click again.
 */
export async function createInvitationLink(admin: Page, email: string, role: "viewer" | "editor" | "admin" = "viewer"): Promise<string> {
  const link = admin.getByTestId("invitation-link");
  await expect(async () => {
    if (!(await link.isVisible())) {
      await admin.getByLabel("Email to invite").fill(email);
      await admin.getByLabel("Role of the invitee").selectOption(role);
      await admin.getByRole("button", { name: "Create invitation link" }).click({ timeout: 2000 });
    }
    await expect(link).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 30_000 });
  return (await link.textContent()) ?? "";
}
