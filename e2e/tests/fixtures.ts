import { expect, type Page } from "@playwright/test";

export const DEMO = { email: "demo@tidemark.dev", password: "tidemark-demo" };

export async function signIn(page: Page, email = DEMO.email, password = DEMO.password): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}
