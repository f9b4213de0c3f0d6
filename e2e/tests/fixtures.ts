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
